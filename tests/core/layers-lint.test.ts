/**
 * The layers are ESLint rules (eslint.config.js, docs/architecture.md "Layers"). This test runs ESLint in-process
 * on fixtures placed virtually in each protected folder: every forbidden import, browser global and unseeded
 * random call is reported by the expected rule, and the imports a layer may use are not. Then the real sources
 * of those folders pass, and every per-file exception ("until the run layer") is still needed.
 */
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import { join, relative } from 'node:path';
import { readdirSync } from 'node:fs';

const ROOT = join(import.meta.dirname, '../..');
/** The protected folders that exist (src/run is protected too, once it exists). */
const PROTECTED = ['src/validate', 'terrain', 'src/ecs', 'src/systems/sim', 'src/content', 'src/run', 'src/replay', 'src/net'];
const LAYER_RULES = new Set([
  'no-restricted-imports',
  'no-restricted-globals',
  'no-restricted-properties',
  'no-restricted-syntax',
]);
/** Only the layer rules run: the fixtures are not meant to satisfy the style rules. */
const eslint = new ESLint({ cwd: ROOT, ruleFilter: ({ ruleId }) => LAYER_RULES.has(ruleId) });

/** Lint `text` as if it were the file `file` (repo-relative); the layer rules it breaks (each named once). */
async function layerErrors(file: string, text: string): Promise<string[]> {
  const [res] = await eslint.lintText(text, { filePath: join(ROOT, file) });
  const fatal = res!.messages.filter((m) => m.fatal);
  if (fatal.length) throw new Error(`${file}: fixture does not parse: ${fatal[0]!.message}`);
  return [...new Set(res!.messages.map((m) => m.ruleId!))];
}

/** The specifier a file in `from` (folder) would write to import the repo module `to`. */
function spec(from: string, to: string): string {
  const r = relative(from, to);
  return r.startsWith('.') ? r : `./${r}`;
}

/** Browser, renderer, audio, editor, plot and IndexedDB packages, and Vite-only imports. */
const BROWSER_PACKAGES = [
  '@babylonjs/core/scene',
  '@babylonjs/materials',
  'howler',
  'codemirror',
  '@codemirror/view',
  'uplot',
  'idb',
  '@babylonjs/havok/lib/esm/HavokPhysics.wasm?url',
  './cars/hatch-gti.toml?raw',
];
const TOP = ['src/app/game', 'src/systems/view/hud', 'src/cli/sim'];

interface Layer {
  /** A folder the fixture is placed in (a nested one where the layer has subfolders). */
  dir: string;
  /** Repo modules it must not import. */
  bad: string[];
  /** Repo modules and packages it may import. */
  good: string[];
}
const LAYERS: Layer[] = [
  { dir: 'src/validate', bad: ['src/content/surfaces', 'terrain/stage', 'src/ecs/world', ...TOP], good: ['src/validate/errors', 'zod', 'smol-toml'] },
  {
    dir: 'terrain',
    bad: ['src/ecs/world', 'src/content/surfaces'],
    good: ['terrain/stage', 'src/validate/errors', 'zod', 'fflate'],
  },
  {
    dir: 'src/content',
    bad: ['src/ecs/world', 'src/systems/sim/halt-guard', 'src/replay/format', 'src/run/pipeline', ...TOP],
    good: ['terrain/surface', 'src/validate/errors', 'src/content/surfaces', 'zod', 'smol-toml'],
  },
  {
    dir: 'src/ecs/components',
    bad: ['src/systems/sim/halt-guard', 'src/replay/bytes', 'src/run/pipeline', ...TOP],
    good: ['src/ecs/world', 'src/ecs/rigid-body', 'src/content/car-schema', 'terrain/stage', 'bitecs'],
  },
  {
    dir: 'src/systems/sim/vehicle',
    bad: ['src/replay/format', 'src/run/pipeline', ...TOP],
    good: ['src/ecs/world', 'src/ecs/rigid-body', 'src/content/car-schema', 'terrain/stage', '@babylonjs/havok'],
  },
  {
    dir: 'src/replay',
    bad: ['src/app/game', 'src/systems/view/hud', 'src/cli/replay'],
    good: [
      'src/ecs/world',
      'src/run/pipeline',
      'src/systems/sim/halt-guard',
      'src/content/car-schema',
      'terrain/stage',
      'fflate',
    ],
  },
  {
    dir: 'src/run',
    bad: ['src/replay/format', ...TOP],
    good: ['src/ecs/world', 'src/systems/sim/vehicle/registry', 'src/content/car-schema', 'terrain/stage'],
  },
  {
    dir: 'src/net',
    bad: TOP,
    good: ['src/run/step', 'src/replay/format', 'src/systems/sim/collision/pair-solve', 'colyseus.js'],
  },
];

