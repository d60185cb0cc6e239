/** A new rally from the player's settings, and the daily rally of a UTC date (the same for every player). */
import { BUILTIN_CARS } from '../../content/cars/index';
import { LANDSCAPE_IDS } from '../stage-gen/index';
import { planRallyStages, RALLY_STAGE_KM, type RallyStageRef } from '../../run/rally/plan';
import { dailyRallyDefinition } from '../../run/rally/daily';
import { createRally, type RallyState } from '../../run/rally/rally';
import { rallyRivals } from '../../run/rally/rivals';
import type { StageSummary } from '../stages';

/** Stage length ranges offered for a generated rally, km. */
export const STAGE_LENGTHS: Record<string, { label: string; km: { min: number; max: number } }> = {
  standard: { label: `${RALLY_STAGE_KM.min}–${RALLY_STAGE_KM.max} km`, km: RALLY_STAGE_KM },
  short: { label: '1–2 km (sprint)', km: { min: 1, max: 2 } },
  long: { label: '5–10 km (long stages, longer to generate)', km: { min: 5, max: 10 } },
};

export interface NewRallySettings {
  stageCount: number;
  serviceEvery: number;
  /** 'seed' (drawn from the seed), a landscape id, or 'mixed'. */
  landscape: string;
  /** Key of STAGE_LENGTHS. */
  length: string;
  seed: number;
  carId: string;
  /** Per stage: 'seed' (generated) or the id of a game stage. */
  picked: string[];
}

/** The rally of the settings: generated stages from the seed, replaced where the player picked a stage. */
export function newRally(st: NewRallySettings, stages: readonly StageSummary[]): RallyState {
  const plan = planRallyStages({
    seed: st.seed,
    stageCount: st.stageCount,
    landscapes: LANDSCAPE_IDS,
    ...(st.landscape === 'seed' ? {} : { landscape: st.landscape }),
    lengthKm: (STAGE_LENGTHS[st.length] ?? STAGE_LENGTHS.standard!).km,
  });
  // a two-stage rally (dev flag) takes the first two of the plan's three
  const refs: RallyStageRef[] = plan.slice(0, st.stageCount).map((ref, k) => {
    const id = st.picked[k];
    return id && id !== 'seed' && stages.some((s) => s.id === id) ? { kind: 'builtin', id } : ref;
  });
  return createRally({
    id: `rally-${st.seed}-${Date.now().toString(36)}`,
    name: `Rally ${st.seed}`,
    seed: st.seed,
    stages: refs,
    serviceEvery: st.serviceEvery,
    carId: st.carId,
    rivals: rallyRivals(st.seed),
  });
}

/** The daily rally: stages, service interval, car and rivals from the date alone. */
export function dailyRally(utcDate: string): RallyState {
  const d = dailyRallyDefinition(utcDate, BUILTIN_CARS.map((c) => c.id));
  return createRally({
    id: `daily-${utcDate}`,
    name: `Daily rally ${utcDate}`,
    seed: d.seed,
    daily: utcDate,
    stages: d.stages.map((params) => ({ kind: 'generated', params })),
    serviceEvery: d.serviceEvery,
    carId: d.carId,
    rivals: rallyRivals(d.seed),
  });
}
