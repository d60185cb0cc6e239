// The force passes 2 and 4–5b of one car in WebAssembly (AssemblyScript; compiled by terrain/wasm/build.ts, `npm run
// build:wasm`): the wheels' contact and suspension (src/systems/sim/vehicle/suspension-contact.ts `suspensionCar`),
// the tyres (tires.ts `tiresCar`), brakes and aero (brakes-aero.ts `brakesAeroCar`) and the wheels' travel dynamics
// (unsprung.ts `unsprungCar`), and the driveline solve (vehicle-block.ts `drivelineAccelerations`), each ported
// operation for operation (the sums in wheel order), so the same bits. It reads and writes the world's components in
// place: they are views into the memory this module imports (src/ecs/components/index.ts), at the byte offsets `setFields` reads from the
// table the loader (force-kernel.ts) writes, in TABLE order. Functions are kept under 80 lines by hand (eslint does
// not read this file).

// Byte offsets of the component fields (TABLE, then EXTRA, order in force-kernel.ts).
let RB_R0: i32 = 0, RB_R1: i32 = 0, RB_R2: i32 = 0, RB_R3: i32 = 0, RB_R4: i32 = 0;
let RB_R5: i32 = 0, RB_R6: i32 = 0, RB_R7: i32 = 0, RB_R8: i32 = 0;
let RB_PX: i32 = 0, RB_PY: i32 = 0, RB_PZ: i32 = 0;
let RB_VX: i32 = 0, RB_VY: i32 = 0, RB_VZ: i32 = 0;
let RB_WX: i32 = 0, RB_WY: i32 = 0, RB_WZ: i32 = 0;
let RB_FX: i32 = 0, RB_FY: i32 = 0, RB_FZ: i32 = 0;
let RB_TX: i32 = 0, RB_TY: i32 = 0, RB_TZ: i32 = 0;
let W_NX: i32 = 0, W_NY: i32 = 0, W_NZ: i32 = 0;
let W_CX: i32 = 0, W_CY: i32 = 0, W_CZ: i32 = 0;
let W_LOAD: i32 = 0, W_OMEGA: i32 = 0, W_SURFACE: i32 = 0, W_GROUNDED: i32 = 0;
let W_UX: i32 = 0, W_UY: i32 = 0;
let W_FX: i32 = 0, W_FY: i32 = 0, W_VX: i32 = 0, W_VY: i32 = 0;
let W_SLIP: i32 = 0, W_AXIS: i32 = 0, W_DUX: i32 = 0, W_DUY: i32 = 0, W_PEAK: i32 = 0, W_TORQUE: i32 = 0;
// The surface table (SURF_N rows of SURF_ROW bytes: muSliding, muStatic, slidingSpeedRef, stiffnessScale,
// rollingResistance) and the per-entity constants (CONST_STRIDE bytes per entity: C_* slots of a wheel, K_* of a car).
let SURF_AT: i32 = 0, SURF_N: i32 = 0, CONST_AT: i32 = 0;
let CTL_BRAKE: i32 = 0, CTL_HAND: i32 = 0, CAR_ABS: i32 = 0, RB_MASS: i32 = 0, RB_GRAVITY: i32 = 0;
let W_SUSP: i32 = 0, W_DTRAVEL: i32 = 0, W_TRAVEL: i32 = 0, W_TRATE: i32 = 0;
// The driveline solve's fields and its scratch (DL_AT).
let W_DRIVE: i32 = 0, CAR_ENGINE_ACC: i32 = 0, CAR_OMEGA_E: i32 = 0;
let CAR_DIFF_IN_FRONT: i32 = 0, CAR_DIFF_IN_REAR: i32 = 0, CAR_DIFF_IN_CENTRE: i32 = 0;
let CAR_CLUTCH_TORQUE: i32 = 0, CAR_CLUTCH_STICKING: i32 = 0, CAR_DIFF_STICKING: i32 = 0;
let CAR_LOCK_FRONT: i32 = 0, CAR_LOCK_REAR: i32 = 0, CAR_LOCK_CENTRE: i32 = 0, DL_AT: i32 = 0;

export function setFields(t: i32): void {
  RB_R0 = load<i32>(t); RB_R1 = load<i32>(t, 4); RB_R2 = load<i32>(t, 8); RB_R3 = load<i32>(t, 12);
  RB_R4 = load<i32>(t, 16); RB_R5 = load<i32>(t, 20); RB_R6 = load<i32>(t, 24); RB_R7 = load<i32>(t, 28);
  RB_R8 = load<i32>(t, 32); RB_PX = load<i32>(t, 36); RB_PY = load<i32>(t, 40); RB_PZ = load<i32>(t, 44);
  RB_VX = load<i32>(t, 48); RB_VY = load<i32>(t, 52); RB_VZ = load<i32>(t, 56);
  RB_WX = load<i32>(t, 60); RB_WY = load<i32>(t, 64); RB_WZ = load<i32>(t, 68);
  RB_FX = load<i32>(t, 72); RB_FY = load<i32>(t, 76); RB_FZ = load<i32>(t, 80);
  RB_TX = load<i32>(t, 84); RB_TY = load<i32>(t, 88); RB_TZ = load<i32>(t, 92);
  W_NX = load<i32>(t, 96); W_NY = load<i32>(t, 100); W_NZ = load<i32>(t, 104);
  W_CX = load<i32>(t, 108); W_CY = load<i32>(t, 112); W_CZ = load<i32>(t, 116);
  W_LOAD = load<i32>(t, 120); W_OMEGA = load<i32>(t, 124); W_SURFACE = load<i32>(t, 128); W_GROUNDED = load<i32>(t, 132);
  W_UX = load<i32>(t, 136); W_UY = load<i32>(t, 140);
  W_FX = load<i32>(t, 144); W_FY = load<i32>(t, 148); W_VX = load<i32>(t, 152); W_VY = load<i32>(t, 156);
  W_SLIP = load<i32>(t, 160); W_AXIS = load<i32>(t, 164); W_DUX = load<i32>(t, 168); W_DUY = load<i32>(t, 172);
  W_PEAK = load<i32>(t, 176); W_TORQUE = load<i32>(t, 180);
  SURF_AT = load<i32>(t, 184); SURF_N = load<i32>(t, 188); CONST_AT = load<i32>(t, 192);
  CTL_BRAKE = load<i32>(t, 196); CTL_HAND = load<i32>(t, 200); CAR_ABS = load<i32>(t, 204);
  RB_MASS = load<i32>(t, 208); RB_GRAVITY = load<i32>(t, 212); W_SUSP = load<i32>(t, 216); W_DTRAVEL = load<i32>(t, 220);
  W_TRAVEL = load<i32>(t, 224); W_TRATE = load<i32>(t, 228);
  W_DRIVE = load<i32>(t, 232); CAR_ENGINE_ACC = load<i32>(t, 236); CAR_OMEGA_E = load<i32>(t, 240);
  CAR_DIFF_IN_FRONT = load<i32>(t, 244); CAR_DIFF_IN_REAR = load<i32>(t, 248); CAR_DIFF_IN_CENTRE = load<i32>(t, 252);
  CAR_CLUTCH_TORQUE = load<i32>(t, 256); CAR_CLUTCH_STICKING = load<i32>(t, 260); CAR_DIFF_STICKING = load<i32>(t, 264);
  CAR_LOCK_FRONT = load<i32>(t, 268); CAR_LOCK_REAR = load<i32>(t, 272); CAR_LOCK_CENTRE = load<i32>(t, 276);
  DL_AT = load<i32>(t, 280);
}

