/**
 * Physical range of every numeric key of a car file: what a real car (from a 400 kg racing special to a 4 t
 * off-roader) can have, in the file's units. The car schema (car-schema.ts) builds each number from this table,
 * so the same numbers are checked by the loader (after `extends` and setup are applied), shown in the JSON
 * Schema's `minimum` / `maximum` / `description` for editors, and listed in docs/vehicle.md.
 *
 * Keys are `table.key` paths; the diff, suspension and tyre blocks are shared by their axles, so their keys read
 * `diff.*`, `suspension.*`, `tires.*`. Ranges are deliberately wider than any road or rally car (the shipped cars
 * sit well inside) and narrow enough that the simulation stays finite: cross-field limits that depend on two or
 * more keys (CG between the axles, the stiffest mode against the step, …) live in car-plausibility.ts.
 */

export interface KeyRange {
  min: number;
  max: number;
  /** Unit as written after the number ("kg", "N/mm", "" for plain ratios). */
  unit: string;
  /** What the key means, for the JSON Schema description and the docs. */
  meaning: string;
  /** Typical road / rally values. */
  typical: string;
}

const r = (min: number, max: number, unit: string, meaning: string, typical: string): KeyRange => ({ min, max, unit, meaning, typical });

const BODY: Record<string, KeyRange> = {
  'body.mass_kg': r(400, 4000, 'kg', 'Total mass with driver (wheels included)', '1100–1500'),
  'body.length_m': r(2, 7, 'm', 'Overall length, bumper to bumper', '3.8–4.8'),
  'body.width_m': r(1.2, 2.6, 'm', 'Overall width without mirrors', '1.65–1.9'),
  'body.height_m': r(0.8, 3, 'm', 'Overall height', '1.3–1.5'),
  'body.wheelbase_m': r(1.5, 4.5, 'm', 'Front axle to rear axle', '2.4–2.8'),
  'body.cg_to_front_m': r(0.2, 3.8, 'm', 'Horizontal distance from the centre of gravity to the front axle', '0.4–0.6 × wheelbase'),
  'body.cg_height_m': r(0.2, 1.5, 'm', 'Centre of gravity height above the ground at static ride', '0.45–0.6'),
  'body.track_front_m': r(1, 2.4, 'm', 'Front track (wheel centre to wheel centre)', '1.45–1.6'),
  'body.track_rear_m': r(1, 2.4, 'm', 'Rear track (wheel centre to wheel centre)', '1.45–1.6'),
  'body.inertia_kg_m2[]': r(50, 20000, 'kg·m²', 'Principal moments about body X (pitch), Y (yaw), Z (roll); default from mass and axle distances', '[1900, 2000, 600]'),
  'body.drag_coefficient': r(0, 1.5, '', 'Aerodynamic drag coefficient C_d', '0.3–0.45'),
  'body.frontal_area_m2': r(0.8, 6, 'm²', 'Frontal area A of the drag ½ρC_dA v²', '1.9–2.3'),
  'body.downforce_cla_m2': r(0, 5, 'm²', 'Downforce coefficient × area: downforce = ½ρ(C_L·A)v²', '0 (road), 0.5–1.5 (rally, race)'),
  'body.downforce_front_fraction': r(0, 1, '', 'Share of the downforce on the front axle', '0.4–0.5'),
};

const ENGINE: Record<string, KeyRange> = {
  'engine.idle_rpm': r(400, 3000, 'rpm', 'Idle speed held by the idle controller', '750–1000'),
  'engine.redline_rpm': r(2000, 20000, 'rpm', 'Highest usable engine speed (automatic upshift point)', '6000–8000'),
  'engine.limiter_rpm': r(2000, 21000, 'rpm', 'Rev limiter: fuel cut above this speed (default redline + 150)', '6200–8200'),
  'engine.stall_rpm': r(100, 2000, 'rpm', 'The engine stalls below this speed', '400–600'),
  'engine.peak_torque_nm': r(10, 3000, 'N·m', 'Peak torque that torque_curve fractions multiply', '150–500'),
  'engine.torque_rpm[]': r(0, 21000, 'rpm', 'Engine speed of a torque curve / table point', '800–7500'),
  'engine.torque_table_nm[]': r(0, 3000, 'N·m', 'Full-throttle net torque at that speed', '150–500'),
  'engine.torque_curve[]': r(0, 1, '', 'Full-throttle torque as a fraction of peak_torque_nm', '0.5–1'),
  'engine.inertia_kg_m2': r(0.02, 2, 'kg·m²', 'Engine, flywheel and clutch rotating inertia', '0.1–0.25'),
  'engine.friction_nm': r(0, 200, 'N·m', 'Static part of the engine friction torque', '10–25'),
  'engine.friction_per_krpm_nm': r(0, 50, 'N·m per 1000 rpm', 'Speed-proportional part of the engine friction torque', '3–6'),
  'engine.starter_torque_nm': r(5, 500, 'N·m', 'Torque of the starter motor at the crankshaft', '50–100'),
};

