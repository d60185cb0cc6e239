/**
 * The daily rally of a UTC date as every player and the server see it: its generated stages (ids from the
 * in-game generator's parameters) and its car (one of the built-in cars, drawn from the date's seed). The game
 * starts it (src/app/rally/new-rally.ts); the server ranks whole-rally totals on it (server/daily-rally.ts).
 */
import { LANDSCAPE_IDS, generatedStageId, type StageGenParams } from '../stage-gen/params';
import { dailyRallyPlan, planRallyStages, type RallyPlanOptions, type RallyStageParams } from './plan';

export interface DailyRallyDefinition {
  date: string;
  seed: number;
  serviceEvery: number;
  plan: RallyPlanOptions;
  /** Generator parameters of each stage, in running order. */
  stages: RallyStageParams[];
  /** The generated stage ids, in running order (generatedStageId of each stage's parameters). */
  stageIds: string[];
  carId: string;
}

/**
 * The daily rally of `utcDate` (YYYY-MM-DD; a RangeError otherwise). `carIds`: the built-in cars' ids; the car is
 * the seed's pick among them in sorted order.
 */
export function dailyRallyDefinition(utcDate: string, carIds: readonly string[]): DailyRallyDefinition {
  const plan = dailyRallyPlan(utcDate, LANDSCAPE_IDS);
  const stages = planRallyStages(plan).map((ref) => {
    if (ref.kind !== 'generated') throw new Error('a daily rally has generated stages only');
    return ref.params;
  });
  const cars = [...carIds].sort();
  return {
    date: utcDate,
    seed: plan.seed,
    serviceEvery: plan.serviceEvery,
    plan,
    stages,
    stageIds: stages.map((p) => generatedStageId(p as StageGenParams)),
    carId: cars[plan.seed % cars.length] ?? 'rally-awd',
  };
}