// Per-wheel constants (byte offsets in the wheel entity's CONST_STRIDE bytes; force-kernel.ts writes them).
const C_RADIUS = 0, C_GRIP = 8, C_LOAD_SENS = 16, C_LONG = 24, C_CORNER = 32, C_UNIFORM = 40, C_INV_N0 = 48;
const C_STIFF_K = 56, C_INV_RELAX_X = 64, C_INV_RELAX_Y = 72, C_DAMP_X = 80, C_DAMP_Y = 88, C_SIN = 96, C_COS = 104;
const C_INERTIA = 112, C_ROLLING = 120, C_BRAKE_MAX = 128, C_HAND_MAX = 136, C_INV_UNSPRUNG = 144, C_AXIS_MOMENT = 152;
// Pass 2's constants of the wheel: tyre radial stiffness; spring (rate, progression, bump-stop onset travel − gap,
// rate, max(gap, 1 mm)), anti-roll bar, bump and rebound damping, droop stop; position in the body (x, y, z, static
// travel).
const C_RADIAL_K = 184, C_SPRING = 192, C_PROGRESSION = 200, C_BS_AT = 208, C_BS_RATE = 216, C_BS_GAP = 224;
const C_ANTI_ROLL = 232, C_BUMP = 240, C_REBOUND = 248, C_DROP_K = 256, C_DROP_C = 264, C_POS = 272, C_STATIC = 296;
// Pass 2's scratch per wheel: the centre (x, y, z) of this evaluation; the ground under it (h, nx, ny, nz, surface
// code as i32); the midpoint patch (sample x, z, h, ∂h/∂x, ∂h/∂z, h_xx, h_xz, h_zz, surface code as i32, valid).
const C_CENTRE = 304, C_GROUND = 328, C_PATCH = 368;
// Per-car constants (in the car entity's slot).
const K_DRAG = 0, K_DOWNFORCE = 8, K_DOWN_FRONT = 16, K_CG_FRONT = 24, K_CG_REAR = 32, K_INV_SPRUNG = 40;
const CONST_STRIDE = 512;
// suspension-contact.ts PATCH_REACH_M, m.
const PATCH_REACH_M: f64 = 0.25;
const SURF_ROW_SHIFT = 6;
const AIR_DENSITY: f64 = 1.225; // registry.ts AIR_DENSITY
const ONE_THIRD: f64 = 1.0 / 3.0;
const OVERSLIDE_RATE: f64 = 60;
const OVERSLIDE_MAX: f64 = 250;

@inline function get(field: i32, e: i32): f64 {
  return load<f64>(field + (e << 3));
}
@inline function put(field: i32, e: i32, v: f64): void {
  store<f64>(field + (e << 3), v);
}
// A pass's sums added to the body's force and torque accumulators.
@inline function addToBody(eid: i32, fx: f64, fy: f64, fz: f64, tx: f64, ty: f64, tz: f64): void {
  put(RB_FX, eid, get(RB_FX, eid) + fx);
  put(RB_FY, eid, get(RB_FY, eid) + fy);
  put(RB_FZ, eid, get(RB_FZ, eid) + fz);
  put(RB_TX, eid, get(RB_TX, eid) + tx);
  put(RB_TY, eid, get(RB_TY, eid) + ty);
  put(RB_TZ, eid, get(RB_TZ, eid) + tz);
}

// The wheel's frame (tires.ts wheelFrame): heading f, left l, contact arm r, contact velocity along f and l.
let fX: f64 = 0, fY: f64 = 0, fZ: f64 = 0, lX: f64 = 0, lY: f64 = 0, lZ: f64 = 0;
let rX: f64 = 0, rY: f64 = 0, rZ: f64 = 0, vX: f64 = 0, vY: f64 = 0;
// The chassis sums (tires.ts `chassis`; suspensionCar's too).
let sFx: f64 = 0, sFy: f64 = 0, sFz: f64 = 0, sTx: f64 = 0, sTy: f64 = 0, sTz: f64 = 0;

function wheelFrame(eid: i32, w: i32, c: i32): void {
  const nx = get(W_NX, w), ny = get(W_NY, w), nz = get(W_NZ, w);
  const sd = load<f64>(c, C_SIN), cd = load<f64>(c, C_COS);
  let fx = get(RB_R0, eid) * sd + get(RB_R2, eid) * cd,
    fy = get(RB_R3, eid) * sd + get(RB_R5, eid) * cd,
    fz = get(RB_R6, eid) * sd + get(RB_R8, eid) * cd;
  const fn = fx * nx + fy * ny + fz * nz;
  fx -= fn * nx;
  fy -= fn * ny;
  fz -= fn * nz;
  const ifl = 1 / Math.sqrt(fx * fx + fy * fy + fz * fz);
  fx *= ifl;
  fy *= ifl;
  fz *= ifl;
  const lx = ny * fz - nz * fy, ly = nz * fx - nx * fz, lz = nx * fy - ny * fx;
  const rx = get(W_CX, w) - get(RB_PX, eid), ry = get(W_CY, w) - get(RB_PY, eid), rz = get(W_CZ, w) - get(RB_PZ, eid);
  const wx = get(RB_WX, eid), wy = get(RB_WY, eid), wz = get(RB_WZ, eid);
  const vcx = get(RB_VX, eid) + wy * rz - wz * ry,
    vcy = get(RB_VY, eid) + wz * rx - wx * rz,
    vcz = get(RB_VZ, eid) + wx * ry - wy * rx;
  fX = fx; fY = fy; fZ = fz;
  lX = lx; lY = ly; lZ = lz;
  rX = rx; rY = ry; rZ = rz;
  vX = vcx * fx + vcy * fy + vcz * fz;
  vY = vcx * lx + vcy * ly + vcz * lz;
}

// The brush result (tires.ts brushCore): force per the brush, sliding fraction.
let bFx: f64 = 0, bFy: f64 = 0, bPhi: f64 = 0;

