/**
 * Small, named pieces (#15 item 4): ESLint's max-lines-per-function (eslint.config.js) refuses a function over
 * 80 lines in src/ and terrain/. A fixture of 81 lines is an error there and one of 80 is not; the only
 * exceptions are the two functions named in the config (warnings), and the real sources have no other.
 */
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
const RULE = 'max-lines-per-function';
const eslint = new ESLint({ cwd: ROOT, ruleFilter: ({ ruleId }) => ruleId === RULE });

/** A function of exactly `lines` lines (its header and closing brace included). */
function fixture(lines: number): string {
  const body = Array.from({ length: lines - 4 }, (_, i) => `  s += ${i};`);
  return ['export function long(): number {', '  let s = 0;', ...body, '  return s;', '}', ''].join('\n');
}

/** Severities (2 error, 1 warning) of the rule's reports on `text` linted as the file `file`. */
async function reports(file: string, text: string): Promise<number[]> {
  const [res] = await eslint.lintText(text, { filePath: join(ROOT, file) });
  return res!.messages.filter((m) => m.ruleId === RULE).map((m) => m.severity);
}

describe('no function over 80 lines in src/ and terrain/', () => {
  it('the fixture has the length it says', () => {
    expect(fixture(81).trimEnd().split('\n')).toHaveLength(81);
  });

  for (const file of ['src/app/long.ts', 'src/systems/sim/vehicle/long.ts', 'src/systems/sim/vehicle/tires.ts', 'terrain/long.ts']) {
    it(`${file}: 81 lines is an error, 80 lines passes`, async () => {
      expect(await reports(file, fixture(81))).toEqual([2]);
      expect(await reports(file, fixture(80))).toEqual([]);
    });
  }

  it('the sources: no function over the limit, no exception', async () => {
    const results = await eslint.lintFiles(['src/**/*.ts', 'terrain/**/*.ts']);
    const found = results.flatMap((r) => r.messages.filter((m) => m.ruleId === RULE).map((m) => ({ file: r.filePath.slice(ROOT.length + 1), severity: m.severity, message: m.message })));
    expect(found).toEqual([]);
  }, 120_000);
});
