/** The message of the ContentError that parsing `text` as a scenario file ("bad.toml") must throw. */
import { expect } from 'vitest';
import { parseScenario } from '../../src/content/scenario-schema';
import { ContentError } from '../../src/validate/errors';

export function scenarioRefusal(text: string): string {
  try {
    parseScenario(text, 'bad.toml');
  } catch (e) {
    expect(e).toBeInstanceOf(ContentError);
    return (e as Error).message;
  }
  throw new Error('expected a ContentError');
}