function brushCore(sx: f64, sy: f64, n: f64, mu: f64, cx: f64, cy: f64, w: f64, S: f64): void {
  bFx = 0;
  bFy = 0;
  bPhi = 0;
  if (!(n > 0) || !(mu > 0)) return;
  const muN = mu * n;
  const ex = cx * sx, ey = cy * sy;
  if (S == 0) return;
  if (S <= 0.5 * w) {
    bFx = ex;
    bFy = ey;
    return;
  }
  const A = 1.5 * (1 - w);
  let eta: f64;
  if (A > 1e-12) {
    const bq = 2 * A - S;
    eta = (bq + Math.sqrt(bq * bq + 4 * A * w)) / (2 * A);
  } else eta = w / S;
  if (eta > 2) eta = 2;
  const e2 = eta * eta;
  const stick = 0.25 * e2;
  const slide = muN * (1 - 0.5 * (A * e2 - A * e2 * eta * ONE_THIRD + w * eta));
  const slideUnit = slide / Math.sqrt(sx * sx + sy * sy);
  bFx = stick * ex + slideUnit * sx;
  bFy = stick * ey + slideUnit * sy;
  bPhi = 1 - 0.5 * eta;
}

// The wheel's force along f and l (tires.ts wheelBrush).
let tFx: f64 = 0, tFy: f64 = 0;

function wheelBrush(w: i32, c: i32): void {
  const n = get(W_LOAD, w);
  const vx = vX, vy = vY;
  const vsx = get(W_OMEGA, w) * load<f64>(c, C_RADIUS) - vx;
  const vsy = -vy;
  let code = load<i32>(W_SURFACE + (w << 2));
  if (code < 0 || code >= SURF_N) code = 0; // tires.ts: surfaces[code] ?? surfaces[0]
  const sf = SURF_AT + (code << SURF_ROW_SHIFT);
  const vs = Math.sqrt(vsx * vsx + vsy * vsy);
  const x = n * load<f64>(c, C_INV_N0);
  let lfac = 1 - load<f64>(c, C_LOAD_SENS) * (x - 1);
  lfac = lfac < 0.6 ? 0.6 : lfac > 1.3 ? 1.3 : lfac;
  const muSliding = load<f64>(sf), muStatic = load<f64>(sf, 8), vRef = load<f64>(sf, 16);
  const mu = load<f64>(c, C_GRIP) * (muSliding + ((muStatic - muSliding) * vRef) / (vRef + vs)) * lfac;
  const sk = load<f64>(c, C_STIFF_K);
  const lf = (load<f64>(sf, 24) * x * (1 + sk)) / (1 + sk * x);
  const cxs = load<f64>(c, C_LONG) * lf;
  const cys = load<f64>(c, C_CORNER) * lf;
  const ux = get(W_UX, w), uy = get(W_UY, w);
  const irx = load<f64>(c, C_INV_RELAX_X), iry = load<f64>(c, C_INV_RELAX_Y);
  const sx = ux * irx, sy = uy * iry;
  const ex = cxs * sx, ey = cys * sy;
  const muN = mu * n;
  const S = Math.sqrt(ex * ex + ey * ey) / muN;
  brushCore(sx, sy, n, mu, cxs, cys, load<f64>(c, C_UNIFORM), S);
  const S3 = S * ONE_THIRD;
  let extra = S3 > 1 ? OVERSLIDE_RATE * (S3 - 1) : 0;
  if (extra > OVERSLIDE_MAX) extra = OVERSLIDE_MAX;
  const avx = vx < 0 ? -vx : vx;
  const dux = vsx - (avx * irx + extra) * ux;
  const duy = vsy - (avx * iry + extra) * uy;
  put(W_DUX, w, dux);
  put(W_DUY, w, duy);
  const stick = (1 - bPhi) * Math.sqrt(lf);
  let Fx = bFx + stick * load<f64>(c, C_DAMP_X) * dux;
  let Fy = bFy + stick * load<f64>(c, C_DAMP_Y) * duy;
  const F2 = Fx * Fx + Fy * Fy;
  if (F2 > muN * muN) {
    const r = muN / Math.sqrt(F2);
    Fx *= r;
    Fy *= r;
  }
  put(W_FX, w, Fx);
  put(W_FY, w, Fy);
  put(W_VX, w, vx);
  put(W_VY, w, vy);
  put(W_PEAK, w, cxs > 0 ? (2.5 * muN) / cxs : 0.1);
  put(W_SLIP, w, vsx / (avx > 0.5 ? avx : 0.5));
  tFx = Fx;
  tFy = Fy;
}

// The contact force's share on the chassis and the reaction torque on the wheel (tires.ts addWheelToChassis).
function addWheelToChassis(eid: i32, w: i32, c: i32): void {
  const n = get(W_LOAD, w);
  const Fx = tFx, Fy = tFy;
  let Fwx = n * get(W_NX, w) + Fx * fX + Fy * lX,
    Fwy = n * get(W_NY, w) + Fx * fY + Fy * lY,
    Fwz = n * get(W_NZ, w) + Fx * fZ + Fy * lZ;
  const R1 = get(RB_R1, eid), R4 = get(RB_R4, eid), R7 = get(RB_R7, eid);
  const Fa = Fwx * R1 + Fwy * R4 + Fwz * R7;
  put(W_AXIS, w, Fa);
  Fwx -= Fa * R1;
  Fwy -= Fa * R4;
  Fwz -= Fa * R7;
  sFx += Fwx;
  sFy += Fwy;
  sFz += Fwz;
  sTx += rY * Fwz - rZ * Fwy;
  sTy += rZ * Fwx - rX * Fwz;
  sTz += rX * Fwy - rY * Fwx;
  put(W_TORQUE, w, get(W_TORQUE, w) - Fx * load<f64>(c, C_RADIUS));
}

// A wheel off the ground (tires.ts relaxAirborne).
function relaxAirborne(w: i32): void {
  put(W_FX, w, 0);
  put(W_FY, w, 0);
  put(W_VX, w, 0);
  put(W_VY, w, 0);
  put(W_SLIP, w, 0);
  put(W_AXIS, w, 0);
  put(W_DUX, w, -get(W_UX, w) * OVERSLIDE_MAX);
  put(W_DUY, w, -get(W_UY, w) * OVERSLIDE_MAX);
}

function wheel(eid: i32, w: i32): void {
  if (load<i32>(W_GROUNDED + (w << 2)) == 0) {
    relaxAirborne(w);
    return;
  }
  const c = CONST_AT + w * CONST_STRIDE;
  wheelFrame(eid, w, c);
  wheelBrush(w, c);
  addWheelToChassis(eid, w, c);
}

/** The tyre pass of car `eid` with wheels w0..w3 (tires.ts tiresCar). */
function tiresCar(eid: i32, w0: i32, w1: i32, w2: i32, w3: i32): void {
  sFx = 0; sFy = 0; sFz = 0; sTx = 0; sTy = 0; sTz = 0;
  wheel(eid, w0);
  wheel(eid, w1);
  wheel(eid, w2);
  wheel(eid, w3);
  addToBody(eid, sFx, sFy, sFz, sTx, sTy, sTz);
}

