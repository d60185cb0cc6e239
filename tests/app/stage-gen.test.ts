/**
 * In-game stage generation (src/app/stage-gen): the stage made by the comlink-exposed generator, called directly
 * and through a real worker thread, has the content hash of `npm run stage -- generate` with the same options;
 * the cache answers a second call without generating; cancelling ends the worker; the `[generator]` table
 * regenerates the stage byte for byte.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { wrap } from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { afterAll, describe, expect, it } from 'vitest';
import { main as stageCli } from '../../src/cli/stage';
import { createStageGenerator, type StageGenCache, type StageGenWorker } from '../../src/app/stage-gen/client';
import { stageGenApi, type GeneratedStageData, type StageGenApi } from '../../src/app/stage-gen/generate-api';
import { checkStageGenParams, generatedStageId, toGenerateOptions, type StageGenParams } from '../../src/app/stage-gen/params';
import { stageHash } from '../../src/replay/stage-check';
import { generateStage, GENERATOR_VERSION, optionsFromGeneratorTable, type GenerateOptions } from '../../terrain/generate';
import { parseStageToml } from '../../terrain/stage';

const PARAMS: StageGenParams = { seed: 424242, lengthKm: 1, landscape: 'mountain-tarmac', surfaceMix: 0.3 };
const tmp = mkdtempSync(join(tmpdir(), 'stagegen-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The CLI command line for generator options (every option the game sets has a flag). */
function cliArgs(o: GenerateOptions, out: string): string[] {
  const a = ['generate', '--seed', String(o.seed), '--length-km', String(o.lengthKm), '--surface', o.surface, '--id', o.id!, '--name', o.name!, '--out', out];
  if (o.size !== undefined) a.push('--size', String(o.size));
  if (o.relief !== undefined) a.push('--relief', String(o.relief));
  if (o.surfaceMix) a.push('--mix-surface', o.surfaceMix.surface, '--mix-fraction', String(o.surfaceMix.fraction));
  return a;
}

/** Content hash of the stage folder the CLI wrote. */
function cliStageHash(params: StageGenParams): string {
  const out = join(tmp, generatedStageId(params));
  expect(stageCli(cliArgs(toGenerateOptions(params), out))).toBe(0);
  return stageHash({ stageToml: readFileSync(join(out, 'stage.toml'), 'utf8'), heightPng: readFileSync(join(out, 'height.png')), surfacePng: readFileSync(join(out, 'surface.png')) });
}

function memoryCache(): StageGenCache & { map: Map<string, GeneratedStageData> } {
  const map = new Map<string, GeneratedStageData>();
  return { map, get: async (k) => map.get(k), put: async (k, v) => void map.set(k, v) };
}

/** A generator worker thread running the same module the browser's worker exposes. */
function startNodeWorker(): StageGenWorker & { exited: Promise<number> } {
  const w = new Worker(new URL('./fixtures/stage-gen-node-worker.mjs', import.meta.url));
  const exited = new Promise<number>((r) => w.once('exit', r));
  return { api: wrap<StageGenApi>(nodeEndpoint(w)), terminate: () => void w.terminate(), exited };
}

