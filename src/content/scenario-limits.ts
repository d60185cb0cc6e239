/**
 * Physical ranges and resource caps of scenario files (docs/scenarios.md has the same table). Ranges are
 * generous for what a rigid-body or car test can mean; the caps bound the time and memory of one run.
 */

/**
 * Broad-phase grid cell of the collision scene, m (src/systems/sim/collision/scene.ts): defined here, in the lower
 * layer, because scenario files cap how many cells their obstacles cover.
 */
export const SCENE_CELL_M = 4;

/** Largest number of ticks (duration_s / dt) one scenario run may take: 10,000 s (2.8 h) at the usual dt = 2 ms. */
export const MAX_SCENARIO_TICKS = 5_000_000;

export const SCENARIO_LIMITS = {
  /** Time step and duration, s. */
  dtS: [1e-5, 0.05],
  durationS: [1e-3, 1e6],
  gravityM_s2: 100,
  /** |x|, |y|, |z| of any position or obstacle/prop coordinate, m (100 km). */
  coordM: 1e5,
  /** Terrain height, obstacle base, m. */
  altitudeM: 1e4,
  /** Slope terrain grade dy/dz (2 = 63°). */
  grade: 2,
  massKg: [1e-3, 1e6],
  inertiaKgM2: [1e-6, 1e9],
  /** Norm of orientation_quat before normalising (a zero quaternion has no direction). */
  quatNorm: [1e-3, 1e3],
  /** Each velocity component, m/s (Mach 3), and angular velocity component, rad/s. */
  speedM_s: 1000,
  angularSpeedRad_s: 1000,
  forceN: 1e7,
  torqueNm: 1e7,
  /** Body-frame application point of force_n, m. */
  bodyPointM: 100,
  /** |F| / m and (|τ| + |r|·|F|) / I_min: 1000 g and its angular counterpart. */
  accelM_s2: 1e4,
  angularAccelRad_s2: 1e5,
  /** Collider rectangle: CG → bumper, m; width, height, CG height, m; clearance, m. */
  carLengthM: [0.1, 10],
  carSizeM: [0.1, 5],
  clearanceM: 2,
  /** Smallest obstacle size (half extent, radius, height), m. */
  minSizeM: 0.005,
  /** Largest half extent or radius of an obstacle, m; wall length range, m; obstacle height, m. */
  obstacleSizeM: 1000,
  wallLengthM: [0.01, 2000],
  obstacleHeightM: 1000,
  /** Cells of the obstacle broad phase (4 m squares) all obstacles' bounding boxes may cover (≈ 16 km²). */
  obstacleCells: 1_000_000,
  /** Largest x or z spread of the props, m (the Havok ground patch is built over it at 1 m). */
  propsSpreadM: 1000,
  carSpeedM_s: 100,
  maxGear: 10,
  angleDeg: 360,
  traceRateHz: [0.01, 10_000],
  traceFields: 64,
  /** Trace samples × fields (the CSV is built in memory): ~200 MB of text. */
  traceValues: 10_000_000,
  bodies: 256,
  cars: 64,
  obstacles: 4096,
  props: 1024,
  inputsPerCar: 100_000,
  idChars: 64,
  nameChars: 200,
  pathChars: 1024,
} as const;

/** Ticks a run of `duration_s` at `dt` takes (the runner's loop count). */
export function scenarioTicks(s: { duration_s: number; dt: number }): number {
  return Math.round(s.duration_s / s.dt);
}
