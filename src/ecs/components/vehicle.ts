import { f64, i32, type ComponentSpec } from './spec';

/**
 * Per-car drivetrain / steering state (vehicle dynamics, docs/vehicle.md). The car entity also has RigidBody
 * and Controls. Its four wheels are entities with `Wheel` (eids in w0..w3, order FL, FR, RL, RR).
 * Deák §5.1: 6 DOF chassis + wheel spin ×4 + steer + travel ×4 (second order) + 1 engine DOF.
 */
export const CarSpec = {
  fields: {
    /** Engine speed, rad/s (integrable state). */
    omegaE: f64,
    /** −1 reverse, 0 neutral, 1..n. */
    gear: i32,
    /** Gear being engaged during a shift, and the time left (s). */
    shiftTarget: i32,
    shiftTimer: f64,
    /** 1 = clutch plates locked (engine and driveline share one speed), 0 = slipping. */
    clutchLocked: i32,
    /** 1 = diff locked by its clutch pack (front, rear, centre). */
    frontDiffLocked: i32,
    rearDiffLocked: i32,
    centreDiffLocked: i32,
    stalled: i32,
    /** Road-wheel steer angle of the virtual centre wheel (rate-limited), rad, + = left. */
    steerAngle: f64,
    /** Driver assists: automatic clutch / automatic gearbox (1 = on). */
    autoClutch: i32,
    autoGear: i32,
    /** Anti-lock brakes assist (1 = on): per-wheel brake torque limited to hold ≈ 10 % slip. */
    abs: i32,
    /** Ticks the automatic gearbox waits before another shift. */
    shiftHold: i32,
    w0: i32,
    w1: i32,
    w2: i32,
    w3: i32,
    // The driveline solve's results that the next tick reads (state): the gearbox efficiency direction
    // follows the sign of the last clutch torque; the lock/unlock tests use the sticking flags and the
    // torques the locked rows carried.
    /** Clutch torque transmitted to the gearbox (N·m, + drives the car). */
    clutchTorque: f64,
    /** Last solve: 1 = clutch row within capacity (plates stuck); bits 1/2/4 = front/rear/centre diff stuck. */
    clutchSticking: i32,
    diffSticking: i32,
    /** Torques carried by the locked constraints (clutch-pack diffs), N·m, for the unlock test. */
    lockTorqueFront: f64,
    lockTorqueRear: f64,
    lockTorqueCentre: f64,
    // Derived each evaluation (not state):
    /** Clutch torque capacity (N·m). */
    clutchCapacity: f64,
    /** Engine combustion torque (N·m) and the throttle the engine sees (after idle control / limiter). */
    engineTorque: f64,
    throttleEff: f64,
    /** Net torque on the engine's own DOF (combustion − friction − slipping clutch), N·m. */
    engineAcc: f64,
    /** Torque entering each differential (N·m): front, rear, centre. */
    diffInFront: f64,
    diffInRear: f64,
    diffInCentre: f64,
    /** Body-frame acceleration of the CG (m/s²) from the last evaluation: x left, z forward. */
    accX: f64,
    accZ: f64,
  },
  state: [
    'omegaE',
    'gear',
    'shiftTarget',
    'shiftTimer',
    'clutchLocked',
    'frontDiffLocked',
    'rearDiffLocked',
    'centreDiffLocked',
    'stalled',
    'steerAngle',
    'autoClutch',
    'autoGear',
    'abs',
    'shiftHold',
    'clutchTorque',
    'clutchSticking',
    'diffSticking',
    'lockTorqueFront',
    'lockTorqueRear',
    'lockTorqueCentre',
  ],
} satisfies ComponentSpec;

/**
 * One road wheel (its own entity). State: spin ω (rad/s), spin angle (rad), suspension compression `travel`
 * (m, + = compressed) and its rate `travelRate` (m/s; the wheel has its own unsprung mass, Deák's 5-body
 * car), and the tyre's contact-patch deflections ux, uy (m) of the relaxation / brush model.
 */
export const WheelSpec = {
  fields: {
    car: i32,
    index: i32,
    omega: f64,
    angle: f64,
    travel: f64,
    travelRate: f64,
    ux: f64,
    uy: f64,
    /**
     * Slip ratio near the longitudinal force peak at the current load and surface (ABS target): state, the
     * next tick's ABS reads it before the tyre pass recomputes it.
     */
    peakSlip: f64,
    // Derived each evaluation:
    steer: f64,
    grounded: i32,
    surface: i32,
    cx: f64,
    cy: f64,
    cz: f64,
    nx: f64,
    ny: f64,
    nz: f64,
    /** Tyre normal load (N). */
    load: f64,
    /** Tyre forces in the wheel frame: fx forward, fy left (N). */
    fx: f64,
    fy: f64,
    /** Contact-point velocity in the wheel frame (m/s). */
    vx: f64,
    vy: f64,
    slipRatio: f64,
    /** Sum of torques about the spin axis (N·m): tyre, drive, brake. */
    torque: f64,
    /** Drive torque alone (N·m). */
    driveTorque: f64,
    /** Suspension force on the wheel, down along the body's −Y (spring + bump stop + anti-roll + damper − droop stop), N. */
    suspForce: f64,
    /** The tyre's force (normal load + tangential force) along the body's +Y axis â (N): it drives the wheel's travel. */
    tireAxis: f64,
    /** Time derivatives of travel rate, ux, uy from the last evaluation (ṫravel = travelRate). */
    dTravelRate: f64,
    dux: f64,
    duy: f64,
  },
  state: ['car', 'index', 'omega', 'angle', 'travel', 'travelRate', 'ux', 'uy', 'peakSlip'],
} satisfies ComponentSpec;