// Brake, handbrake and rolling-resistance torque on one wheel (brakes-aero.ts brakeWheels).
function brakeWheel(w: i32, brake: f64, hand: f64, abs: bool, invDt: f64): void {
  const c = CONST_AT + w * CONST_STRIDE;
  const handCap = hand * load<f64>(c, C_HAND_MAX);
  let cap = brake * load<f64>(c, C_BRAKE_MAX) + handCap;
  const n = get(W_LOAD, w);
  if (n > 0) {
    let code = load<i32>(W_SURFACE + (w << 2));
    if (code < 0 || code >= SURF_N) code = 0;
    cap += (load<f64>(c, C_ROLLING) + load<f64>(SURF_AT + (code << SURF_ROW_SHIFT), 32)) * n * load<f64>(c, C_RADIUS);
  }
  if (cap <= 0) return;
  const omega = get(W_OMEGA, w);
  const iOverDt = load<f64>(c, C_INERTIA) * invDt;
  let t = iOverDt * omega + get(W_TORQUE, w);
  if (abs && load<i32>(W_GROUNDED + (w << 2)) != 0) {
    const vx = get(W_VX, w);
    const av = vx > 0 ? vx : -vx;
    if (av > 1) {
      let ks = get(W_PEAK, w);
      ks = ks < 0.05 ? 0.05 : ks > 0.2 ? 0.2 : ks;
      const target = ((1 - ks) * vx) / load<f64>(c, C_RADIUS);
      const tAbs = iOverDt * (omega - target) + get(W_TORQUE, w);
      const limit = (vx > 0 ? tAbs : -tAbs) > 0 ? (vx > 0 ? tAbs : -tAbs) : 0;
      if (cap > limit + handCap) cap = limit + handCap;
    }
  }
  t = t > cap ? cap : t < -cap ? -cap : t;
  put(W_TORQUE, w, get(W_TORQUE, w) - t);
}

// A force at a world point on the body (src/ecs/rigid-body.ts applyForceAtPoint).
function forceAtPoint(eid: i32, fx: f64, fy: f64, fz: f64, px: f64, py: f64, pz: f64): void {
  const rx = px - get(RB_PX, eid), ry = py - get(RB_PY, eid), rz = pz - get(RB_PZ, eid);
  put(RB_FX, eid, get(RB_FX, eid) + fx);
  put(RB_FY, eid, get(RB_FY, eid) + fy);
  put(RB_FZ, eid, get(RB_FZ, eid) + fz);
  put(RB_TX, eid, get(RB_TX, eid) + ry * fz - rz * fy);
  put(RB_TY, eid, get(RB_TY, eid) + rz * fx - rx * fz);
  put(RB_TZ, eid, get(RB_TZ, eid) + rx * fy - ry * fx);
}

// Drag against the velocity and downforce at the axles (brakes-aero.ts applyAero).
function applyAero(eid: i32): void {
  const vx = get(RB_VX, eid), vy = get(RB_VY, eid), vz = get(RB_VZ, eid);
  const v2 = vx * vx + vy * vy + vz * vz;
  if (!(v2 > 0)) return;
  const k = CONST_AT + eid * CONST_STRIDE;
  const v = Math.sqrt(v2);
  const d = load<f64>(k, K_DRAG) * v;
  put(RB_FX, eid, get(RB_FX, eid) - d * vx);
  put(RB_FY, eid, get(RB_FY, eid) - d * vy);
  put(RB_FZ, eid, get(RB_FZ, eid) - d * vz);
  const cla = load<f64>(k, K_DOWNFORCE);
  if (!(cla > 0)) return;
  const down = 0.5 * AIR_DENSITY * cla * v2;
  const ff = load<f64>(k, K_DOWN_FRONT);
  const ux = -get(RB_R1, eid), uy = -get(RB_R4, eid), uz = -get(RB_R7, eid);
  const zf = load<f64>(k, K_CG_FRONT), zr = -load<f64>(k, K_CG_REAR);
  const px = get(RB_PX, eid), py = get(RB_PY, eid), pz = get(RB_PZ, eid);
  const R2 = get(RB_R2, eid), R5 = get(RB_R5, eid), R8 = get(RB_R8, eid);
  forceAtPoint(eid, ux * down * ff, uy * down * ff, uz * down * ff, px + R2 * zf, py + R5 * zf, pz + R8 * zf);
  const fr = 1 - ff;
  forceAtPoint(eid, ux * down * fr, uy * down * fr, uz * down * fr, px + R2 * zr, py + R5 * zr, pz + R8 * zr);
}

// The wheels' travel accelerations and their inertial share on the body (unsprung.ts unsprungCar).
function unsprungCar(eid: i32, w0: i32, w1: i32, w2: i32, w3: i32, gx: f64, gy: f64, gz: f64): void {
  const ax = get(RB_R1, eid), ay = get(RB_R4, eid), az = get(RB_R7, eid);
  const gm = get(RB_MASS, eid) * get(RB_GRAVITY, eid);
  const Fa = (get(RB_FX, eid) - gx * gm) * ax + (get(RB_FY, eid) - gy * gm) * ay + (get(RB_FZ, eid) - gz * gm) * az;
  const f = Fa * load<f64>(CONST_AT + eid * CONST_STRIDE, K_INV_SPRUNG);
  uF = 0;
  uTx = 0;
  uTy = 0;
  uTz = 0;
  travelRate(w0, f);
  travelRate(w1, f);
  travelRate(w2, f);
  travelRate(w3, f);
  addToBody(eid, uF * ax, uF * ay, uF * az, uTx, uTy, uTz);
}

// unsprungCar's sums over the wheels.
let uF: f64 = 0, uTx: f64 = 0, uTy: f64 = 0, uTz: f64 = 0;

function travelRate(w: i32, f: f64): void {
  const c = CONST_AT + w * CONST_STRIDE;
  const inv = load<f64>(c, C_INV_UNSPRUNG);
  put(W_DTRAVEL, w, (get(W_AXIS, w) - get(W_SUSP, w)) * inv - f);
  const share = f / inv;
  uF += share;
  uTx += share * load<f64>(c, C_AXIS_MOMENT);
  uTy += share * load<f64>(c, C_AXIS_MOMENT + 8);
  uTz += share * load<f64>(c, C_AXIS_MOMENT + 16);
}

