/**
 * A rally's stages from one rally seed (docs/game.md, "Rally"): each stage's generator options are drawn from the
 * seed with the project's PRNG (terrain/prng.ts `createRng`), so the same seed gives the same stages on every
 * machine, and the daily rally's seed comes from the UTC date alone.
 */
import { createRng, randRange, type Rng } from '../../../terrain/prng';
import type { GenerateOptions, StageStyle } from '../../../terrain/generate';

export const MIN_RALLY_STAGES = 3;
export const MAX_RALLY_STAGES = 10;
/** Stage lengths drawn for a generated rally, km (a real special stage is 2–30 km; ours are kept short). */
export const RALLY_STAGE_KM = { min: 2, max: 6 } as const;
/** Stage lengths are rounded to this step, km (stage ids and names stay short). */
const LENGTH_STEP_KM = 0.1;
const STYLES: readonly StageStyle[] = ['gravel', 'tarmac', 'snow'];
/** 2³², to turn a PRNG draw into a 32-bit seed. */
const TWO_POW_32 = 4294967296;

/** One stage of a rally: generated from options, or one of the game's stages by id. */
export type RallyStageRef = { kind: 'generated'; options: GenerateOptions & { id: string; name: string } } | { kind: 'builtin'; id: string };

export interface RallyPlanOptions {
  seed: number;
  stageCount: number;
  /** One surface for the whole rally (a real rally is run on one), or a surface drawn per stage. */
  surface?: StageStyle | 'mixed';
  lengthKm?: { min: number; max: number };
  /** Generator grid overrides (tests: small, fast stages). */
  size?: number;
  relief?: number;
}

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.min(xs.length - 1, Math.floor(rng() * xs.length))]!;

/** Clamps a stage count to 3–10 (a rally has at least three stages). */
export function clampStageCount(n: number): number {
  return Math.max(MIN_RALLY_STAGES, Math.min(MAX_RALLY_STAGES, Math.round(n)));
}

/** The stages of a rally generated from its seed: same options → same list, stage by stage. */
export function planRallyStages(o: RallyPlanOptions): RallyStageRef[] {
  const rng = createRng(o.seed);
  const count = clampStageCount(o.stageCount);
  const len = o.lengthKm ?? RALLY_STAGE_KM;
  const rallySurface = o.surface === undefined ? pick(rng, STYLES) : o.surface;
  const out: RallyStageRef[] = [];
  for (let k = 0; k < count; k++) {
    const surface = rallySurface === 'mixed' ? pick(rng, STYLES) : rallySurface;
    const seed = Math.floor(rng() * TWO_POW_32) >>> 0;
    const lengthKm = Math.round(randRange(rng, len.min, len.max) / LENGTH_STEP_KM) * LENGTH_STEP_KM;
    const options: GenerateOptions & { id: string; name: string } = {
      id: `rally-${(o.seed >>> 0).toString(16)}-ss${k + 1}`,
      name: `SS${k + 1} ${surface} ${lengthKm.toFixed(1)} km`,
      seed,
      lengthKm: Number(lengthKm.toFixed(1)),
      surface,
    };
    if (o.size !== undefined) options.size = o.size;
    if (o.relief !== undefined) options.relief = o.relief;
    out.push({ kind: 'generated', options });
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

/** The daily rally's plan options for a UTC date (surface drawn from the seed). */
export function dailyRallyPlan(utcDate: string): RallyPlanOptions & { serviceEvery: number } {
  return { seed: dailyRallySeed(utcDate), stageCount: DAILY_RALLY.stageCount, serviceEvery: DAILY_RALLY.serviceEvery };
}
