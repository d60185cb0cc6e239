/** The part of madge 8's API the import-cycle test uses (the package ships no types). */
declare module 'madge' {
  interface MadgeConfig {
    baseDir?: string;
    fileExtensions?: string[];
    tsConfig?: string | object;
    excludeRegExp?: RegExp[];
  }
  interface MadgeResult {
    /** Module → the modules it imports (paths relative to baseDir). */
    obj(): Record<string, string[]>;
    /** Each cycle as the list of its modules. */
    circular(): string[][];
    warnings(): { skipped: string[] };
  }
  export default function madge(path: string | string[], config?: MadgeConfig): Promise<MadgeResult>;
}