// Wheel w's centre at its travel into its C_CENTRE slot (suspension-contact.ts suspensionCar: the body frame, then
// the world).
function wheelCentre(eid: i32, w: i32, c: i32): void {
  const s = get(W_TRAVEL, w);
  const bx = load<f64>(c, C_POS), by = load<f64>(c, C_POS + 8) + (s - load<f64>(c, C_STATIC)), bz = load<f64>(c, C_POS + 16);
  store<f64>(c, get(RB_PX, eid) + get(RB_R0, eid) * bx + get(RB_R1, eid) * by + get(RB_R2, eid) * bz, C_CENTRE);
  store<f64>(c, get(RB_PY, eid) + get(RB_R3, eid) * bx + get(RB_R4, eid) * by + get(RB_R5, eid) * bz, C_CENTRE + 8);
  store<f64>(c, get(RB_PZ, eid) + get(RB_R6, eid) * bx + get(RB_R7, eid) * by + get(RB_R8, eid) * bz, C_CENTRE + 16);
}

// The ground at the centre from the wheel's patch (suspension-contact.ts groundFromPatch) into C_GROUND; false
// (nothing written) when there is no patch or the centre is beyond its reach.
function groundFromPatch(c: i32): bool {
  if (load<f64>(c, C_PATCH + 72) != 1) return false;
  const dx = load<f64>(c, C_CENTRE) - load<f64>(c, C_PATCH), dz = load<f64>(c, C_CENTRE + 16) - load<f64>(c, C_PATCH + 8);
  if (dx * dx + dz * dz > PATCH_REACH_M * PATCH_REACH_M) return false;
  const hxx = load<f64>(c, C_PATCH + 40), hxz = load<f64>(c, C_PATCH + 48), hzz = load<f64>(c, C_PATCH + 56);
  const gx0 = load<f64>(c, C_PATCH + 24), gz0 = load<f64>(c, C_PATCH + 32);
  const hx = hxx * dx + hxz * dz, hz = hxz * dx + hzz * dz;
  const gx = gx0 + hx, gz = gz0 + hz;
  store<f64>(c, load<f64>(c, C_PATCH + 16) + dx * (gx0 + 0.5 * hx) + dz * (gz0 + 0.5 * hz), C_GROUND);
  const inv = 1 / Math.sqrt(gx * gx + 1 + gz * gz);
  store<f64>(c, -gx * inv, C_GROUND + 8);
  store<f64>(c, inv, C_GROUND + 16);
  store<f64>(c, -gz * inv, C_GROUND + 24);
  store<i32>(c, load<i32>(c, C_PATCH + 64), C_GROUND + 32);
  return true;
}

// Wheel `bit`'s centre, and its ground where it is given (bit in `given`) or the patch stands in (`taylor`); else
// the bit, for the loader to sample the ground.
function groundWheel(eid: i32, w: i32, bit: i32, given: i32, taylor: i32): i32 {
  const c = CONST_AT + w * CONST_STRIDE;
  wheelCentre(eid, w, c);
  if ((given & bit) != 0 || (taylor != 0 && groundFromPatch(c))) return 0;
  return bit;
}

// The tyre on the ground (suspension-contact.ts tyreContact): radial load, contact point, normal and surface.
function tyreContact(w: i32, c: i32): void {
  const cx = load<f64>(c, C_CENTRE), cy = load<f64>(c, C_CENTRE + 8), cz = load<f64>(c, C_CENTRE + 16);
  const nx = load<f64>(c, C_GROUND + 8), ny = load<f64>(c, C_GROUND + 16), nz = load<f64>(c, C_GROUND + 24);
  const d = (cy - load<f64>(c, C_GROUND)) * ny;
  const delta = load<f64>(c, C_RADIUS) - d;
  let n: f64 = 0;
  if (delta > 0) {
    n = load<f64>(c, C_RADIAL_K) * delta * (1 + delta / 0.1);
    store<i32>(W_GROUNDED + (w << 2), 1);
  } else {
    store<i32>(W_GROUNDED + (w << 2), 0);
  }
  put(W_LOAD, w, n);
  store<i32>(W_SURFACE + (w << 2), load<i32>(c, C_GROUND + 32));
  put(W_NX, w, nx);
  put(W_NY, w, ny);
  put(W_NZ, w, nz);
  put(W_CX, w, cx - nx * d);
  put(W_CY, w, cy - ny * d);
  put(W_CZ, w, cz - nz * d);
}

// Suspension force of wheel w at its travel (suspension-contact.ts suspensionForce, spring-force.ts springForce).
function suspensionForce(w: i32, other: i32, c: i32): f64 {
  const s = get(W_TRAVEL, w), v = get(W_TRATE, w);
  const x = s > 0 ? s : 0;
  let f = load<f64>(c, C_SPRING) * x + load<f64>(c, C_PROGRESSION) * x * x;
  const bs = load<f64>(c, C_BS_AT);
  if (x > bs) f += load<f64>(c, C_BS_RATE) * (x - bs) * (1 + (x - bs) / load<f64>(c, C_BS_GAP));
  let fs = f + load<f64>(c, C_ANTI_ROLL) * (s - get(W_TRAVEL, other)) + (v > 0 ? load<f64>(c, C_BUMP) : load<f64>(c, C_REBOUND)) * v;
  if (s < 0) {
    const stop = -(load<f64>(c, C_DROP_K) * s + load<f64>(c, C_DROP_C) * v);
    if (stop > 0) fs -= stop;
  }
  return fs;
}

// Wheel w's contact and suspension force; its moment arm about the CG into C_AXIS_MOMENT (unsprungCar reads it).
function suspensionWheel(eid: i32, w: i32, other: i32): void {
  const c = CONST_AT + w * CONST_STRIDE;
  tyreContact(w, c);
  const fs = suspensionForce(w, other, c);
  put(W_SUSP, w, fs);
  const R1 = get(RB_R1, eid), R4 = get(RB_R4, eid), R7 = get(RB_R7, eid);
  sFx += fs * R1;
  sFy += fs * R4;
  sFz += fs * R7;
  const rx = load<f64>(c, C_CENTRE) - get(RB_PX, eid), ry = load<f64>(c, C_CENTRE + 8) - get(RB_PY, eid),
    rz = load<f64>(c, C_CENTRE + 16) - get(RB_PZ, eid);
  const ax = ry * R7 - rz * R4, ay = rz * R1 - rx * R7, az = rx * R4 - ry * R1;
  store<f64>(c, ax, C_AXIS_MOMENT);
  store<f64>(c, ay, C_AXIS_MOMENT + 8);
  store<f64>(c, az, C_AXIS_MOMENT + 16);
  sTx += fs * ax;
  sTy += fs * ay;
  sTz += fs * az;
}

// Pass 2 of car `eid` once every wheel's ground is in its slot (suspension-contact.ts suspensionCar, less the
// zeroing of the drive accumulators, which the loader does before the drivetrain pass).
function suspensionCar(eid: i32, w0: i32, w1: i32, w2: i32, w3: i32): void {
  sFx = 0; sFy = 0; sFz = 0; sTx = 0; sTy = 0; sTz = 0;
  suspensionWheel(eid, w0, w1);
  suspensionWheel(eid, w1, w0);
  suspensionWheel(eid, w2, w3);
  suspensionWheel(eid, w3, w2);
  addToBody(eid, sFx, sFy, sFz, sTx, sTy, sTz);
}

