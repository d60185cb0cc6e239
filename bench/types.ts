/** One measured figure. `value` is in `unit`; `note` says what limits it or how it was measured. */
export interface BenchResult {
  suite: string;
  name: string;
  value: number;
  unit: string;
  /** Optional target (same unit) and whether lower is better. */
  target?: number;
  lowerIsBetter?: boolean;
  note?: string;
}

export interface BenchOptions {
  /** CI-friendly short run. */
  quick: boolean;
}

export interface BenchSuite {
  name: string;
  run(opts: BenchOptions): Promise<BenchResult[]>;
}
