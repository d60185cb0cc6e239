/**
 * What the player chooses for a new stage (`StageGenParams`, validated with zod) and how it maps onto the
 * generator's options (terrain/generate.ts). A landscape preset picks the generator style, the relief and the
 * second surface of the surface mix; the id and name follow from the parameters alone, so the same parameters
 * always give the same stage (and the same content hash) in the worker, in Node and on a server.
 */
import { z } from 'zod';
import type { GenerateOptions, StageStyle } from '../../../terrain/generate';
import type { SurfaceId } from '../../../terrain/surface';

/** Road length range of a new stage, km, in steps of STAGE_LENGTH_STEP_KM. */
export const STAGE_LENGTH_KM = [1, 15] as const;
export const STAGE_LENGTH_STEP_KM = 0.5;
/** Most of the road in the mix's second surface (above that the landscape would be another one). */
export const SURFACE_MIX_MAX = 0.5;
/** Seeds are 31-bit so that they print and type the same everywhere. */
export const STAGE_SEED_MAX = 2 ** 31 - 1;
/** Road lengths up to this fit the default 2 km map; longer roads get a 4 km map (2049 samples at 2 m). */
const SMALL_MAP_MAX_KM = 6;
const SMALL_MAP_SAMPLES = 1025;
const LARGE_MAP_SAMPLES = 2049;

export interface LandscapePreset {
  name: string;
  style: StageStyle;
  /** Multiplier on the style's terrain relief. */
  relief: number;
  /** The surface of the mixed-in road sections. */
  mixSurface: SurfaceId;
}

export const LANDSCAPES = {
  'forest-gravel': { name: 'Forest gravel', style: 'gravel', relief: 1, mixSurface: 'tarmac' },
  'open-gravel': { name: 'Rolling gravel', style: 'gravel', relief: 0.45, mixSurface: 'tarmac' },
  snowy: { name: 'Snowy forest', style: 'snow', relief: 1, mixSurface: 'ice' },
  'mountain-tarmac': { name: 'Mountain tarmac', style: 'tarmac', relief: 1, mixSurface: 'gravel' },
  'valley-tarmac': { name: 'Valley tarmac', style: 'tarmac', relief: 0.5, mixSurface: 'gravel' },
} as const satisfies Record<string, LandscapePreset>;
export type LandscapeId = keyof typeof LANDSCAPES;
export const LANDSCAPE_IDS = Object.keys(LANDSCAPES) as LandscapeId[];

export const StageGenParamsSchema = z.strictObject({
  seed: z.number().int().min(0).max(STAGE_SEED_MAX),
  lengthKm: z
    .number()
    .min(STAGE_LENGTH_KM[0])
    .max(STAGE_LENGTH_KM[1])
    .refine((v) => Number.isInteger(v / STAGE_LENGTH_STEP_KM), `a multiple of ${STAGE_LENGTH_STEP_KM} km`),
  landscape: z.enum(LANDSCAPE_IDS as [LandscapeId, ...LandscapeId[]]),
  /** Share of the road (in 250 m sections) laid in the landscape's second surface, 0 … SURFACE_MIX_MAX. */
  surfaceMix: z
    .number()
    .min(0)
    .max(SURFACE_MIX_MAX)
    .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-9, 'a whole percent (the stage id names it)')
    .default(0),
});
/** Parameters as the player (or a rally, or a server) gives them. */
export type StageGenParams = z.input<typeof StageGenParamsSchema>;
/** Parameters after validation (defaults filled in). */
export type StageGenParamsChecked = z.output<typeof StageGenParamsSchema>;

/** The parameters checked: a ContentError-style message naming the key, the expected range and the value. */
export function checkStageGenParams(params: unknown): StageGenParamsChecked {
  const r = StageGenParamsSchema.safeParse(params);
  if (r.success) return r.data;
  const i = r.error.issues[0]!;
  throw new Error(`stage parameters: ${i.path.join('.') || '(root)'}: ${i.message}`);
}

/** Percent of mixed surface as a whole number (ids, names). */
const mixPercent = (p: StageGenParamsChecked): number => Math.round(p.surfaceMix * 100);

/** The stage id: readable and unique per parameters ("gen-forest-gravel-42-5-20" = seed 42, 5 km, 20 % mix). */
export function generatedStageId(params: StageGenParams): string {
  const p = checkStageGenParams(params);
  return `gen-${p.landscape}-${p.seed}-${String(p.lengthKm).replace('.', 'p')}-${mixPercent(p)}`;
}

/** The generator options for the parameters (the same in the worker, the CLI test and on a server). */
export function toGenerateOptions(params: StageGenParams): GenerateOptions {
  const p = checkStageGenParams(params);
  const l: LandscapePreset = LANDSCAPES[p.landscape];
  const mix = mixPercent(p);
  return {
    seed: p.seed,
    lengthKm: p.lengthKm,
    surface: l.style,
    id: generatedStageId(p),
    name: `${l.name} ${p.seed} (${p.lengthKm} km${mix ? `, ${mix} % ${l.mixSurface}` : ''})`,
    size: p.lengthKm <= SMALL_MAP_MAX_KM ? SMALL_MAP_SAMPLES : LARGE_MAP_SAMPLES,
    relief: l.relief,
    ...(mix ? { surfaceMix: { surface: l.mixSurface, fraction: p.surfaceMix } } : {}),
  };
}

/** The cache key of a generation: generator version and the checked parameters in a fixed key order. */
export function stageGenCacheKey(version: number, params: StageGenParams): string {
  const p = checkStageGenParams(params);
  return `v${version}|${p.landscape}|${p.seed}|${p.lengthKm}|${p.surfaceMix}`;
}

const GENERATED_ID = /^gen-([a-z-]+)-(\d+)-(\d+(?:p\d+)?)-(\d+)$/;

/** The parameters a generated stage id names (the inverse of generatedStageId), or null for any other id. */
export function stageGenParamsFromId(id: string): StageGenParamsChecked | null {
  const m = GENERATED_ID.exec(id);
  if (!m) return null;
  const r = StageGenParamsSchema.safeParse({ landscape: m[1], seed: Number(m[2]), lengthKm: Number(m[3]!.replace('p', '.')), surfaceMix: Number(m[4]) / 100 });
  return r.success && generatedStageId(r.data) === id ? r.data : null;
}
