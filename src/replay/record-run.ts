/**
 * Records a headless run into a replay: build the run world (buildRunWorld), attach the recorder, drive
 * each car from the given input sources (scripted driver, AI, …), stop after `maxSeconds` or when the player
 * car finishes the stage. Used by `npm run replay -- record`, the tests and the bench.
 */
import { setInputSource, type InputSource } from '../ecs/controls';
import { stepRun } from '../run/step';
import type { Stage } from '../../terrain/stage';
import type { ReplayCar, ReplayHeader, StageFilesData } from './format';
import { ReplayRecorder } from './recorder';
import { buildRunWorld, type RunWorld } from '../run/run-world';
import { stageHash } from './stage-check';
import { vehicleCarAdapter, type CarAdapter } from '../run/cars';
import { StageProgressView } from '../run/stage-progress-view';
import { STAGE_EVENT_KIND } from '../run/stage-progress';

export interface RecordRunOptions {
  setup: Pick<ReplayHeader, 'dt' | 'integrator' | 'seed' | 'gravity_m_s2'>;
  cars: ReplayCar[];
  /** Input source per car (same order as cars). */
  sources: InputSource[];
  stage?: { stage: Stage; files: StageFilesData; embed?: boolean } | null;
  groundHeightM?: number;
  maxSeconds: number;
  /** Stop when the player car finishes the stage (default true). */
  stopAtFinish?: boolean;
  checksumEveryTicks?: number;
  keyframeEverySeconds?: number;
  name?: string;
  createdAt?: string;
  adapter?: CarAdapter;
  /** Called before each tick (tests inject recoveries here: place + `rec.edit` + `addStageRecovery`). */
  beforeTick?: (run: RunWorld, rec: ReplayRecorder) => void;
}

export interface RecordedRun {
  bytes: Uint8Array;
  run: RunWorld;
  recorder: ReplayRecorder;
  /** The player's stage timing (StageProgress), null on flat ground. */
  timing: StageProgressView | null;
}

export function recordRun(o: RecordRunOptions): RecordedRun {
  const adapter = o.adapter ?? vehicleCarAdapter;
  const stage = o.stage ?? null;
  const ground = stage ? null : ({ kind: 'flat', height_m: o.groundHeightM ?? 0 } as const);
  const run = buildRunWorld({ ...o.setup, ground, cars: o.cars }, stage?.stage ?? null, adapter);
  const rec = new ReplayRecorder(run.world, {
    name: o.name,
    createdAt: o.createdAt,
    checksumEveryTicks: o.checksumEveryTicks,
    keyframeEverySeconds: o.keyframeEverySeconds,
    stage: stage ? { id: stage.stage.id, hash: stageHash(stage.files) } : null,
    stageFiles: stage?.embed ? stage.files : null,
    groundHeightM: o.groundHeightM,
    cars: o.cars.map((car, i) => ({ car, eid: run.cars[i]! })),
  });
  run.cars.forEach((eid, i) => setInputSource(run.world, eid, o.sources[i]!));
  const playerIdx = o.cars.findIndex((c) => c.role === 'player');
  const timing = stage && playerIdx >= 0 ? new StageProgressView(run.world, run.cars[playerIdx]!) : null;
  const ticks = Math.round(o.maxSeconds / o.setup.dt);
  const stopAtFinish = o.stopAtFinish ?? true;
  let finishMarked = false;
  for (let i = 0; i < ticks; i++) {
    o.beforeTick?.(run, rec);
    stepRun(run.world, { recorder: rec });
    for (const ev of run.world.events) {
      if (ev.kind.includes('collision')) rec.mark('collision', ev.kind);
      else if (ev.kind === STAGE_EVENT_KIND.checkpoint) rec.mark('split', `CP${Number(ev.index) + 1}`);
    }
    run.world.events.length = 0;
    if (timing) {
      timing.sync();
      if (timing.finishTick !== null && !finishMarked) {
        // one mark at the finish (a run that goes on past it, e.g. laps of a circuit, is not marked again)
        finishMarked = true;
        rec.mark('finish', 'finish');
      }
      if (timing.finishTick !== null && stopAtFinish) break;
    }
  }
  if (timing) {
    const r = timing;
    rec.setResult({ finished: r.finishTimeS !== null, stageTimeS: r.finishTimeS, splitsS: r.splits.map((s) => s.timeS), penaltyS: r.penaltyS });
  }
  return { bytes: rec.finish(), run, recorder: rec, timing };
}