/**
 * Passes 2, 4, 5 and 5b of car `eid` with wheels w0..w3, in the order of vehicle/forces.ts: wheel contact and
 * suspension, tyres, brakes, aero, the wheels' travel. `invDt` = 1/dt as brakes-aero.ts computes it, (gx, gy, gz)
 * the world's gravity. The ground under each wheel: its C_GROUND slot where its bit (1 << wheel index) is in
 * `given`, else from its patch where `taylor` (the midpoint stage) and the patch reaches. Where some wheel has
 * neither, nothing is written but the centres, and the call returns those wheels' bits (the loader samples them
 * into C_GROUND and calls again); else 0.
 */
export function carForces(
  eid: i32, w0: i32, w1: i32, w2: i32, w3: i32, invDt: f64, gx: f64, gy: f64, gz: f64, given: i32, taylor: i32,
): i32 {
  const need = groundWheel(eid, w0, 1, given, taylor) | groundWheel(eid, w1, 2, given, taylor) |
    groundWheel(eid, w2, 4, given, taylor) | groundWheel(eid, w3, 8, given, taylor);
  if (need != 0) return need;
  suspensionCar(eid, w0, w1, w2, w3);
  tiresCar(eid, w0, w1, w2, w3);
  const brake = get(CTL_BRAKE, eid), hand = get(CTL_HAND, eid);
  const abs = load<i32>(CAR_ABS + (eid << 2)) == 1;
  brakeWheel(w0, brake, hand, abs, invDt);
  brakeWheel(w1, brake, hand, abs, invDt);
  brakeWheel(w2, brake, hand, abs, invDt);
  brakeWheel(w3, brake, hand, abs, invDt);
  applyAero(eid);
  unsprungCar(eid, w0, w1, w2, w3, gx, gy, gz);
  return 0;
}

// ---- The driveline solve (vehicle-block.ts drivelineAccelerations), per call from the start: the same operations
// on the same numbers as the TypeScript solve, which keeps its rows and factorisations between calls (those depend
// only on the rows, so rebuilding them gives the same bits).

// Per-car driveline constants (in the car entity's slot): 1/I of the DOFs (wheels FL..RR, engine), the open-diff
// split, which diff rows exist (front, rear, centre), each diff's capacity law (locked flag, preload, power and coast
// ramps; front, rear, centre); the accelerations q̈ the solve writes (the loader reads them).
const K_INV_M = 48, K_SPLIT = 88, K_ROWS = 120, K_DIFF = 144;
// The car's rows as last built (the TypeScript solve keeps them too: they depend only on whether the clutch row is
// present, G and e, and the config): valid flag (the loader clears it with the constants), the clutch row's presence,
// G and e they were built for, the clutch row's J and F (5 each), A = J M⁻¹ Fᵀ (4 × 4).
const K_ROWS_VALID = 240, K_ROWS_CLUTCH = 248, K_ROWS_G = 256, K_ROWS_E = 264, K_JC = 272, K_FC = 312, K_A = 352;
// The solve's scratch (doubles from DL_AT): rows J and F (4 × 5) while the rows are built, per row λ, bias, capacity,
// clamped flag, base and eliminated right-hand side, the elimination's matrix U (4 × 4), the active rows' numbers,
// the accelerations q̈ (the loader reads them).
const S_J = 0, S_F = 20, S_LAMBDA = 56, S_BIAS = 60, S_CAP = 64, S_CLAMPED = 68, S_RHS = 72, S_ELIM = 76;
const S_U = 80, S_ROW = 96, S_QDD = 100;
// The coupling rows present this solve (−1 = absent) and their count; the car's A (byte address).
let rClutch: i32 = -1, rFront: i32 = -1, rRear: i32 = -1, rCentre: i32 = -1, nRows: i32 = 0, A_AT: i32 = 0;

@inline function sg(i: i32): f64 {
  return load<f64>(DL_AT + (i << 3));
}
@inline function ss(i: i32, v: f64): void {
  store<f64>(DL_AT + (i << 3), v);
}
// A's entry (k, l).
@inline function aKL(k: i32, l: i32): f64 {
  return load<f64>(A_AT + ((k * 4 + l) << 3));
}
@inline function row(a: i32): i32 {
  return <i32>load<f64>(DL_AT + ((S_ROW + a) << 3));
}

// A diff row k: J = F = (a, b, c, d, 0).
function diffRow(k: i32, a: f64, b: f64, c: f64, d: f64): void {
  const o = S_J + k * 5, p = S_F + k * 5;
  ss(o, a); ss(o + 1, b); ss(o + 2, c); ss(o + 3, d); ss(o + 4, 0);
  ss(p, a); ss(p + 1, b); ss(p + 2, c); ss(p + 3, d); ss(p + 4, 0);
}

// The rows present (vehicle-block.ts numberRows): the clutch row when a gear is engaged with capacity, the diffs'.
function numberRows(kc: i32, hasClutch: i32): void {
  let nc = hasClutch != 0 ? 1 : 0;
  rClutch = hasClutch != 0 ? 0 : -1;
  rFront = load<f64>(kc, K_ROWS) != 0 ? nc++ : -1;
  rRear = load<f64>(kc, K_ROWS + 8) != 0 ? nc++ : -1;
  rCentre = load<f64>(kc, K_ROWS + 16) != 0 ? nc++ : -1;
  nRows = nc;
  A_AT = kc + K_A;
}

