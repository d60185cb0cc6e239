/**
 * Property tests of stage folders (issue #16): well-typed mutations of the shipped stage.toml files are either
 * refused with a ContentError (TerrainError) naming a key, or the stage loads with finite values and its scenery
 * colliders build; any byte string
 * given as stage.toml, and any bytes given as a stage PNG, give a result within the caps or a ContentError.
 * Seeded: the same cases every run.
 */
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml, stringify } from 'smol-toml';
import { loadStage, parseStageToml, type Stage, type StageFiles } from '../../terrain/stage';
import { readStageFiles } from '../../terrain/node';
import { decodeBoundedPng, type PngExpectation } from '../../terrain/png-guard';
import { encodeGrayPng } from '../../terrain/png';
import { ContentError } from '../../src/validate/errors';
import { fromScenery, SceneColliders } from '../../src/systems/sim/collision/scene';
import { applyMutation, byteStringArb, mutationsArb, namesAKey } from '../content/mutate';

// The mutations change stage.toml only: each shipped PNG is decoded once (the bounded decoder itself is fuzzed below).
vi.mock('../../terrain/png-guard', async (importOriginal) => {
  const mod = await importOriginal<typeof import('../../terrain/png-guard')>();
  const memo = new WeakMap<Uint8Array, Map<number, ReturnType<typeof mod.decodeBoundedPng>>>();
  const cached: typeof mod.decodeBoundedPng = (bytes, want, file) => {
    const byDepth = memo.get(bytes) ?? memo.set(bytes, new Map()).get(bytes)!;
    return byDepth.get(want.depth) ?? byDepth.set(want.depth, mod.decodeBoundedPng(bytes, want, file)).get(want.depth)!;
  };
  return { ...mod, decodeBoundedPng: cached, uncachedDecodeBoundedPng: mod.decodeBoundedPng };
});

const ROOT = join(__dirname, '../../src/content/stages');
/** Stages loaded in full for each mutation: the two small ones (257² heightmaps); the 1025² ones take ~1 s a load. */
const LOADED = ['test-short', 'rallycross-bitring'];
const FILES: Record<string, StageFiles> = Object.fromEntries(LOADED.map((id) => [id, readStageFiles(join(ROOT, id))]));
const ALL = ['col-tarmac', 'forest-gravel', 'rallycross-bitring', 'snow-ridge', 'test-short'];
const SEED = 20261125;
/** Copies a grown array gets: 25,000 passes the road.points cap (20,000). */
const GROW_BY = [1, 3, 100, 25_000];

const finite = (...v: number[]): boolean => v.every(Number.isFinite);

/** Every number a loaded stage exposes is finite. */
function stageFinite(s: Stage): boolean {
  const poses = [s.start, s.finish, ...s.checkpoints];
  return (
    finite(s.lengthM, s.road.lengthM) &&
    poses.every((p) => finite(p.x, p.y, p.z, p.heading, p.width, p.distanceM)) &&
    s.road.points.every(Number.isFinite) &&
    s.road.distances.every(Number.isFinite) &&
    s.heightfield.heights.every(Number.isFinite) &&
    s.scenery.every((it) => finite(it.x, it.y, it.z, it.rotY, it.scale, it.radius, it.height)) &&
    (s.joker === null || finite(s.joker.gateX, s.joker.gateZ, s.joker.road.lengthM)) &&
    finite(s.bspline.height(s.start.x, s.start.z))
  );
}

describe('stage folders: mutations of the shipped stage.toml files', () => {
  it('are refused with a ContentError naming a key, or load with finite values (1,000 cases)', () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.constantFrom(...LOADED), mutationsArb(GROW_BY), (id, muts) => {
        const doc = parseToml(FILES[id]!.stageToml) as Record<string, unknown>;
        for (const m of muts) applyMutation(doc, m);
        const file = `${id}/stage.toml`;
        let stage: Stage;
        try {
          stage = loadStage({ ...FILES[id]!, stageToml: stringify(doc) }, file);
        } catch (e) {
          return e instanceof ContentError && (namesAKey(e.message, file) || namesAKey(e.message, `${id}/height.png`) || namesAKey(e.message, `${id}/surface.png`));
        }
        accepted++;
        // the scenery's colliders are built as a game or scenario would (where radius 1e7 exhausted memory)
        const scene = new SceneColliders();
        fromScenery(stage.scenery, scene);
        return stageFinite(stage) && scene.n <= stage.scenery.length * 2;
      }),
      { numRuns: 1000, seed: SEED },
    );
    expect(accepted).toBeGreaterThan(100);
  });
});

describe('stage folders: any byte string as stage.toml', () => {
  const texts = ALL.map((id) => readFileSync(join(ROOT, id, 'stage.toml'), 'utf8'));
  it('parses to a stage config or throws a ContentError, nothing else (1,000 cases)', () => {
    fc.assert(
      fc.property(byteStringArb(texts), (text) => {
        try {
          const cfg = parseStageToml(text, 'fuzz/stage.toml');
          return cfg.road.points.length >= 2;
        } catch (e) {
          return e instanceof ContentError;
        }
      }),
      { numRuns: 1000, seed: SEED },
    );
  });
});

describe('stage images: any bytes as a PNG', () => {
  it('decode within the cap or throw a ContentError, nothing else (1,000 cases)', async () => {
    const { uncachedDecodeBoundedPng: decode } = (await import('../../terrain/png-guard')) as unknown as { uncachedDecodeBoundedPng: typeof decodeBoundedPng };
    const ramp = (n: number, depth: 8 | 16): Uint8Array => {
      const v = depth === 8 ? new Uint8Array(n * n) : new Uint16Array(n * n);
      for (let k = 0; k < v.length; k++) v[k] = (k * 37) % (depth === 8 ? 5 : 65536);
      return encodeGrayPng(v, n, n, depth);
    };
    const seeds = [ramp(17, 8), ramp(17, 16), ramp(3, 8)];
    const edit = fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }));
    const mutated = fc.tuple(fc.constantFrom(...seeds), fc.array(edit, { minLength: 1, maxLength: 6 }), fc.option(fc.nat())).map(([png, edits, cut]) => {
      const b = png.slice();
      for (const [at, v] of edits) b[at % b.length] = v;
      return cut === null ? b : b.subarray(0, cut % b.length);
    });
    // header fields (width, height, depth, colour type, interlace) set to arbitrary values, data left as it was
    const header = fc.tuple(fc.constantFrom(...seeds), fc.integer({ min: 16, max: 28 }), fc.integer({ min: 0, max: 255 })).map(([png, at, v]) => {
      const b = png.slice();
      b[at] = v;
      return b;
    });
    const bytes = fc.oneof(fc.uint8Array({ maxLength: 600 }), mutated, header);
    const wants: PngExpectation[] = [{ depth: 8, maxSide: 4097, what: 'codes' }, { depth: 16, maxSide: 2049, what: 'heights' }];
    fc.assert(
      fc.property(bytes, fc.constantFrom(...wants), (b, want) => {
        try {
          const png = decode(b, want, 'fuzz.png');
          return png.width >= 2 && png.width <= want.maxSide && png.height <= want.maxSide && png.data.length === png.width * png.height;
        } catch (e) {
          return e instanceof ContentError && namesAKey(e.message, 'fuzz.png');
        }
      }),
      { numRuns: 1000, seed: SEED },
    );
  });
});
