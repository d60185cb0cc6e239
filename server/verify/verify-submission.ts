/**
 * Verifies one submitted replay for the leaderboards (runs in a worker thread: server/verify/worker.ts).
 * Cheap checks first, each with its own refusal code: the file format, the tick budget, the simulation
 * version, one player car, the car class (byte-equal to a shipped car), no mid-run car swap, a known stage (by
 * content hash: shipped, or generated again from its recorded options); then the re-simulation (every checksum and keyframe), the finish and the stage time.
 */
import { decodeReplay, type ReplayData } from '../../src/replay/format';
import { ReplayFormatError } from '../../src/replay/bytes';
import { verifyReplayData, type VerifyReport } from '../../src/replay/verify';
import { checkTickBudget } from '../../src/replay/budget';
import { SIM_VERSION } from '../../src/replay/version';
import { vehicleCarAdapter } from '../../src/run/cars';
import { carClassOf, type CarClass } from './car-classes';
import type { StageCatalog } from './stage-catalog';
import { isCanonicalGeneratedStage } from './canonical-stage';
import { parseStageToml } from '../../terrain/stage';
import { reject, type Verdict } from './verdict';

export interface VerifyLimits {
  /** Most car-ticks re-simulated (ticks × cars). */
  maxCarTicks: number;
  /** Wall-time limit of one re-simulation, s. */
  maxWallSeconds: number;
}

export interface VerifyContext {
  stages: StageCatalog;
  cars: readonly CarClass[];
  limits: VerifyLimits;
  nowSeconds: () => number;
}

/** The header checks before any world is built: a refusal, or the car class and stage to rank under. */
type Entry = { carClass: string; stageId: string; stageHash: string; canonicalStage: boolean };

function checkEntry(d: ReplayData, ctx: VerifyContext): Verdict | Entry {
  const h = d.header;
  if (h.simVersion !== SIM_VERSION) return reject('sim-version', `recorded by ${h.simVersion}; this server runs ${SIM_VERSION}`);
  if (h.cars.length !== 1 || h.cars[0]!.role !== 'player') return reject('not-single-player', `expected one player car, found ${h.cars.length} car(s)`);
  const cls = carClassOf(h.cars[0]!, ctx.cars);
  if (!cls) return reject('car-not-allowed', `car "${h.cars[0]!.id}" (${h.cars[0]!.main}) is not byte-equal to an allowed car class (${ctx.cars.map((c) => c.id).join(', ')})`);
  if (d.edits.some((e) => e.kind === 'config')) return reject('car-swapped', 'the car configuration changed during the run');
  if (!h.stage) return reject('no-stage', 'a run on flat ground has no leaderboard');
  const known = ctx.stages.known(h.stage.hash) ?? (h.stage.embedded && d.stageFiles ? ctx.stages.regenerate(d.stageFiles) : null);
  if (!known || known.hash !== h.stage.hash) return reject('stage-unknown', `stage "${h.stage.id}" with content hash ${h.stage.hash} is neither shipped nor generated again from its recorded options`);
  if (!h.stage.embedded && known.id !== h.stage.id) return reject('stage-unknown', `stage id "${h.stage.id}" does not match hash ${h.stage.hash} (stage "${known.id}")`);
  const canonicalStage = h.stage.embedded && isCanonicalGeneratedStage(parseStageToml(known.files.stageToml, 'stage.toml'));
  return { carClass: cls.id, stageId: known.id, stageHash: known.hash, canonicalStage };
}

/** The outcome of the re-simulation, compared with what the file claims. */
function judge(d: ReplayData, r: VerifyReport, entry: Entry): Verdict {
  if (r.budgetExceeded) return reject('budget-exceeded', r.budgetExceeded.message);
  if (r.firstDesync) return reject('checksum-mismatch', `re-simulation differs at tick ${r.firstDesync.tick}: expected state hash ${r.firstDesync.expected}, found ${r.firstDesync.found}`);
  if (r.keyframeMismatches.length) return reject('checksum-mismatch', `keyframe at tick ${r.keyframeMismatches[0]!.tick} differs from the re-simulated state`);
  if (!r.ok) return reject('checksum-mismatch', `checked ${r.checksumsChecked} of ${d.checksums.length} recorded checksums`);
  if (r.stageTimeS === null || !d.header.result?.finished) return reject('not-finished', 'the car did not cross the finish line');
  if (r.recordedStageTimeS !== r.stageTimeS) return reject('stage-time-mismatch', `recorded stage time ${r.recordedStageTimeS} s, re-simulated ${r.stageTimeS} s`);
  return { status: 'accepted', ...entry, simVersion: SIM_VERSION, stageTimeS: r.stageTimeS, finalHash: r.finalHash, ticks: r.ticks };
}

export async function verifySubmission(bytes: Uint8Array, ctx: VerifyContext): Promise<Verdict> {
  let d: ReplayData;
  try {
    d = decodeReplay(bytes, 'submission');
    checkTickBudget(d.header, ctx.limits.maxCarTicks, 'submission');
  } catch (e) {
    if (!(e instanceof ReplayFormatError)) throw e;
    return reject(e.field === 'header.ticks' && e.expected.includes('car-ticks') ? 'too-long' : 'format', e.message);
  }
  const entry = checkEntry(d, ctx);
  if ('status' in entry) return entry;
  try {
    const budget = { maxCarTicks: ctx.limits.maxCarTicks, maxWallSeconds: ctx.limits.maxWallSeconds, nowSeconds: ctx.nowSeconds };
    const r = await verifyReplayData(d, { stages: ctx.stages, cars: vehicleCarAdapter, file: 'submission', budget });
    return judge(d, r, entry);
  } catch (e) {
    if (e instanceof ReplayFormatError) return reject('format', e.message);
    throw e;
  }
}
