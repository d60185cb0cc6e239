/**
 * A rally in progress, as plain data (saved as JSON by the game, src/app/rally/rally-store.ts) and the pure steps
 * that move it on: a stage finished or retired, a service. Every step returns a new state; nothing here reads a
 * clock. Rules (docs/game.md, "Rally"): damage carries from stage to stage; a service park after every
 * `serviceEvery` stages (none after the last); a retired stage counts as the slowest classified time on it plus
 * RETIREMENT_PENALTY_S and the car is repaired free of charge at the next service.
 */
import { NO_DAMAGE, type CarDamage } from '../../systems/sim/collision/damage-state';
import type { DriverParams } from '../../systems/sim/ai/driver';
import type { RallyStageRef } from './plan';
import { runService, SERVICE_BUDGET_MIN, type RepairItemId, type ServiceChoice } from './service';

/** Added to the slowest classified time of a stage for a car that retired from it, s (Rally2-style restart). */
export const RETIREMENT_PENALTY_S = 300;

export interface RallyRival {
  name: string;
  driver: DriverParams;
}

export interface RallyStageResult {
  stage: number;
  /** Stage time including the stage's own penalties (recoveries), s; null when retired. */
  timeS: number | null;
  retired: boolean;
  damageIn: CarDamage;
  damageOut: CarDamage;
  /** Id of the stage run's replay in the replay library (the game), if recorded. */
  replayId?: string;
}

export interface RallyServiceResult {
  afterStage: number;
  minutesUsed: number;
  lateMin: number;
  penaltyS: number;
  repaired: RepairItemId[];
  setupChanged: boolean;
  free: boolean;
}

export interface RallyState {
  id: string;
  name: string;
  seed: number;
  /** UTC date of a daily rally. */
  daily?: string;
  stages: RallyStageRef[];
  serviceEvery: number;
  serviceBudgetMin: number;
  carId: string;
  rivals: RallyRival[];
  /** Rival stage times per stage (null inner value: that rival did not finish); null until computed. */
  rivalTimes: ((number | null)[] | null)[];
  results: RallyStageResult[];
  services: RallyServiceResult[];
  /** The player car's damage now. */
  damage: CarDamage;
  /** A stage was retired since the last service: the next one repairs everything free. */
  freeRepairDue: boolean;
}

export type RallyStep = { kind: 'stage'; stage: number } | { kind: 'service'; afterStage: number } | { kind: 'finished' };

export function createRally(o: { id: string; name: string; seed: number; stages: RallyStageRef[]; serviceEvery: number; carId: string; rivals: RallyRival[]; daily?: string; serviceBudgetMin?: number }): RallyState {
  const s: RallyState = {
    id: o.id, name: o.name, seed: o.seed, stages: o.stages, serviceEvery: Math.max(1, Math.round(o.serviceEvery)),
    serviceBudgetMin: o.serviceBudgetMin ?? SERVICE_BUDGET_MIN, carId: o.carId, rivals: o.rivals,
    rivalTimes: o.stages.map(() => null), results: [], services: [], damage: { ...NO_DAMAGE }, freeRepairDue: false,
  };
  if (o.daily !== undefined) s.daily = o.daily;
  return s;
}

/** True when a service park follows stage `k` (0-based): after every `serviceEvery` stages, never after the last. */
export function serviceAfter(s: RallyState, k: number): boolean {
  return (k + 1) % s.serviceEvery === 0 && k + 1 < s.stages.length;
}

/** What comes next: the next stage, a service park, or the end. */
export function nextRallyStep(s: RallyState): RallyStep {
  const done = s.results.length;
  if (done > 0 && serviceAfter(s, done - 1) && !s.services.some((v) => v.afterStage === done - 1)) return { kind: 'service', afterStage: done - 1 };
  if (done >= s.stages.length) return { kind: 'finished' };
  return { kind: 'stage', stage: done };
}

function expectStep(s: RallyState, kind: RallyStep['kind']): RallyStep {
  const step = nextRallyStep(s);
  if (step.kind !== kind) throw new Error(`rally ${s.id}: expected a ${kind} step, the rally is at ${JSON.stringify(step)}`);
  return step;
}

/** The player finished the current stage in `timeS` (penalties included) with `damage` at the finish. */
export function completeStage(s: RallyState, r: { timeS: number; damage: CarDamage; replayId?: string }): RallyState {
  const step = expectStep(s, 'stage') as { stage: number };
  const res: RallyStageResult = { stage: step.stage, timeS: r.timeS, retired: false, damageIn: s.damage, damageOut: { ...r.damage } };
  if (r.replayId !== undefined) res.replayId = r.replayId;
  return { ...s, results: [...s.results, res], damage: { ...r.damage } };
}

/** The player quit the current stage (retirement): its damage stays until the next service repairs it free. */
export function retireStage(s: RallyState, r: { damage: CarDamage; replayId?: string }): RallyState {
  const step = expectStep(s, 'stage') as { stage: number };
  const res: RallyStageResult = { stage: step.stage, timeS: null, retired: true, damageIn: s.damage, damageOut: { ...r.damage } };
  if (r.replayId !== undefined) res.replayId = r.replayId;
  return { ...s, results: [...s.results, res], damage: { ...r.damage }, freeRepairDue: true };
}

/** The due service park with the player's repairs and setup change. */
export function serviceRally(s: RallyState, choice: ServiceChoice): RallyState {
  const step = expectStep(s, 'service') as { afterStage: number };
  const out = runService(s.damage, choice, s.serviceBudgetMin, s.freeRepairDue);
  const rec: RallyServiceResult = {
    afterStage: step.afterStage, minutesUsed: out.minutesUsed, lateMin: out.lateMin, penaltyS: out.penaltyS,
    repaired: out.repaired, setupChanged: choice.setupChanged, free: s.freeRepairDue,
  };
  return { ...s, services: [...s.services, rec], damage: out.damageAfter, freeRepairDue: false };
}

/** Stores the rival times of stage `k` (computed headless by the AI drivers: src/run/rally/rivals.ts). */
export function withRivalTimes(s: RallyState, k: number, times: (number | null)[]): RallyState {
  const all = s.rivalTimes.slice();
  all[k] = times.slice();
  return { ...s, rivalTimes: all };
}
