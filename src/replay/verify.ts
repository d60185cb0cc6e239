/**
 * Headless verification: decode (untrusted bytes → clear errors), rebuild the run world from the header
 * (buildRunWorld), re-simulate every tick with the recorded inputs and edits, compare every checksum.
 * Reports match or the first desync (tick, hashes, differing fields), every recorded keyframe that differs
 * from the re-simulated state, the final hash and the stage time. Bounded: a replay above the tick budget is
 * refused before it runs, and a run past its wall-time budget stops with `budgetExceeded` (not ok). Every
 * embedded car file goes through the car loader first (checkReplayCars), the stage through the stage loader.
 */
import { stateHash } from '../ecs/hash';
import { decodeReplay, type ReplayData } from './format';
import { ReplayPlayer } from './player';
import { buildRunWorld, type RunWorld } from '../run/run-world';
import { checkReplayCars, resolveStage } from './stage-check';
import { vehicleCarAdapter, type CarAdapter } from '../run/cars';
import { ReplayFormatError } from './bytes';
import type { Stage } from '../../terrain/stage';
import { checkTickBudget, WallBudget, type BudgetExceeded } from './budget';
import { WALL_CHECK_EVERY_TICKS } from './limits';
import { StageProgressView } from '../run/stage-progress-view';
import { SIM_VERSION, checkStageReplayVersion } from './version';
import type { VerifyEnv, VerifyReport } from './verify-report';

export type { VerifyEnv, VerifyReport } from './verify-report';
import { verifyTownReplay } from './town-replay';

/** Plays to the end, looking at the wall clock every WALL_CHECK_EVERY_TICKS ticks. */
function runWithinBudget(player: ReplayPlayer, wall: WallBudget): BudgetExceeded | null {
  while (player.step()) {
    if (player.tick % WALL_CHECK_EVERY_TICKS !== 0) continue;
    const over = wall.over(player.tick, player.totalTicks);
    if (over) return over;
  }
  return null;
}

/** buildRunWorld; a car the simulation cannot spawn (after the loader accepted it) is refused as a replay error. */
function spawnChecked(data: ReplayData, stage: Stage | null, cars: CarAdapter, file = 'replay'): RunWorld {
  try {
    return buildRunWorld(data.header, stage, cars);
  } catch (e) {
    if (e instanceof ReplayFormatError) throw e;
    throw new ReplayFormatError(file, 'header.cars', 'cars the simulation can spawn', (e as Error).message);
  }
}

export async function verifyReplayData(data: ReplayData, env: VerifyEnv): Promise<VerifyReport> {
  if (data.header.town) return verifyTownReplay(data, env);
  const cars = env.cars ?? vehicleCarAdapter;
  const wall = new WallBudget(data.header, env.budget);
  checkTickBudget(data.header, env.budget?.maxCarTicks, env.file);
  checkStageReplayVersion(data.header, env.file);
  checkReplayCars(data, cars, env.file);
  const stage = await resolveStage(data.header, data.stageFiles, env.stages, env.file);
  const run = spawnChecked(data, stage, cars, env.file);
  const player = new ReplayPlayer(data, run, cars, { resync: false, cacheEveryTicks: 1 << 30, maxCarTicks: env.budget?.maxCarTicks, file: env.file });
  const playerCar = data.header.cars.findIndex((c) => c.role === 'player');
  // the StageProgress pass times the player's car; the player applies each recovery's penalty with its edit
  const timing = stage && playerCar >= 0 ? new StageProgressView(run.world, run.cars[playerCar]!) : null;
  if (timing) player.onTick = () => timing.sync();
  const budgetExceeded = runWithinBudget(player, wall);
  const last = data.checksums[data.checksums.length - 1];
  const report: VerifyReport = {
    ok: player.desync === null && player.checksumsChecked === data.checksums.length && player.keyframeMismatches.length === 0 && budgetExceeded === null,
    ticks: run.world.tick,
    simSeconds: run.world.tick * run.world.dt,
    checksumsChecked: player.checksumsChecked,
    checksumsMatched: player.checksumsMatched,
    firstDesync: player.desync,
    finalHash: stateHash(run.world),
    recordedFinalHash: last ? last.hash : null,
    simVersion: { recorded: data.header.simVersion, current: SIM_VERSION },
    stageTimeS: timing?.finishTimeS ?? null,
    recordedStageTimeS: data.header.result?.stageTimeS ?? null,
    splitsS: timing ? timing.splits.map((s) => s.timeS) : [],
    keyframeMismatches: player.keyframeMismatches,
    budgetExceeded,
  };
  player.dispose();
  return report;
}

export async function verifyReplay(bytes: Uint8Array, env: VerifyEnv): Promise<VerifyReport> {
  return verifyReplayData(decodeReplay(bytes, env.file), env);
}
