/**
 * A rally's stages from one rally seed (docs/game.md, "Rally"): each stage's generator options are drawn from the
 * seed with the project's PRNG (terrain/prng.ts `createRng`), so the same seed gives the same stages on every
 * machine, and the daily rally's seed comes from the UTC date alone.
 */
import { createRng, randRange, type Rng } from '../../../terrain/prng';

export const MIN_RALLY_STAGES = 3;
export const MAX_RALLY_STAGES = 10;
/** Stage lengths drawn for a generated rally, km (a real special stage is 2–30 km; ours are kept short). */
export const RALLY_STAGE_KM = { min: 2, max: 6 } as const;
/** Stage lengths are whole multiples of this, km (the in-game generator's step). */
export const RALLY_LENGTH_STEP_KM = 0.5;
/** Shares of the road in the landscape's second surface a rally stage may get (most stages have none). */
const SURFACE_MIXES = [0, 0, 0.1, 0.2] as const;
/** Generator seeds are 31-bit (src/app/stage-gen/params.ts). */
const TWO_POW_31 = 2147483648;

/**
 * The in-game generator's parameters of one stage (StageGenParams of src/app/stage-gen/params.ts, as plain
 * data: this layer does not import the app): seed, length, landscape preset id, surface mix.
 */
export interface RallyStageParams {
  seed: number;
  lengthKm: number;
  landscape: string;
  surfaceMix: number;
}

/** One stage of a rally: generated from parameters, or one of the game's stages by id. */
export type RallyStageRef = { kind: 'generated'; params: RallyStageParams } | { kind: 'builtin'; id: string };

export interface RallyPlanOptions {
  seed: number;
  stageCount: number;
  /** The landscape presets to draw from (LANDSCAPE_IDS of the in-game generator, in its order). */
  landscapes: readonly string[];
  /** One landscape for the whole rally (a real rally is run on one surface), or one drawn per stage. */
  landscape?: string | 'mixed';
  lengthKm?: { min: number; max: number };
}

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.min(xs.length - 1, Math.floor(rng() * xs.length))]!;

/** Clamps a stage count to 3–10 (a rally has at least three stages). */
export function clampStageCount(n: number): number {
  return Math.max(MIN_RALLY_STAGES, Math.min(MAX_RALLY_STAGES, Math.round(n)));
}

/** The stages of a rally generated from its seed: same options → same list, stage by stage. */
export function planRallyStages(o: RallyPlanOptions): RallyStageRef[] {
  const rng = createRng(o.seed);
  const len = o.lengthKm ?? RALLY_STAGE_KM;
  const rallyLandscape = o.landscape ?? pick(rng, o.landscapes);
  const out: RallyStageRef[] = [];
  for (let k = 0; k < clampStageCount(o.stageCount); k++) {
    const landscape = rallyLandscape === 'mixed' ? pick(rng, o.landscapes) : rallyLandscape;
    const seed = Math.floor(rng() * TWO_POW_31);
    const lengthKm = Math.round(randRange(rng, len.min, len.max) / RALLY_LENGTH_STEP_KM) * RALLY_LENGTH_STEP_KM;
    out.push({ kind: 'generated', params: { seed, lengthKm, landscape, surfaceMix: pick(rng, SURFACE_MIXES) } });
  }
  return out;
}

/** Daily rally: four stages, service after the second; every player gets the same plan for one UTC date. */
export const DAILY_RALLY = { stageCount: 4, serviceEvery: 2 } as const;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The daily rally's seed: FNV-1a (32-bit) over the UTC date written YYYY-MM-DD. The caller reads the date from
 * the clock (src/app); the rally layer only sees the string, so the seed is a pure function of the date.
 */
export function dailyRallySeed(utcDate: string): number {
  const m = DATE_RE.exec(utcDate);
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 12 || Number(m[3]) < 1 || Number(m[3]) > 31) {
    throw new RangeError(`daily rally: date: expected a UTC date YYYY-MM-DD, found ${JSON.stringify(utcDate).slice(0, 40)}`);
  }
  let h = 0x811c9dc5;
  for (let i = 0; i < utcDate.length; i++) h = Math.imul(h ^ utcDate.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** The daily rally's plan options for a UTC date (landscape drawn from the seed). */
export function dailyRallyPlan(utcDate: string, landscapes: readonly string[]): RallyPlanOptions & { serviceEvery: number } {
  return { seed: dailyRallySeed(utcDate), stageCount: DAILY_RALLY.stageCount, serviceEvery: DAILY_RALLY.serviceEvery, landscapes };
}
