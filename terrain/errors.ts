/**
 * Every bad-input error thrown by `terrain/` is a `TerrainError` whose message names the file, the field,
 * what was expected and what was found (ARCHITECTURE.md, "Conventions").
 */
export class TerrainError extends Error {
  readonly file: string;
  readonly field: string;
  readonly expected: string;
  readonly found: string;
  constructor(file: string, field: string, expected: string, found: string) {
    super(`${file}: field "${field}": expected ${expected}, found ${found}`);
    this.name = 'TerrainError';
    this.file = file;
    this.field = field;
    this.expected = expected;
    this.found = found;
  }
}
