/**
 * Stage timing as a pipeline pass (pass 10, src/run/pipeline.ts): each car with a StageProgress component
 * (src/ecs/components/progress.ts) is projected onto the road of `world.course` after the tick, and its
 * component fields advance by the StageRun rules (src/run/stage-run.ts, the one place of the timing rules).
 * What happened is emitted into `world.events` (`stage-start`, `stage-checkpoint`, `stage-finish`,
 * `stage-stuck`, each with `car` and `timeS`), which the run's driver reads after the tick. A recovery adds its
 * penalty with `addStageRecovery` (the game when it puts the car back, the replay player when it applies the
 * recorded `place` edit). Every driver (game, recorder, replay player and verifier, ghosts) reads the same
 * component; `StageProgressView` is the read side the HUD and results use.
 */
import { hasComponent } from 'bitecs';
import type { Stage } from '../../terrain/stage';
import type { RoadProjection } from '../../terrain/road';
import {
  NO_TICK, STAGE_PHASE_COUNTDOWN, STAGE_PHASE_FINISHED, STAGE_PHASE_RUNNING, type StageCourse,
} from '../ecs/components/progress';
import { attach, emitEvent } from '../ecs/world';
import type { SimEvent, SimWorld } from '../ecs/world-types';
import { entitiesWith } from '../ecs/queries';
import {
  DEFAULT_RUN, addRecoveryPenalty, advanceStageRun, initialStageRunState, type RunEvent, type RunPhase, type StageRunState, type TickInfo,
} from './stage-run';

/** Road width assumed where the stage gives none, m. */
const FALLBACK_ROAD_WIDTH_M = 7;

const PHASES: readonly RunPhase[] = ['countdown', 'running', 'finished'];
const PHASE_CODE: Record<RunPhase, number> = { countdown: STAGE_PHASE_COUNTDOWN, running: STAGE_PHASE_RUNNING, finished: STAGE_PHASE_FINISHED };

/** The world event kind of each StageRun event. */
export const STAGE_EVENT_KIND: Record<RunEvent, string> = {
  start: 'stage-start', checkpoint: 'stage-checkpoint', finish: 'stage-finish', stuck: 'stage-stuck',
};
const RUN_EVENT_OF = new Map<string, RunEvent>(Object.entries(STAGE_EVENT_KIND).map(([k, v]) => [v, k as RunEvent]));

/** The course of a stage with the default rules. */
export function stageCourseOf(stage: Stage): StageCourse {
  return {
    ...DEFAULT_RUN,
    road: stage.road,
    checkpointsM: stage.checkpoints.map((c) => c.distanceM),
    finishM: stage.finish.distanceM,
    startM: stage.start.distanceM,
  };
}

/** The car runs the world's stage from the countdown on (world.course must be set). */
export function attachStageProgress(world: SimWorld, eid: number): void {
  const course = world.course;
  if (!course) throw new Error('attachStageProgress: the world has no stage course');
  attach(world, eid, world.c.StageProgress);
  writeStageRun(world, eid, initialStageRunState(course));
  world.c.StageProgress.finishTick[eid] = NO_TICK;
  world.c.StageProgress.lastSplitTick[eid] = NO_TICK;
}

export function hasStageProgress(world: SimWorld, eid: number): boolean {
  return hasComponent(world, eid, world.c.StageProgress);
}

export function readStageRun(world: SimWorld, eid: number, out: StageRunState): StageRunState {
  const p = world.c.StageProgress;
  out.phase = PHASES[p.phase[eid]!]!;
  out.countdownLeftS = p.countdownLeftS[eid]!;
  out.timeS = p.timeS[eid]!;
  out.penaltyS = p.penaltyS[eid]!;
  out.recoveries = p.recoveries[eid]!;
  out.nextCheckpoint = p.nextCheckpoint[eid]!;
  out.stuckS = p.stuckS[eid]!;
  out.progressM = p.progressM[eid]!;
  out.finishTimeS = p.finishTick[eid] === NO_TICK ? null : p.finishTimeS[eid]!;
  out.lastSplitS = p.lastSplitS[eid]!;
  return out;
}

