import { f64, i32, type ComponentSpec } from './spec';


/**
 * 6DOF rigid body, Deák §4.2: state r (position), P (linear momentum), q (unit quaternion,
 * body → world), L (angular momentum). Body inertia is diagonal in the body frame (principal axes).
 * v, ω and the world inverse inertia are auxiliary variables; f/τ are accumulators zeroed every evaluation.
 */
export const RigidBodySpec = {
  fields: {
    px: f64, py: f64, pz: f64,
    Px: f64, Py: f64, Pz: f64,
    qw: f64, qx: f64, qy: f64, qz: f64,
    Lx: f64, Ly: f64, Lz: f64,
    mass: f64, Ixx: f64, Iyy: f64, Izz: f64,
    vx: f64, vy: f64, vz: f64,
    wx: f64, wy: f64, wz: f64,
    /** Rotation matrix body → world, row-major (derived from q). */
    R0: f64, R1: f64, R2: f64, R3: f64, R4: f64, R5: f64, R6: f64, R7: f64, R8: f64,
    fx: f64, fy: f64, fz: f64,
    tx: f64, ty: f64, tz: f64,
    /** 1 = gravity applies. */
    gravity: f64,
    /**
     * 0 = moving; otherwise the body was stopped by the simulation's last line of defence (halt-guard.ts:
     * 1 non-finite state, 2 runaway speed, 3 below the terrain): no forces, zero momenta, skipped by the passes.
     */
    halted: i32,
  },
  state: ['px', 'py', 'pz', 'Px', 'Py', 'Pz', 'qw', 'qx', 'qy', 'qz', 'Lx', 'Ly', 'Lz', 'halted'],
} satisfies ComponentSpec;

/** Constant world-frame force and torque applied every evaluation (scenario bodies), plus a body-frame point of application. */
export const AppliedForceSpec = {
  fields: { fx: f64, fy: f64, fz: f64, tx: f64, ty: f64, tz: f64, ax: f64, ay: f64, az: f64 },
  state: [],
} satisfies ComponentSpec;

/**
 * Driver controls as consumed by the simulation (after quantisation, see src/ecs/controls.ts).
 * steer ∈ [−1, 1] (+ = left), throttle/brake/clutch/handbrake ∈ [0, 1]; shift is a pending request −1/0/+1.
 */
export const ControlsSpec = {
  fields: { steer: f64, throttle: f64, brake: f64, clutch: f64, handbrake: f64, shift: i32, buttons: i32 },
  state: ['steer', 'throttle', 'brake', 'clutch', 'handbrake', 'shift', 'buttons'],
} satisfies ComponentSpec;

