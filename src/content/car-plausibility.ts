/**
 * Cross-field plausibility of a car (after `extends` and setup are applied): relations between keys that the
 * per-key ranges (car-ranges.ts) cannot see, and the stiffest dynamic modes against the simulation step, so that
 * every car the loader accepts runs with finite state. Each issue is one "key.path: expected …, found …" line.
 */
import type { CarConfig, CarFile, SuspensionConfig } from './car-schema';
import { CAR_RANGES, rangeKeyOf, rangeText } from './car-ranges';
import { identifyCrush } from './crush-fit';
import { DEFAULT_DT, STANDARD_GRAVITY_M_S2 } from './world-constants';

/** Step the stability limits are checked at: the world's default (500 Hz), s. */
export const REFERENCE_DT = DEFAULT_DT;
/**
 * Largest |λ|·dt of any car mode at REFERENCE_DT. The explicit integrators are stable to |λ|·dt ≈ 2 on the real axis
 * (Euler and midpoint; RK4 2.8): a damper with c·dt/m_u past 2 is what made a wheel of a tenth of its mass blow up
 * (measured: NaN at c·dt/m_u ≈ 2.3–2.6 with Euler, finite at ≤ 2.1). The oscillatory estimates below over-count
 * (bump stop and bar always engaged, tyre at twice its load), so 1.2 leaves a margin of ≥ 1.7 on the damper
 * and more on the springs. The shipped cars sit at 0.37–0.52.
 */
export const MAX_MODE_DT = 1.2;
/** CG at least this fraction of the wheelbase from either axle (real cars: 35–65 %; an axle carrying ~0 load has N0 → 0). */
export const MIN_AXLE_LOAD_FRACTION = 0.15;
/** Track / wheelbase of real cars is 0.5–0.75; outside 0.35–1.1 the yaw and roll models are far from any car. */
export const TRACK_WHEELBASE = { min: 0.35, max: 1.1 } as const;
/** Four wheels' unsprung mass as a share of the car (real: 8–20 %). Per wheel < mass/8 (half the car) is the model's limit. */
export const UNSPRUNG_SHARE = { min: 0.02, max: 0.5 } as const;
/** Setup sliders: at most this many grid steps from min to max (a slider, not a number field). */
export const MAX_SETUP_STEPS = 10_000;
/** Progressive tyre N = k_t·δ·(1 + δ/δ₀) (suspension-contact.ts): δ₀ in m. */
const TYRE_PROGRESSION_M = 0.1;
/** The stiffness estimate is taken at this multiple of the static tyre load (bumps, landings). */
const DYNAMIC_LOAD_FACTOR = 2;

const fmt = (v: number): string => String(Number(v.toPrecision(6)));

function geometry(d: CarFile, out: string[]): void {
  const b = d.body;
  const L = b.wheelbase_m;
  const lo = MIN_AXLE_LOAD_FRACTION * L;
  if (!(b.cg_to_front_m >= lo && b.cg_to_front_m <= L - lo)) {
    out.push(`body.cg_to_front_m: expected the CG between the axles, ${fmt(lo)} … ${fmt(L - lo)} m (${MIN_AXLE_LOAD_FRACTION * 100} % … ${100 - MIN_AXLE_LOAD_FRACTION * 100} % of wheelbase_m ${L}), found number ${b.cg_to_front_m}`);
  }
  for (const k of ['track_front_m', 'track_rear_m'] as const) {
    const t = b[k];
    const ratio = t / L;
    if (!(ratio >= TRACK_WHEELBASE.min && ratio <= TRACK_WHEELBASE.max)) {
      out.push(`body.${k}: expected ${TRACK_WHEELBASE.min} … ${TRACK_WHEELBASE.max} × wheelbase_m (${fmt(TRACK_WHEELBASE.min * L)} … ${fmt(TRACK_WHEELBASE.max * L)} m), found number ${t}`);
    }
    if (!(t < b.width_m)) out.push(`body.${k}: expected < body.width_m (${b.width_m} m: the wheels are inside the body), found number ${t}`);
  }
  if (!(L < b.length_m)) out.push(`body.wheelbase_m: expected < body.length_m (${b.length_m} m), found number ${L}`);
  if (!(b.cg_height_m < b.height_m)) out.push(`body.cg_height_m: expected < body.height_m (${b.height_m} m), found number ${b.cg_height_m}`);
  for (const axle of ['front', 'rear'] as const) {
    const R = d.tires[axle].radius_m;
    const travel = d.suspension[axle].travel_mm / 1000;
    if (!(travel <= 2 * R)) out.push(`suspension.${axle}.travel_mm: expected ≤ 2 × tires.${axle}.radius_m (${fmt(2000 * R)} mm), found number ${d.suspension[axle].travel_mm}`);
  }
  const I = b.inertia_kg_m2;
  if (I) {
    // A rigid body's principal moments satisfy the triangle inequality (I_a + I_b ≥ I_c).
    const [x, y, z] = I;
    if (!(x + y >= z && y + z >= x && z + x >= y)) out.push(`body.inertia_kg_m2: expected principal moments with I_a + I_b ≥ I_c (a rigid body), found [${x}, ${y}, ${z}]`);
    for (let i = 0; i < 3; i++) {
      const rg = Math.sqrt(I[i]! / b.mass_kg);
      if (!(rg >= 0.3 && rg <= 2.5)) out.push(`body.inertia_kg_m2[${i}]: expected a radius of gyration √(I/m) of 0.3 … 2.5 m (${fmt(0.09 * b.mass_kg)} … ${fmt(6.25 * b.mass_kg)} kg·m²), found number ${I[i]}`);
    }
  }
}