function writeStageRun(world: SimWorld, eid: number, s: StageRunState): void {
  const p = world.c.StageProgress;
  p.phase[eid] = PHASE_CODE[s.phase];
  p.countdownLeftS[eid] = s.countdownLeftS;
  p.timeS[eid] = s.timeS;
  p.penaltyS[eid] = s.penaltyS;
  p.recoveries[eid] = s.recoveries;
  p.nextCheckpoint[eid] = s.nextCheckpoint;
  p.stuckS[eid] = s.stuckS;
  p.progressM[eid] = s.progressM;
  p.finishTimeS[eid] = s.finishTimeS ?? 0;
  p.lastSplitS[eid] = s.lastSplitS;
}

const scratchState: StageRunState = initialStageRunState({ ...DEFAULT_RUN, checkpointsM: [], finishM: 0, startM: 0 });
const scratchProj: RoadProjection = { distanceM: 0, lateralM: 0, index: 0 };
const scratchTick: TickInfo = { dt: 0, distanceM: 0, lateralM: 0, roadHalfWidthM: 0, speedMS: 0, throttle: 0 };
const scratchEvents: RunEvent[] = [];

/**
 * The StageRun input of one tick for a car whose CG is at (x, z) after it: its road projection and the road's half
 * width there. Pure (the server's finish tracker, src/net/stage-finish.ts, feeds the rules from state packets).
 */
export function stageTickAt(course: StageCourse, x: number, z: number, speedMS: number, throttle: number, dt: number, out: TickInfo): TickInfo {
  course.road.project(x, z, scratchProj);
  out.dt = dt;
  out.distanceM = scratchProj.distanceM;
  out.lateralM = scratchProj.lateralM;
  out.roadHalfWidthM = (course.road.widths[scratchProj.index] ?? FALLBACK_ROAD_WIDTH_M) / 2;
  out.speedMS = speedMS;
  out.throttle = throttle;
  return out;
}

/** Pass 10: every timed car's road projection feeds the StageRun rules; their events go to `world.events`. */
export function updateStageProgress(world: SimWorld): void {
  const course = world.course;
  if (!course) return;
  const p = world.c.StageProgress;
  for (const eid of entitiesWith(world, p)) {
    const b = world.c.RigidBody;
    const speed = Math.hypot(b.vx[eid]!, b.vy[eid]!, b.vz[eid]!);
    // the consumed (quantised) throttle, which a replay feeds back identically
    const throttle = world.c.Controls.throttle[eid]!;
    stageTickAt(course, b.px[eid]!, b.pz[eid]!, speed, throttle, world.dt, scratchTick);
    p.distanceM[eid] = scratchTick.distanceM;
    p.lateralM[eid] = scratchTick.lateralM;
    const s = readStageRun(world, eid, scratchState);
    scratchEvents.length = 0;
    advanceStageRun(s, course, scratchTick, scratchEvents);
    writeStageRun(world, eid, s);
    emitStageEvents(world, eid, s, scratchEvents);
  }
}

/** The tick of a finish or a split is the tick this pass runs in (world.tick + 1 = ticks completed after it). */
function emitStageEvents(world: SimWorld, eid: number, s: StageRunState, events: readonly RunEvent[]): void {
  const p = world.c.StageProgress;
  let index = s.nextCheckpoint - events.filter((k) => k === 'checkpoint').length;
  for (const k of events) {
    if (k === 'checkpoint') p.lastSplitTick[eid] = world.tick + 1;
    if (k === 'finish') p.finishTick[eid] = world.tick + 1;
    const data: Record<string, unknown> = { car: eid, timeS: s.timeS };
    if (k === 'checkpoint') data.index = index++;
    emitEvent(world, STAGE_EVENT_KIND[k], data);
  }
}

/** The car was put back on the road (between two ticks): the recovery penalty, when it runs a stage. */
export function addStageRecovery(world: SimWorld, eid: number): void {
  const course = world.course;
  if (!course || !hasStageProgress(world, eid)) return;
  const s = readStageRun(world, eid, scratchState);
  addRecoveryPenalty(s, course);
  writeStageRun(world, eid, s);
}

/** The stage events of car `eid` among a tick's world events, in order. */
export function stageEventsOf(events: readonly SimEvent[], eid: number): RunEvent[] {
  const out: RunEvent[] = [];
  for (const ev of events) {
    const k = RUN_EVENT_OF.get(ev.kind);
    if (k !== undefined && ev.car === eid) out.push(k);
  }
  return out;
}

/** Personal bests the split and finish deltas are taken against. */
export interface StageBests {
  bestSplitsS?: number[];
  bestTimeS?: number;
}