const DRIVELINE: Record<string, KeyRange> = {
  'gearbox.ratios[]': r(0.3, 6, '', 'Forward gear ratios, first gear first, decreasing', '3.5 … 0.75'),
  'gearbox.reverse_ratio': r(0.3, 6, '', 'Reverse gear ratio (positive number)', '3–4.3'),
  'gearbox.final_drive': r(1.5, 8, '', 'Final drive (differential) ratio', '3.2–4.5'),
  'gearbox.efficiency': r(0.5, 1, '', 'Gearbox + final drive efficiency', '0.9–0.95'),
  'gearbox.shift_time_s': r(0, 2, 's', 'Clutch-open, ignition-cut time of one shift', '0.05–0.3'),
  'gearbox.auto_efficiency_loss': r(0, 0.3, '', 'Extra efficiency loss of the automatic box', '0–0.05'),
  'diff.preload_nm': r(0, 3000, 'N·m', 'Clutch-pack LSD locking torque with no input torque', '0–200'),
  'diff.power_ramp': r(0, 3, '', 'Clutch-pack LSD: extra locking torque per N·m of input torque under power', '0.2–0.6'),
  'diff.coast_ramp': r(0, 3, '', 'Clutch-pack LSD: extra locking torque per N·m of input torque on the overrun', '0.1–0.4'),
  'diff.viscous_nm_per_rad_s': r(0, 300, 'N·m per rad/s', 'Viscous LSD: transfer torque per rad/s of speed difference', '10–80'),
  'drivetrain.front_torque_fraction': r(0.05, 0.95, '', 'AWD: share of the centre diff torque sent to the front axle', '0.3–0.5'),
  'drivetrain.clutch_max_torque_nm': r(50, 5000, 'N·m', 'Torque capacity of the fully engaged clutch', '1.3–2 × peak torque'),
};

const CHASSIS: Record<string, KeyRange> = {
  'steering.max_angle_deg': r(5, 60, '°', 'Road-wheel angle at full lock', '30–40'),
  'steering.max_rate_deg_s': r(30, 2000, '°/s', 'Fastest road-wheel angle change', '250–500'),
  'steering.ackermann': r(0, 1, '', 'Ackermann fraction: 0 parallel steer, 1 full Ackermann', '0.5–1'),
  'suspension.spring_rate_n_per_mm': r(5, 500, 'N/mm', 'Wheel rate of the spring (at the wheel)', '20–80'),
  'suspension.progression_n_per_mm2': r(0, 10, 'N/mm²', 'Progressive term k₂ of F = k·s + k₂·s²', '0–0.5'),
  'suspension.travel_mm': r(30, 500, 'mm', 'Wheel travel from full droop to full bump', '120–250'),
  'suspension.bump_damping_n_s_per_m': r(1, 50000, 'N·s/m', 'Damper rate in compression (at the wheel)', '1500–5000'),
  'suspension.rebound_damping_n_s_per_m': r(1, 50000, 'N·s/m', 'Damper rate in extension (at the wheel)', '2500–8000'),
  'suspension.bump_stop_gap_mm': r(0, 200, 'mm', 'The bump stop engages this far from full bump', '15–40'),
  'suspension.bump_stop_rate_n_per_mm': r(10, 5000, 'N/mm', 'Initial rate of the (progressive) bump stop', '100–300'),
  'suspension.anti_roll_n_per_mm': r(0, 500, 'N/mm', 'Anti-roll bar rate per mm of left-right travel difference', '5–40'),
  'suspension.unsprung_mass_kg': r(5, 250, 'kg', 'Unsprung mass per wheel: wheel, tyre, hub, brake, half the links (default 3.5 % of body.mass_kg)', '30–50'),
  'brakes.max_torque_nm': r(100, 30000, 'N·m', 'Total brake torque of all four wheels at full pedal', '2500–8000'),
  'brakes.front_bias': r(0, 1, '', 'Share of the brake torque on the front axle', '0.6–0.75'),
  'brakes.handbrake_torque_nm': r(0, 10000, 'N·m', 'Handbrake torque on the rear axle', '1000–3000'),
};