function engine(d: CarFile, out: string[]): void {
  const e = d.engine;
  const limiter = e.limiter_rpm ?? e.redline_rpm + 150;
  if (!(limiter >= e.redline_rpm)) out.push(`engine.limiter_rpm: expected ≥ redline_rpm (${e.redline_rpm}), found number ${limiter}`);
  if (!(limiter <= 1.25 * e.redline_rpm)) out.push(`engine.limiter_rpm: expected ≤ 1.25 × redline_rpm (${fmt(1.25 * e.redline_rpm)}), found number ${limiter}`);
  const pts = e.torque_table_nm ?? e.torque_curve;
  if (pts && pts.length >= 2) {
    const peak = Math.max(...pts.map((p) => p[1])) * (e.torque_table_nm ? 1 : e.peak_torque_nm ?? 1);
    if (!(peak > 0)) out.push(`engine: expected a torque curve with some positive torque, found a peak of ${peak} N·m`);
  }
}

function masses(d: CarFile, cfg: CarConfig, out: string[]): void {
  const m = d.body.mass_kg;
  const share = (2 * cfg.suspension.front.unsprungMass + 2 * cfg.suspension.rear.unsprungMass) / m;
  if (!(share >= UNSPRUNG_SHARE.min && share <= UNSPRUNG_SHARE.max)) {
    out.push(`suspension.front.unsprung_mass_kg: expected the four wheels' unsprung mass ${UNSPRUNG_SHARE.min * 100} … ${UNSPRUNG_SHARE.max * 100} % of body.mass_kg, found ${fmt(share * 100)} %`);
  }
  for (const axle of ['front', 'rear'] as const) {
    const s = cfg.suspension[axle];
    const w = cfg.wheels[axle === 'front' ? 0 : 2]!;
    if (!(w.staticTravel <= s.travel)) {
      out.push(`suspension.${axle}.spring_rate_n_per_mm: expected a spring (with its bump stop) that carries the static corner load within the travel (static compression ${fmt(w.staticTravel * 1000)} mm ≤ ${fmt(s.travel * 1000)} mm), found number ${d.suspension[axle].spring_rate_n_per_mm}`);
    }
  }
}

/** Tyre deflection δ with k_t·δ·(1 + δ/δ₀) = N (positive root). */
function tyreDeflection(kt: number, N: number): number {
  const a = kt / TYRE_PROGRESSION_M;
  return (-kt + Math.sqrt(kt * kt + 4 * a * N)) / (2 * a);
}

/** One fast mode of the car: its rate |λ| (1/s), what it is, and the key that sets it. */
export interface CarMode {
  rate: number;
  key: string;
  /** The key's value (these keys have the same unit in the file and in SI). */
  value: number;
  what: string;
}

function axleModes(cfg: CarConfig, axle: 'front' | 'rear'): CarMode[] {
  const s: SuspensionConfig = cfg.suspension[axle];
  const t = cfg.tires[axle];
  const delta = tyreDeflection(t.radialStiffness, DYNAMIC_LOAD_FACTOR * t.nominalLoad);
  const kTyre = t.radialStiffness * (1 + (2 * delta) / TYRE_PROGRESSION_M);
  const k = kTyre + s.springRate + 2 * s.antiRoll + s.bumpStopRate + 2 * s.progression * s.travel;
  const damper = s.reboundDamping >= s.bumpDamping ? 'rebound_damping_n_s_per_m' : 'bump_damping_n_s_per_m';
  const kx = t.longStiffness / t.relaxLong, ky = t.corneringStiffness / t.relaxLat;
  const corner = t.nominalLoad / STANDARD_GRAVITY_M_S2;
  return [
    { rate: Math.sqrt(k / s.unsprungMass), key: `suspension.${axle}.unsprung_mass_kg`, value: s.unsprungMass, what: 'wheel hop (tyre, spring, bar and bump stop over the unsprung mass)' },
    { rate: Math.max(s.bumpDamping, s.reboundDamping) / s.unsprungMass, key: `suspension.${axle}.${damper}`, value: Math.max(s.bumpDamping, s.reboundDamping), what: 'damper over the unsprung mass (c/m_u)' },
    { rate: Math.sqrt((kx * t.radius * t.radius) / t.inertia), key: `tires.${axle}.inertia_kg_m2`, value: t.inertia, what: 'wheel spin on the tyre bristles (C_x/σ_x·R²/I_w)' },
    { rate: Math.sqrt(Math.max(kx, ky) / corner), key: `tires.${axle}.${kx >= ky ? 'relaxation_length_long_m' : 'relaxation_length_lat_m'}`, value: kx >= ky ? t.relaxLong : t.relaxLat, what: 'corner mass on the tyre bristles' },
  ];
}

