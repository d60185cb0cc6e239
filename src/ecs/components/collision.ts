import { f64, i32, u8, type ComponentSpec } from './spec';

/**
 * Car collision model (Knight & Bernard, "Initialization"): the yaw-plane rectangle given by the
 * distances CG→front, CG→rear, half width, at CG height, plus a body box (bottom clearance → roof) so that low
 * walls and tall obstacles are not missed. `method`: 0 = restitution (Knight eqs 15–17), 1 = kinetic energy
 * (Knight eqs 18–35). Tongue crush parameters are per end: 0 front, 1 rear, 2 left, 3 right.
 * Residual crush (m) per end is state (hashed, drives visuals and Damage), and so is the contact memory.
 */
export const CarColliderSpec = {
  fields: {
    front: f64, rear: f64, halfWidth: f64, height: f64, cgHeight: f64, clearance: f64,
    method: u8,
    /**
     * Tongue parameters: bumper dead length L_b (m), spring k_b (N/m), damper C_b (N) and γ (m²/s²), bumper energy
     * capacity E_cap = ½·m·(5 mph)² (J), body preload F_0 = peak 5 mph bumper force (N), body stiffness k_c per
     * end (N/m).
     */
    bumperLength: f64,
    kb: f64, Cb: f64, gamma: f64, bumperCap: f64, F0: f64,
    kcF: f64, kcR: f64, kcS: f64,
    crushF: f64, crushR: f64, crushL: f64, crushRt: f64,
    /** Collisions this car took part in (count, state). */
    hits: i32,
    /**
     * Partners in contact during the last tick (state: a contact counts and is reported when it starts), as
     * contact codes (src/systems/sim/collision/contact-memory.ts), 0 = empty: the collision pass's scene and
     * car–car pairs, then the props pass's car–prop pairs.
     */
    contact0: i32, contact1: i32, contact2: i32, contact3: i32, contact4: i32, contact5: i32, contact6: i32, contact7: i32,
    propContact0: i32, propContact1: i32, propContact2: i32, propContact3: i32,
    propContact4: i32, propContact5: i32, propContact6: i32, propContact7: i32,
  },
  state: [
    'crushF', 'crushR', 'crushL', 'crushRt', 'hits',
    'contact0', 'contact1', 'contact2', 'contact3', 'contact4', 'contact5', 'contact6', 'contact7',
    'propContact0', 'propContact1', 'propContact2', 'propContact3', 'propContact4', 'propContact5', 'propContact6', 'propContact7',
  ],
} satisfies ComponentSpec;

/**
 * What the player feels from residual crush; written by the collision pass, read by the vehicle systems:
 * `steerPullRad` is added to the front-wheel steer angle (+ = left), `powerFactor` ∈ [0.3, 1] multiplies engine
 * torque.
 */
export const DamageSpec = {
  fields: { steerPullRad: f64, powerFactor: f64 },
  state: ['steerPullRad', 'powerFactor'],
} satisfies ComponentSpec;

/** A dynamic Havok prop (cone, hay bale, barrel, fence post): its Havok state mirrored each tick for the hash. */
export const PropSpec = {
  fields: {
    kind: u8,
    px: f64, py: f64, pz: f64, qw: f64, qx: f64, qy: f64, qz: f64,
    vx: f64, vy: f64, vz: f64, wx: f64, wy: f64, wz: f64,
    mass: f64, radius: f64, height: f64,
  },
  state: ['px', 'py', 'pz', 'qw', 'qx', 'qy', 'qz', 'vx', 'vy', 'vz', 'wx', 'wy', 'wz'],
} satisfies ComponentSpec;
