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
  /** The range over the repeats the value is the median of (e.g. "0.80–0.88"), shown beside the value in tables. */
  spread?: string;
  /**
   * Why a missed target does not fail `--quick` (the CI run): the goal belongs to unfinished work (an issue
   * item), or the short run is too noisy near the goal. The full run always fails on a miss.
   */
  quickReportOnly?: string;
}

export interface BenchOptions {
  /** CI-friendly short run. */
  quick: boolean;
}

export interface BenchSuite {
  name: string;
  run(opts: BenchOptions): Promise<BenchResult[]>;
}