describe('stage generation in the game', () => {
  const direct = stageGenApi.generate(PARAMS);

  it('the comlink-exposed generator gives the content hash of `npm run stage -- generate` with the same options', () => {
    expect(direct.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(direct.hash).toBe(cliStageHash(PARAMS));
    expect(direct.id).toBe('gen-mountain-tarmac-424242-1-30');
    expect(direct.generatorVersion).toBe(GENERATOR_VERSION);
  });

  it('through a real worker thread (comlink node adapter): the same hash, progress rising to 1, the worker ended', async () => {
    const fractions: number[] = [];
    let worker: ReturnType<typeof startNodeWorker> | null = null;
    const get = createStageGenerator({ cache: memoryCache(), startWorker: () => (worker = startNodeWorker()) });
    const r = await get(PARAMS, { onProgress: (_phase, f) => fractions.push(f) });
    expect(r.cached).toBe(false);
    expect(r.hash).toBe(direct.hash);
    expect(r.files.stageToml).toBe(direct.files.stageToml);
    // the phases report in order: the overall fraction never goes back and ends at 1
    await new Promise((res) => setTimeout(res, 50)); // progress messages are posted before the result
    expect(fractions.length).toBeGreaterThan(7);
    for (let i = 1; i < fractions.length; i++) expect(fractions[i]!).toBeGreaterThanOrEqual(fractions[i - 1]!);
    expect(fractions[fractions.length - 1]).toBe(1);
    expect(await worker!.exited).toBeTypeOf('number');
  });

  it('a second call with the same parameters comes from the cache and starts no generator', async () => {
    const cache = memoryCache();
    let started = 0;
    // the generator's answer is the stage made above (generating costs seconds; this test is about the cache)
    const api: StageGenApi = { generate: (p) => ({ ...direct, params: checkStageGenParams(p) }) };
    const get = createStageGenerator({
      cache,
      startWorker: () => {
        started++;
        return { api, terminate: () => {} };
      },
    });
    const a = await get(PARAMS);
    const b = await get({ ...PARAMS });
    expect(started).toBe(1);
    expect([a.cached, b.cached]).toEqual([false, true]);
    expect(b.hash).toBe(a.hash);
    // the key is (generator version, parameters): other parameters generate again
    await get({ ...PARAMS, surfaceMix: 0 });
    expect(started).toBe(2);
    expect([...cache.map.keys()]).toEqual([`v${GENERATOR_VERSION}|mountain-tarmac|424242|1|0.3`, `v${GENERATOR_VERSION}|mountain-tarmac|424242|1|0`]);
  });

  it('cancelling ends the worker thread, rejects with an AbortError and caches nothing', async () => {
    const cache = memoryCache();
    const ctl = new AbortController();
    let worker: ReturnType<typeof startNodeWorker> | null = null;
    const get = createStageGenerator({ cache, startWorker: () => (worker = startNodeWorker()) });
    const p = get({ ...PARAMS, seed: 7 }, { signal: ctl.signal, onProgress: () => ctl.abort() });
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(await worker!.exited).toBeTypeOf('number');
    expect(cache.map.size).toBe(0);
  });

  it("records the options in stage.toml's [generator] table, which regenerate the stage byte for byte", () => {
    const toml = parseStageToml(direct.files.stageToml, 'gen/stage.toml');
    expect(toml.generator).toEqual({ version: GENERATOR_VERSION, seed: 424242, length_km: 1, style: 'tarmac', size: 1025, cell_size_m: 2, relief: 1, surface_refine: 2, scenery: true, mix_surface: 'gravel', mix_fraction: 0.3 });
    const again = generateStage(optionsFromGeneratorTable(toml));
    expect(stageHash(again.files)).toBe(direct.hash);
    expect(() => optionsFromGeneratorTable({ ...toml, generator: { ...toml.generator!, version: GENERATOR_VERSION + 1 } })).toThrow(/generator\.version/);
  });

  it('a surface mix lays whole 250 m road sections in the second surface (none at 0, all at 1)', () => {
    const base: GenerateOptions = { seed: 7, lengthKm: 0.6, surface: 'gravel', size: 257, relief: 0.05, scenery: false };
    /** The road surface at the centreline of each 250 m section (sampled every 2 m, 3 m clear of the joins). */
    const sectionSurfaces = (fraction: number): Set<string>[] => {
      const { stage } = generateStage({ ...base, surfaceMix: { surface: 'tarmac', fraction } });
      const out: Set<string>[] = [];
      for (let d = 3; d < stage.road.lengthM - 3; d += 2) {
        const k = Math.floor(d / 250);
        if (d - k * 250 < 3 || (k + 1) * 250 - d < 3) continue;
        const p = stage.road.poseAt(d);
        (out[k] ??= new Set()).add(stage.surfaceMap.surfaceIdAt(p.x, p.z));
      }
      return out;
    };
    expect(sectionSurfaces(0).every((s) => s.size === 1 && s.has('gravel'))).toBe(true);
    expect(sectionSurfaces(1).every((s) => s.size === 1 && s.has('tarmac'))).toBe(true);
    const half = sectionSurfaces(0.5);
    expect(half.every((s) => s.size === 1)).toBe(true); // one surface per section
    expect(stageHash(generateStage(base).files)).not.toBe(stageHash(generateStage({ ...base, surfaceMix: { surface: 'tarmac', fraction: 0.5 } }).files));
  });

  it('the preview: the road start → finish every 10 m, its length, climb and corner calls', () => {
    const p = direct.preview;
    expect(p.lengthM).toBeCloseTo(1000, 0); // 1 km asked; the finish is floored to 0.1 m
    expect(p.x).toHaveLength(Math.round(p.lengthM / 10) + 1);
    expect(new Set(p.surface)).toEqual(new Set(['tarmac', 'gravel'])); // 30 % gravel sections on tarmac
    expect(p.climbM).toBeCloseTo(p.y.slice(1).reduce((a, y, i) => a + Math.max(0, y - p.y[i]!), 0), 9);
    expect(p.corners).toBe(direct.files.paceNotesToml.match(/^kind = "corner"$/gm)?.length);
    expect(p.corners).toBeGreaterThan(0);
  });

  it('refuses parameters outside the ranges, naming the key', () => {
    expect(() => checkStageGenParams({ ...PARAMS, lengthKm: 0.5 })).toThrow(/lengthKm/);
    expect(() => checkStageGenParams({ ...PARAMS, lengthKm: 15.5 })).toThrow(/lengthKm/);
    expect(() => checkStageGenParams({ ...PARAMS, lengthKm: 2.3 })).toThrow(/multiple of 0.5/);
    expect(() => checkStageGenParams({ ...PARAMS, landscape: 'moon' })).toThrow(/landscape/);
    expect(() => checkStageGenParams({ ...PARAMS, surfaceMix: 0.9 })).toThrow(/surfaceMix/);
    expect(() => checkStageGenParams({ ...PARAMS, surfaceMix: 0.305 })).toThrow(/whole percent/);
    expect(() => checkStageGenParams({ ...PARAMS, seed: -1 })).toThrow(/seed/);
  });
});
