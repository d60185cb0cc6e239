/**
 * Every bad-input error thrown by `terrain/` is a `TerrainError` whose message names the file, the field,
 * what was expected and what was found (ARCHITECTURE.md, "Conventions"). It is a ContentError (the project's
 * error type for untrusted files), so callers that show ContentError messages show stage errors too.
 */
import { ContentError } from '../src/validate/errors';

export class TerrainError extends ContentError {
  readonly field: string;
  readonly expected: string;
  readonly found: string;
  constructor(file: string, field: string, expected: string, found: string) {
    super(file, [`field "${field}": expected ${expected}, found ${found}`]);
    this.name = 'TerrainError';
    this.field = field;
    this.expected = expected;
    this.found = found;
  }
}