/**
 * The car's stiffest modes, fastest first: per axle the wheel hop, the damper over the unsprung mass, the wheel spin
 * on the tyre's bristle spring and the corner mass on the bristle springs; viscous diffs over the wheels' spin
 * inertia. A step dt is stable for this car while rate·dt ≤ MAX_MODE_DT.
 */
export function carModes(cfg: CarConfig): CarMode[] {
  const modes = [...axleModes(cfg, 'front'), ...axleModes(cfg, 'rear')];
  const iw = Math.min(cfg.tires.front.inertia, cfg.tires.rear.inertia);
  const d = cfg.drivetrain;
  for (const [name, diff] of [['front_diff', d.frontDiff], ['rear_diff', d.rearDiff], ['centre_diff', d.centreDiff]] as const) {
    if (diff.kind === 'viscous') modes.push({ rate: (2 * diff.viscousNmPerRadS) / iw, key: `drivetrain.${name}.viscous_nm_per_rad_s`, value: diff.viscousNmPerRadS, what: 'viscous diff over the wheel spin inertia (2k/I_w)' });
  }
  return modes.sort((x, y) => y.rate - x.rate);
}

/** The fastest mode rate (1/s): `carStiffestRate(cfg) * dt ≤ MAX_MODE_DT` is the stability condition for a step dt. */
export function carStiffestRate(cfg: CarConfig): number {
  return carModes(cfg)[0]!.rate;
}

function stability(cfg: CarConfig, out: string[]): void {
  const m = carModes(cfg)[0]!;
  if (!(m.rate * REFERENCE_DT <= MAX_MODE_DT)) {
    out.push(
      `${m.key}: expected the car's fastest mode below ${fmt(MAX_MODE_DT / REFERENCE_DT)} rad/s (${MAX_MODE_DT} per ${REFERENCE_DT * 1000} ms step), ` +
        `found ${fmt(m.rate)} rad/s for the ${m.what} with number ${fmt(m.value)}`,
    );
  }
}

/** Setup ranges inside the physical range of the key they tune, with a bounded number of steps. */
function setupRanges(d: CarFile, out: string[]): void {
  for (const [key, r] of Object.entries(d.setup)) {
    const k = CAR_RANGES[rangeKeyOf(key)];
    if (k && !(r.min >= k.min && r.max <= k.max)) out.push(`setup."${key}": expected min and max inside ${rangeText(k)} (physical range), found [${r.min}, ${r.max}]`);
    if (!((r.max - r.min) / r.step <= MAX_SETUP_STEPS)) out.push(`setup."${key}".step: expected at most ${MAX_SETUP_STEPS} steps from min to max, found ${fmt((r.max - r.min) / r.step)}`);
  }
}

/** The crash tests must identify finite Tongue §6 crush parameters for this mass (crush.ts throws otherwise). */
function crash(d: CarFile, cfg: CarConfig, out: string[]): void {
  try {
    identifyCrush(d.body.mass_kg, cfg.collision?.crushTests ?? {});
  } catch (e) {
    const m = /crush\.(front|rear|side)/.exec((e as Error).message);
    const end = m ? m[1] : 'front';
    out.push(`crash.${end}_residual_crush_mm: expected a crash test that leaves the body energy to crush (${(e as Error).message}), found number ${d.crash?.[`${end as 'front'}_residual_crush_mm`] ?? 'the default'}`);
  }
}

/** Every cross-field problem of a validated car (file units in `d`, SI in `cfg`). */
export function plausibilityIssues(d: CarFile, cfg: CarConfig): string[] {
  const out: string[] = [];
  geometry(d, out);
  engine(d, out);
  masses(d, cfg, out);
  setupRanges(d, out);
  if (out.length === 0) stability(cfg, out); // the mode estimate assumes sane geometry and masses
  if (out.length === 0) crash(d, cfg, out);
  return out;
}