const TIRES: Record<string, KeyRange> = {
  'tires.radius_m': r(0.15, 0.8, 'm', 'Loaded rolling radius of the tyre', '0.29–0.34'),
  'tires.width_mm': r(100, 450, 'mm', 'Tread width', '185–255'),
  'tires.inertia_kg_m2': r(0.1, 20, 'kg·m²', 'Spin inertia of wheel, tyre, hub and brake disc', '0.8–1.5'),
  'tires.radial_stiffness_n_per_mm': r(50, 2000, 'N/mm', 'Vertical tyre stiffness at small deflection', '200–350'),
  'tires.long_stiffness_n': r(5000, 500000, 'N', 'Longitudinal slip stiffness C_x per unit slip ratio at the nominal load', '60000–150000'),
  'tires.cornering_stiffness_n_per_rad': r(5000, 500000, 'N/rad', 'Cornering stiffness C_α at the nominal load', '50000–120000'),
  'tires.stiffness_load_exponent': r(0.3, 1, '', 'Local exponent p of C(N) ∝ N^p at the nominal load', '0.7–0.9'),
  'tires.load_sensitivity': r(0, 0.5, '', 'Friction load sensitivity: μ(N) = μ·(1 − s·(N − N0)/N0)', '0.05–0.2'),
  'tires.grip': r(0.3, 2, '', 'Compound grip multiplier on the surface friction curve', '0.9–1.2'),
  'tires.relaxation_length_long_m': r(0.1, 1, 'm', 'Longitudinal relaxation length σ_x of the bristle model', '0.1–0.3'),
  'tires.relaxation_length_lat_m': r(0.1, 2, 'm', 'Lateral relaxation length σ_y of the bristle model', '0.3–0.6'),
  'tires.rolling_resistance': r(0, 0.1, '', 'Rolling resistance coefficient C_rr', '0.008–0.015'),
  'tires.pressure_uniformity': r(0, 1, '', 'Contact pressure shape: 0 parabolic, 1 uniform', '0.5–0.7'),
};

const OTHER: Record<string, KeyRange> = {
  'crash.barrier_speed_km_h': r(10, 120, 'km/h', 'Impact speed of a rigid-barrier crash test (or equivalent barrier speed)', '30–64'),
  'crash.residual_crush_mm': r(20, 2000, 'mm', 'Residual (static) crush the test left', '200–700'),
};

/** Every numeric key's range, by path (shared axle blocks as `suspension.*`, `tires.*`, `diff.*`). */
export const CAR_RANGES: Readonly<Record<string, KeyRange>> = { ...BODY, ...ENGINE, ...DRIVELINE, ...CHASSIS, ...TIRES, ...OTHER };

/** The range of `key`, or throws (a schema key without a documented range is a programming error). */
export function rangeOf(key: string): KeyRange {
  const k = CAR_RANGES[key];
  if (!k) throw new Error(`car-ranges: no range for "${key}"`);
  return k;
}

/** Schema path of a file key: "suspension.front.travel_mm" → "suspension.travel_mm" (shared blocks). */
export function rangeKeyOf(path: string): string {
  const p = path.replace(/\[\d+\]/g, '[]');
  return p
    .replace(/^suspension\.(front|rear)\./, 'suspension.')
    .replace(/^tires\.(front|rear)\./, 'tires.')
    .replace(/^drivetrain\.(front|rear|centre)_diff\./, 'diff.')
    .replace(/^crash\.(front|rear|side)_/, 'crash.');
}

/** "400 … 4000 kg" for messages and descriptions. */
export function rangeText(k: KeyRange): string {
  return `${k.min} … ${k.max}${k.unit ? ' ' + k.unit : ''}`;
}
