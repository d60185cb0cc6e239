/**
 * THE function that builds a run's simulation world from a replay header. The live game, the replay
 * player, the ghost and `npm run replay -- verify` all build their world through `buildRunWorld`, so a
 * verification re-simulates exactly what the browser simulated: same dt, integrator, seed, gravity, ground
 * (stage checked by content hash), cars spawned from the embedded car file text, in header order.
 */
import { createSimWorld, type SimWorld } from '../ecs/world';
import { FlatGround, type Ground } from '../ecs/ground';
import { loadStage, type Stage, type StageFiles } from '../../terrain/stage';
import { StageGround } from '../systems/sim/vehicle/stage-ground';
import { contentHash, ReplayFormatError } from './bytes';
import { fromScenery } from '../systems/sim/collision/scene';
import { setSceneColliders } from '../systems/sim/collision/runtime';
import type { CarFilesSource, ReplayCar, ReplayData, ReplayHeader, ReplayPose, StageFilesData } from './format';

/** How cars enter a world. The vehicle adapter (src/replay/cars.ts) is the default once registered. */
export interface CarAdapter {
  /** Spawns the car from its embedded file text at its start pose; returns the car entity. */
  spawn(world: SimWorld, car: ReplayCar): number;
  /** Puts the car at rest at `pose` (recovery). */
  place(world: SimWorld, eid: number, pose: ReplayPose): void;
  /**
   * Gives the car the configuration of `source` (the same object always yields the same config object):
   * 'swap' = a recorded mid-run swap, applied exactly as the game applied it (state kept, reconfigured);
   * 'restore' = only the configuration, before a keyframe restore writes the state (seeking).
   * Adapters without it cannot play replays that contain config edits.
   */
  setConfig?(world: SimWorld, eid: number, source: CarFilesSource, how: 'swap' | 'restore'): void;
  /**
   * Parses the embedded car files of a header car or a config edit with the game's car loader (throws its
   * ContentError on a bad file): replays are checked with it before they run (`checkReplayCars`).
   */
  parse?(source: CarFilesSource & { id?: string }): unknown;
}

/**
 * Every embedded car file of a replay (header cars and config edits) through the adapter's car loader, before
 * a world runs it: a file the loader refuses (e.g. a physical range) is a ReplayFormatError naming the replay,
 * the car or edit and the embedded file, with the loader's message.
 */
export function checkReplayCars(data: Pick<ReplayData, 'header' | 'edits'>, adapter: CarAdapter, file = 'replay'): void {
  if (!adapter.parse) return;
  const parse = (src: CarFilesSource & { id?: string }, field: string): void => {
    try {
      adapter.parse!(src);
    } catch (e) {
      throw new ReplayFormatError(file, `${field} (embedded ${src.main})`, 'a car file the car loader accepts', (e as Error).message);
    }
  };
  data.header.cars.forEach((c, i) => parse(c, `header.cars.${i}`));
  data.edits.forEach((e, i) => {
    if (e.kind === 'config') parse(e, `edits.${i}`);
  });
}

/** Where shipped stages come from (Node: the stage folders; browser: fetched assets). */
export interface StageSource {
  files(id: string): Promise<StageFiles>;
}

/** Extra per-world setup other areas need for a stage (e.g. static collision scene from scenery). */
export type RunWorldSetupHook = (world: SimWorld, stage: Stage | null) => void;
export const runWorldSetupHooks: RunWorldSetupHook[] = [
  // the stage scenery as static collision scene (trees, rocks, fences, arches), as the game sets it up
  // (src/app/stage-colliders.ts): a run that hit a tree replays hitting it
  (world, stage) => {
    if (stage) setSceneColliders(world, fromScenery(stage.scenery));
  },
];

let defaultCars: CarAdapter | null = null;
export function setDefaultCarAdapter(a: CarAdapter): void {
  defaultCars = a;
}
export function defaultCarAdapter(): CarAdapter {
  if (!defaultCars) throw new Error('replay: no car adapter registered (import src/replay/cars.ts or pass one)');
  return defaultCars;
}

/** Content hash of a stage: its stage.toml text and both PNGs, byte for byte. */
export function stageHash(files: StageFiles | StageFilesData): string {
  return contentHash([files.stageToml, files.heightPng, files.surfacePng]);
}

export interface RunWorld {
  world: SimWorld;
  /** Car entity per header car, same order. */
  cars: number[];
  stage: Stage | null;
}

/**
 * Loads the stage a header names: from the embedded files, or by id from `source`, checking the content
 * hash (a stage that changed since the recording would replay as nonsense, so it is refused).
 */
export async function resolveStage(header: ReplayHeader, embedded: StageFilesData | null, source: StageSource | null, file = 'replay'): Promise<Stage | null> {
  const ref = header.stage;
  if (!ref) return null;
  let files: StageFiles;
  if (ref.embedded) {
    if (!embedded) throw new ReplayFormatError(file, 'stage', 'the embedded stage files', 'none');
    files = embedded;
  } else {
    if (!source) throw new ReplayFormatError(file, 'stage.id', 'a stage source to load shipped stages from', 'none');
    try {
      files = await source.files(ref.id);
    } catch (e) {
      throw new ReplayFormatError(file, 'stage.id', `a stage this build has`, `"${ref.id}" (${(e as Error).message})`);
    }
  }
  const h = stageHash(files);
  if (h !== ref.hash) {
    throw new ReplayFormatError(file, 'stage.hash', `${ref.hash} (stage "${ref.id}" as recorded)`, `${h} (the stage changed since the recording)`);
  }
  try {
    return loadStage(files, `${ref.id}/stage.toml`);
  } catch (e) {
    // the stage loader's own checks (ranges, sizes) decide; the replay names where the stage came from
    const where = ref.embedded ? `section T (embedded stage "${ref.id}")` : `stage.id ("${ref.id}")`;
    throw new ReplayFormatError(file, where, 'a stage the stage loader accepts', (e as Error).message);
  }
}

export function groundFor(header: Pick<ReplayHeader, 'ground'>, stage: Stage | null): Ground {
  return stage ? StageGround.fromStage(stage) : new FlatGround(header.ground?.height_m ?? 0);
}

export type RunSetup = Pick<ReplayHeader, 'dt' | 'integrator' | 'seed' | 'gravity_m_s2' | 'ground' | 'cars'>;

export function buildRunWorld(setup: RunSetup, stage: Stage | null, cars: CarAdapter = defaultCarAdapter()): RunWorld {
  const world = createSimWorld({
    dt: setup.dt,
    integrator: setup.integrator,
    seed: setup.seed,
    gravity: setup.gravity_m_s2,
    ground: groundFor(setup, stage),
  });
  for (const hook of runWorldSetupHooks) hook(world, stage);
  const eids = setup.cars.map((c) => cars.spawn(world, c));
  return { world, cars: eids, stage };
}