// The rows J, F and A = J M⁻¹ Fᵀ (vehicle-block.ts buildRows, assembleA), rebuilt only when the clutch row's
// presence, G or e differ from the car's last build (same values, same bits).
function buildRows(kc: i32, G: f64, e: f64, hasClutch: i32): void {
  if (load<f64>(kc, K_ROWS_VALID) != 0 && <f64>hasClutch == load<f64>(kc, K_ROWS_CLUTCH) && G == load<f64>(kc, K_ROWS_G) &&
    e == load<f64>(kc, K_ROWS_E)) return;
  if (hasClutch != 0) {
    for (let i = 0; i < 4; i++) {
      const c = -G * load<f64>(kc + (i << 3), K_SPLIT);
      ss(S_J + i, c);
      ss(S_F + i, e * c);
    }
    ss(S_J + 4, 1);
    ss(S_F + 4, 1);
    for (let i = 0; i < 5; i++) {
      store<f64>(kc + (i << 3), sg(S_J + i), K_JC);
      store<f64>(kc + (i << 3), sg(S_F + i), K_FC);
    }
  }
  if (rFront >= 0) diffRow(rFront, 1, -1, 0, 0);
  if (rRear >= 0) diffRow(rRear, 0, 0, 1, -1);
  if (rCentre >= 0) diffRow(rCentre, 0.5, 0.5, -0.5, -0.5);
  const m0 = load<f64>(kc, K_INV_M), m1 = load<f64>(kc, K_INV_M + 8), m2 = load<f64>(kc, K_INV_M + 16);
  const m3 = load<f64>(kc, K_INV_M + 24), m4 = load<f64>(kc, K_INV_M + 32);
  const nc = nRows;
  for (let k = 0; k < nc; k++) {
    const o = S_J + k * 5;
    const jm0 = sg(o) * m0, jm1 = sg(o + 1) * m1, jm2 = sg(o + 2) * m2, jm3 = sg(o + 3) * m3, jm4 = sg(o + 4) * m4;
    for (let l = 0; l < nc; l++) {
      const p = S_F + l * 5;
      store<f64>(A_AT + ((k * 4 + l) << 3), jm0 * sg(p) + jm1 * sg(p + 1) + jm2 * sg(p + 2) + jm3 * sg(p + 3) + jm4 * sg(p + 4));
    }
  }
  store<f64>(kc, 1, K_ROWS_VALID);
  store<f64>(kc, <f64>hasClutch, K_ROWS_CLUTCH);
  store<f64>(kc, G, K_ROWS_G);
  store<f64>(kc, e, K_ROWS_E);
}

// A diff's capacity (vehicle-block.ts diffCap) from its slot at `d`.
function diffCap(d: i32, tin: f64): f64 {
  if (load<f64>(d) != 0) return Infinity;
  return load<f64>(d, 8) + (tin >= 0 ? load<f64>(d, 16) : load<f64>(d, 24)) * Math.abs(tin);
}

// Bias −J·q/dt, capacity and clamped flag per row (vehicle-block.ts biasAndCapacities).
function biasAndCapacities(eid: i32, kc: i32, w0: i32, w1: i32, w2: i32, w3: i32, ccap: f64, dt: f64): void {
  const o0 = get(W_OMEGA, w0), o1 = get(W_OMEGA, w1), o2 = get(W_OMEGA, w2), o3 = get(W_OMEGA, w3);
  if (rClutch >= 0) {
    const oe = get(CAR_OMEGA_E, eid);
    ss(S_BIAS, -(load<f64>(kc, K_JC) * o0 + load<f64>(kc, K_JC + 8) * o1 + load<f64>(kc, K_JC + 16) * o2 + load<f64>(kc, K_JC + 24) * o3 +
      load<f64>(kc, K_JC + 32) * oe) / dt);
    ss(S_CLAMPED, 0);
    ss(S_CAP, ccap);
  }
  if (rFront >= 0) {
    ss(S_BIAS + rFront, -(o0 - o1) / dt);
    ss(S_CLAMPED + rFront, 0);
    ss(S_CAP + rFront, diffCap(kc + K_DIFF, get(CAR_DIFF_IN_FRONT, eid)));
  }
  if (rRear >= 0) {
    ss(S_BIAS + rRear, -(o2 - o3) / dt);
    ss(S_CLAMPED + rRear, 0);
    ss(S_CAP + rRear, diffCap(kc + K_DIFF + 32, get(CAR_DIFF_IN_REAR, eid)));
  }
  if (rCentre >= 0) {
    ss(S_BIAS + rCentre, -(0.5 * o0 + 0.5 * o1 - 0.5 * o2 - 0.5 * o3) / dt);
    ss(S_CLAMPED + rCentre, 0);
    ss(S_CAP + rCentre, diffCap(kc + K_DIFF + 64, get(CAR_DIFF_IN_CENTRE, eid)));
  }
}

// The DOFs' torques Q (wheels, engine) and Q·M⁻¹.
let Q0: f64 = 0, Q1: f64 = 0, Q2: f64 = 0, Q3: f64 = 0, Q4: f64 = 0;

// r_k = bias_k − J_k M⁻¹ Q (vehicle-block.ts assembleRhs).
function assembleRhs(kc: i32): void {
  const q0 = Q0 * load<f64>(kc, K_INV_M), q1 = Q1 * load<f64>(kc, K_INV_M + 8);
  const q2 = Q2 * load<f64>(kc, K_INV_M + 16), q3 = Q3 * load<f64>(kc, K_INV_M + 24);
  if (rClutch >= 0) {
    const q4 = Q4 * load<f64>(kc, K_INV_M + 32);
    ss(S_RHS, sg(S_BIAS) - (load<f64>(kc, K_JC) * q0 + load<f64>(kc, K_JC + 8) * q1 + load<f64>(kc, K_JC + 16) * q2 +
      load<f64>(kc, K_JC + 24) * q3 + load<f64>(kc, K_JC + 32) * q4));
  }
  if (rFront >= 0) ss(S_RHS + rFront, sg(S_BIAS + rFront) - (q0 - q1));
  if (rRear >= 0) ss(S_RHS + rRear, sg(S_BIAS + rRear) - (q2 - q3));
  if (rCentre >= 0) ss(S_RHS + rCentre, sg(S_BIAS + rCentre) - (0.5 * q0 + 0.5 * q1 - 0.5 * q2 - 0.5 * q3));
}

// The active rows' numbers into S_ROW and their eliminated right-hand side r_a − A_ac λ_c into S_ELIM; their count.
function activeRows(nc: i32): i32 {
  let na = 0;
  let mask = 0;
  for (let k = 0; k < nc; k++) {
    if (sg(S_CLAMPED + k) == 0) ss(S_ROW + na++, <f64>k);
    else mask |= 1 << k;
  }
  for (let a = 0; a < na; a++) {
    const k = row(a);
    let r = sg(S_RHS + k);
    if (mask != 0) for (let l = 0; l < nc; l++) if (sg(S_CLAMPED + l) != 0) r -= aKL(k, l) * sg(S_LAMBDA + l);
    ss(S_ELIM + a, r);
  }
  return na;
}