/** Each line: a use of a forbidden global or property, and the rule that must report it. */
const BAD_CODE: [string, string][] = [
  ['export const w = window.innerWidth;', 'no-restricted-globals'],
  ['export const t = document.title;', 'no-restricted-globals'],
  ['export const p = fetch("stage.png");', 'no-restricted-globals'],
  ['export const u = navigator.userAgent;', 'no-restricted-globals'],
  ['export const now = performance.now();', 'no-restricted-globals'],
  ['export const s = localStorage.getItem("k");', 'no-restricted-globals'],
  ['export const db = indexedDB.open("k");', 'no-restricted-globals'],
  ['export const raf = requestAnimationFrame(() => {});', 'no-restricted-globals'],
  ['export const d = Date.now();', 'no-restricted-globals'],
  ['export const d = new Date();', 'no-restricted-globals'],
  ['export const f = globalThis.fetch;', 'no-restricted-globals'],
  ['export const r = crypto.getRandomValues(new Uint32Array(1));', 'no-restricted-globals'],
  ['export const r = Math.random();', 'no-restricted-properties'],
  ['export const s = Math.sin(1);', 'no-restricted-properties'],
  ['export const p = Math.pow(2, 0.5);', 'no-restricted-properties'],
  ['export const a = Math.atan2(1, 2);', 'no-restricted-properties'],
  ['export const m = import("../app/game");', 'no-restricted-syntax'],
  // the one dynamic import allowed is a kernel's module text in the folder's own ./wasm: not above it, not deeper
  ['export const m = import("../wasm/forces-wasm");', 'no-restricted-syntax'],
  ['export const m = import("./wasm/forces-wasm/../../../app/game");', 'no-restricted-syntax'],
  ['export const m = import("./wasm/" + "forces-wasm");', 'no-restricted-syntax'],
];
const GOOD_CODE =
  'export const ok = (t: number): number => Math.sqrt(t) + Math.hypot(t, 1) * Number.EPSILON;\nexport const k = () => import("./wasm/forces-wasm");';

describe('layers as lint rules', () => {
  for (const { dir, bad, good } of LAYERS) {
    const file = `${dir}/layers-fixture.ts`;
    const from = join(ROOT, dir);

    it(`${dir}: every forbidden import is reported`, async () => {
      const targets = [...bad.map((m) => spec(from, join(ROOT, m))), ...BROWSER_PACKAGES];
      for (const t of targets) {
        expect(
          await layerErrors(file, `import { x } from '${t}';\nexport const y = x;\n`),
          `${file}: import '${t}'`,
        ).toEqual(['no-restricted-imports']);
        expect(await layerErrors(file, `export { x } from '${t}';\n`), `${file}: export … from '${t}'`).toEqual([
          'no-restricted-imports',
        ]);
      }
    });

    it(`${dir}: the imports it may use pass`, async () => {
      const targets = good.map((m) => (m.includes('/') && !m.startsWith('@') ? spec(from, join(ROOT, m)) : m));
      for (const t of targets)
        expect(await layerErrors(file, `import { x } from '${t}';\nexport const y = x;\n`), t).toEqual([]);
    });

    it(`${dir}: browser globals, wall clock, Math.random and the engine-dependent Math functions are reported; exact Math is not`, async () => {
      for (const [code, rule] of BAD_CODE) expect(await layerErrors(file, code), code).toEqual([rule]);
      expect(await layerErrors(file, GOOD_CODE)).toEqual([]);
    });
  }

  it('src/content may name a simulation type, not import its code', async () => {
    const f = 'src/content/layers-fixture.ts';
    expect(await layerErrors(f, `import type { SimWorld } from '../ecs/world';\nexport type W = SimWorld;\n`)).toEqual(
      [],
    );
    expect(
      await layerErrors(f, `import { createSimWorld } from '../ecs/world';\nexport const w = createSimWorld;\n`),
    ).toEqual(['no-restricted-imports']);
  });

  it('the unprotected folders are not held to the layers', async () => {
    expect(
      await layerErrors(
        'src/app/layers-fixture.ts',
        `import { Scene } from '@babylonjs/core/scene';\nexport const s = [Scene, window, Date.now()];\n`,
      ),
    ).toEqual([]);
  });

  // Linting ~100 real files on a loaded 2-core machine takes tens of seconds (a time limit, not a speed check).
  it('the sources of every protected folder pass', { timeout: 300_000 }, async () => {
    const results = await eslint.lintFiles(PROTECTED);
    expect(results.length).toBeGreaterThan(90);
    const bad = results.flatMap((r) =>
      r.messages.map((m) => `${relative(ROOT, r.filePath)}:${m.line}: ${m.ruleId}: ${m.message}`),
    );
    expect(bad).toEqual([]);
  });

  it(
    'no file has an exception: every file in a protected folder has its folder import rule',
    { timeout: 120_000 },
    async () => {
      const rule = async (file: string): Promise<string> =>
        JSON.stringify((await eslint.calculateConfigForFile(join(ROOT, file))).rules['no-restricted-imports']);
      const files = PROTECTED.flatMap((dir) =>
        readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
          .filter((f) => f.endsWith('.ts'))
          .map((f) => join(dir, f)),
      );
      expect(files.length).toBeGreaterThan(90);
      // the files eslint does not read: AssemblyScript (terrain/wasm/build.ts compiles them; they import nothing)
      const ignored: string[] = [];
      for (const file of files) if (await eslint.isPathIgnored(join(ROOT, file))) ignored.push(file);
      expect(ignored.sort()).toEqual(['src/systems/sim/vehicle/wasm/assembly/forces.ts', 'terrain/wasm/assembly/patch.ts']);
      const exempt: string[] = [];
      for (const file of files.filter((f) => !ignored.includes(f))) {
        const dir = PROTECTED.find((d) => file.startsWith(`${d}/`))!;
        if ((await rule(file)) !== (await rule(`${dir}/layers-fixture.ts`))) exempt.push(file);
      }
      expect(exempt).toEqual([]);
    },
  );
});
