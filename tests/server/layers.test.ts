/**
 * server/ is Node-only and sits beside the game: the ESLint rule (eslint.config.js, server config) refuses the
 * game (src/app), the views and every CLI module but the argument parser and exit codes; the layers it builds
 * on pass. Fixtures are linted in-process as if they were files in server/.
 */
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: ROOT, ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports' });

async function refused(specifier: string): Promise<boolean> {
  const [res] = await eslint.lintText(`import '${specifier}';\n`, { filePath: join(ROOT, 'server/fixture.ts') });
  return res!.messages.some((m) => m.ruleId === 'no-restricted-imports');
}

describe('server/ import rule', () => {
  it.each(['../src/app/game', '../src/systems/view/hud', '../src/cli/replay', '@babylonjs/core/scene', 'howler', 'idb', './x.png?url'])('refuses %s', async (s) => {
    expect(await refused(s)).toBe(true);
  });
  it.each(['../src/replay/verify', '../src/run/cars', '../src/content/cars/index', '../terrain/stage', '../src/validate/errors', '../src/cli/args', '../src/cli/errors', 'fastify'])('allows %s', async (s) => {
    expect(await refused(s)).toBe(false);
  });
});