// Gaussian elimination with partial pivoting of A_aa and its right-hand side, column by column (vehicle-block.ts
// factorActive, then solveActive's replay: the same operations in the same order), then back substitution.
function eliminate(na: i32): void {
  for (let a = 0; a < na; a++) for (let b = 0; b < na; b++) ss(S_U + a * 4 + b, aKL(row(a), row(b)));
  for (let c = 0; c < na; c++) {
    let piv = c;
    for (let r = c + 1; r < na; r++) if (Math.abs(sg(S_U + r * 4 + c)) > Math.abs(sg(S_U + piv * 4 + c))) piv = r;
    if (piv != c) {
      for (let l = 0; l < na; l++) {
        const t = sg(S_U + c * 4 + l);
        ss(S_U + c * 4 + l, sg(S_U + piv * 4 + l));
        ss(S_U + piv * 4 + l, t);
      }
      const t = sg(S_ELIM + c);
      ss(S_ELIM + c, sg(S_ELIM + piv));
      ss(S_ELIM + piv, t);
    }
    const d = sg(S_U + c * 4 + c);
    for (let r = c + 1; r < na; r++) {
      const m = sg(S_U + r * 4 + c) / d;
      if (m == 0) continue;
      for (let l = c; l < na; l++) ss(S_U + r * 4 + l, sg(S_U + r * 4 + l) - m * sg(S_U + c * 4 + l));
      ss(S_ELIM + r, sg(S_ELIM + r) - m * sg(S_ELIM + c));
    }
  }
  for (let r = na - 1; r >= 0; r--) {
    let v = sg(S_ELIM + r);
    for (let l = r + 1; l < na; l++) v -= sg(S_U + r * 4 + l) * sg(S_LAMBDA + row(l));
    ss(S_LAMBDA + row(r), v / sg(S_U + r * 4 + r));
  }
}

// Active-set iterations (vehicle-block.ts solveClamped, solveActive).
function solveClamped(nc: i32): void {
  for (let iter = 0; iter <= nc && nc > 0; iter++) {
    const na = activeRows(nc);
    if (na == 1) {
      const k = row(0);
      ss(S_LAMBDA + k, sg(S_ELIM) / aKL(k, k));
    } else eliminate(na);
    let clamped = false;
    for (let k = 0; k < nc; k++) {
      if (sg(S_CLAMPED + k) != 0) continue;
      const lam = sg(S_LAMBDA + k), cap = sg(S_CAP + k);
      if (lam > cap || lam < -cap) {
        ss(S_LAMBDA + k, lam > 0 ? cap : -cap);
        ss(S_CLAMPED + k, 1);
        clamped = true;
      }
    }
    if (!clamped) break;
  }
}

// q̈ = M⁻¹(Q + Fᵀλ) into S_QDD and the drive torque reaching each wheel (vehicle-block.ts
// applyRowTorques).
function applyRowTorques(kc: i32, w0: i32, w1: i32, w2: i32, w3: i32): void {
  let q0 = Q0, q1 = Q1, q2 = Q2, q3 = Q3, q4 = Q4;
  let d0 = get(W_DRIVE, w0), d1 = get(W_DRIVE, w1), d2 = get(W_DRIVE, w2), d3 = get(W_DRIVE, w3);
  if (rClutch >= 0) {
    const l = sg(S_LAMBDA);
    const f0 = load<f64>(kc, K_FC), f1 = load<f64>(kc, K_FC + 8), f2 = load<f64>(kc, K_FC + 16), f3 = load<f64>(kc, K_FC + 24);
    const t0 = f0 * l, t1 = f1 * l, t2 = f2 * l, t3 = f3 * l;
    q0 += t0;
    q1 += t1;
    q2 += t2;
    q3 += t3;
    q4 += load<f64>(kc, K_FC + 32) * l;
    if (f0 != 0) d0 += t0;
    if (f1 != 0) d1 += t1;
    if (f2 != 0) d2 += t2;
    if (f3 != 0) d3 += t3;
  }
  if (rFront >= 0) {
    const l = sg(S_LAMBDA + rFront);
    q0 += l; q1 -= l; d0 += l; d1 -= l;
  }
  if (rRear >= 0) {
    const l = sg(S_LAMBDA + rRear);
    q2 += l; q3 -= l; d2 += l; d3 -= l;
  }
  if (rCentre >= 0) {
    const h = 0.5 * sg(S_LAMBDA + rCentre);
    q0 += h; q1 += h; q2 -= h; q3 -= h;
    d0 += h; d1 += h; d2 -= h; d3 -= h;
  }
  ss(S_QDD, q0 * load<f64>(kc, K_INV_M));
  ss(S_QDD + 1, q1 * load<f64>(kc, K_INV_M + 8));
  ss(S_QDD + 2, q2 * load<f64>(kc, K_INV_M + 16));
  ss(S_QDD + 3, q3 * load<f64>(kc, K_INV_M + 24));
  ss(S_QDD + 4, q4 * load<f64>(kc, K_INV_M + 32));
  put(W_DRIVE, w0, d0);
  put(W_DRIVE, w1, d1);
  put(W_DRIVE, w2, d2);
  put(W_DRIVE, w3, d3);
}

// The solve's results the next tick reads (vehicle-block.ts writeSolveResults).
function writeSolveResults(eid: i32): void {
  put(CAR_CLUTCH_TORQUE, eid, rClutch >= 0 ? -sg(S_LAMBDA + rClutch) : 0);
  store<i32>(CAR_CLUTCH_STICKING + (eid << 2), rClutch >= 0 && sg(S_CLAMPED + rClutch) == 0 ? 1 : 0);
  put(CAR_LOCK_FRONT, eid, rFront >= 0 ? sg(S_LAMBDA + rFront) : 0);
  put(CAR_LOCK_REAR, eid, rRear >= 0 ? sg(S_LAMBDA + rRear) : 0);
  put(CAR_LOCK_CENTRE, eid, rCentre >= 0 ? sg(S_LAMBDA + rCentre) : 0);
  store<i32>(
    CAR_DIFF_STICKING + (eid << 2),
    (rFront >= 0 && sg(S_CLAMPED + rFront) == 0 ? 1 : 0) | (rRear >= 0 && sg(S_CLAMPED + rRear) == 0 ? 2 : 0) |
      (rCentre >= 0 && sg(S_CLAMPED + rCentre) == 0 ? 4 : 0),
  );
}

/**
 * Driveline accelerations of car `eid` (wheels w0..w3) into the scratch's S_QDD (wheels FL..RR, engine), as
 * vehicle-block.ts drivelineAccelerations: total ratio G, the clutch row's efficiency factor e and capacity `ccap`
 * (the loader reads them as that function does), whether the clutch row is present, the step dt.
 */
export function driveline(eid: i32, w0: i32, w1: i32, w2: i32, w3: i32, G: f64, e: f64, ccap: f64, hasClutch: i32, dt: f64): void {
  const kc = CONST_AT + eid * CONST_STRIDE;
  Q0 = get(W_TORQUE, w0);
  Q1 = get(W_TORQUE, w1);
  Q2 = get(W_TORQUE, w2);
  Q3 = get(W_TORQUE, w3);
  Q4 = get(CAR_ENGINE_ACC, eid);
  numberRows(kc, hasClutch);
  buildRows(kc, G, e, hasClutch);
  biasAndCapacities(eid, kc, w0, w1, w2, w3, ccap, dt);
  if (nRows > 0) assembleRhs(kc);
  solveClamped(nRows);
  applyRowTorques(kc, w0, w1, w2, w3);
  writeSolveResults(eid);
}
