/**
 * Integrable vehicle state (StateBlock, integrated together with the rigid bodies by Euler / midpoint / RK4):
 * per car 25 scalars: engine ω_e, and per wheel ω, spin angle, suspension travel and its rate, tyre
 * deflections ux, uy.
 *
 * Driveline accelerations come from a small constrained solve (the coupled engine + driveline inertia of
 * the tick, Deák §5.3 "the rotation of the engine and the drivetrain become linked"):
 *   q = (ω_FL, ω_FR, ω_RL, ω_RR, ω_e), M = diag(I_w, I_w, I_w, I_w, I_e), Q = accumulated torques.
 *   Active constraints J_k·q̇ = 0 (k ≤ 4): clutch locked (ω_e − G·Σ s_i ω_i = 0), diff locked
 *   (ω_L − ω_R = 0; centre: front-pair mean − rear-pair mean = 0). Constraint torques act through F_k
 *   (= J_k except the clutch row, whose wheel side is scaled by the gearbox efficiency η, or 1/η on the
 *   overrun): q̈ = M⁻¹(Q + Fᵀλ), with (J M⁻¹ Fᵀ) λ = −J M⁻¹ Q solved by Gaussian elimination.
 * The constraints are linear in q̇, so every integrator (all are linear combinations of derivatives)
 * preserves them exactly while the lock state holds; lock changes happen between ticks (drivetrain logic).
 */
import type { SimWorld, StateBlock } from '../../../ecs/world';
import { vehicles, type CarRuntime } from './registry';
import type { DiffConfig } from '../../../content/car-schema';
import { runDrivelineKernel } from './force-kernel';

export const CAR_STATE_SIZE = 25;

// Driveline solve scratch (per car, `CarRuntime.scratch`): named offsets of its blocks, for up to MAX_ROWS
// coupling rows k over the DOFS driveline DOFs q (wheels FL..RR, engine). Plain module constants (not object
// fields) so that the hot loops index with integer literals after inlining.
/** Driveline DOFs (4 wheel spins, engine) and coupling rows at most (clutch, front, rear, centre diff). */
const DOFS = 5;
const MAX_ROWS = 4;
/** Velocity rows J_k (DOFS values each). */
const J_ROWS = 0;
/** Force rows F_k = J_k with the clutch row's wheel side × gearbox efficiency (DOFS values each). */
const F_ROWS = J_ROWS + MAX_ROWS * DOFS;
/** Active rows' right-hand side during the elimination (the matrix is factorised apart, FACTS). */
const ELIM_RHS = F_ROWS + MAX_ROWS * DOFS;
/** Per row: multiplier λ_k (constraint torque, N·m), bias −J_k·q/dt, capacity |λ| ≤ cap, clamped flag, base rhs. */
const LAMBDA = ELIM_RHS + MAX_ROWS;
const BIAS = LAMBDA + MAX_ROWS;
const CAP = BIAS + MAX_ROWS;
const CLAMPED = CAP + MAX_ROWS;
const RHS = CLAMPED + MAX_ROWS;
/** The full matrix A = J M⁻¹ Fᵀ over all rows (MAX_ROWS × MAX_ROWS, row-major). */
const A_FULL = RHS + MAX_ROWS;
/**
 * Factorisations of the active rows' matrix A_aa, one per set of clamped rows (bit mask, 2^MAX_ROWS sets): the
 * elimination's result U (row-major MAX_ROWS × MAX_ROWS), its multipliers (row r, column c), the pivot row of
 * each column and the generation it was made in. A depends only on the rows (rebuilt rarely, `buildRows`), so a
 * solve replays the stored pivots and multipliers on its right-hand side: the same operations on the same
 * numbers as eliminating the whole system, so the same bits, without the O(n³) matrix part.
 */
const FACT_U = 0;
const FACT_MUL = FACT_U + MAX_ROWS * MAX_ROWS;
const FACT_PIV = FACT_MUL + MAX_ROWS * MAX_ROWS;
const FACT_GEN_AT = FACT_PIV + MAX_ROWS;
const FACT_STRIDE = FACT_GEN_AT + 1;
/** The current generation (bumped when the rows are rebuilt: every stored factorisation is then stale). */
const FACT_GEN = A_FULL + MAX_ROWS * MAX_ROWS;
const FACTS = FACT_GEN + 1;
/** Length of one car's driveline scratch (Float64Array). */
export const DRIVELINE_SCRATCH_SIZE = FACTS + (1 << MAX_ROWS) * FACT_STRIDE;
const Qv = new Float64Array(5);
/**
 * The solve's inputs for `buildRows` and `biasAndCapacities`: total ratio G, the clutch row's efficiency factor e,
 * the clutch capacity. In an array, not as double arguments, which a call the JIT did not inline boxes on the heap.
 */
const SOLVE_IN = new Float64Array(3);
const SOLVE_G = 0,
  SOLVE_E = 1,
  SOLVE_CAP = 2;
const rowIndex = new Int32Array(4);
const LOCKED = Number.POSITIVE_INFINITY;

/** A diff row (J = F = the given coefficients on the four wheels, 0 on the engine). */
function diffRow(sc: Float64Array, k: number, a: number, b: number, c: number, d: number): void {
  const o = J_ROWS + k * DOFS,
    p = F_ROWS + k * DOFS;
  sc[o] = a;
  sc[o + 1] = b;
  sc[o + 2] = c;
  sc[o + 3] = d;
  sc[o + 4] = 0;
  sc[p] = a;
  sc[p + 1] = b;
  sc[p + 2] = c;
  sc[p + 3] = d;
  sc[p + 4] = 0;
}

/** The full matrix A = J M⁻¹ Fᵀ over all nc rows (sc[A_FULL + MAX_ROWS·k + l]); the active-set iterations pick sub-matrices. */
function assembleA(sc: Float64Array, nc: number, invM: Float64Array): void {
  const m0 = invM[0]!,
    m1 = invM[1]!,
    m2 = invM[2]!,
    m3 = invM[3]!,
    m4 = invM[4]!;
  for (let k = 0; k < nc; k++) {
    const o = J_ROWS + k * DOFS;
    const jm0 = sc[o]! * m0,
      jm1 = sc[o + 1]! * m1,
      jm2 = sc[o + 2]! * m2,
      jm3 = sc[o + 3]! * m3,
      jm4 = sc[o + 4]! * m4;
    for (let l = 0; l < nc; l++) {
      const p = F_ROWS + l * DOFS;
      sc[A_FULL + k * MAX_ROWS + l] = jm0 * sc[p]! + jm1 * sc[p + 1]! + jm2 * sc[p + 2]! + jm3 * sc[p + 3]! + jm4 * sc[p + 4]!;
    }
  }
}

/** The base right-hand side r_k = bias_k − J_k M⁻¹ Q (sc[RHS + k]), the diff rows on their non-zero coefficients. */
function assembleRhs(sc: Float64Array, Q: Float64Array, invM: Float64Array): void {
  const q0 = Q[0]! * invM[0]!,
    q1 = Q[1]! * invM[1]!,
    q2 = Q[2]! * invM[2]!,
    q3 = Q[3]! * invM[3]!;
  const { clutch, front, rear, centre } = rows;
  if (clutch >= 0) {
    const q4 = Q[4]! * invM[4]!;
    sc[RHS] = sc[BIAS]! - (sc[J_ROWS]! * q0 + sc[J_ROWS + 1]! * q1 + sc[J_ROWS + 2]! * q2 + sc[J_ROWS + 3]! * q3 + sc[J_ROWS + 4]! * q4);
  }
  if (front >= 0) sc[RHS + front] = sc[BIAS + front]! - (q0 - q1);
  if (rear >= 0) sc[RHS + rear] = sc[BIAS + rear]! - (q2 - q3);
  if (centre >= 0) sc[RHS + centre] = sc[BIAS + centre]! - (0.5 * q0 + 0.5 * q1 - 0.5 * q2 - 0.5 * q3);
}

/**
 * Gaussian elimination with partial pivoting of the active rows' matrix A_aa (rows `rowIndex[0..na)`) into the
 * factorisation at `f` (FACT_U, FACT_MUL, FACT_PIV), stamped with the current generation.
 */
function factorActive(sc: Float64Array, na: number, f: number): void {
  const u = f + FACT_U;
  for (let a = 0; a < na; a++) {
    const k = rowIndex[a]!;
    for (let b2 = 0; b2 < na; b2++) sc[u + a * MAX_ROWS + b2] = sc[A_FULL + k * MAX_ROWS + rowIndex[b2]!]!;
  }
  for (let c = 0; c < na; c++) {
    let piv = c;
    for (let r = c + 1; r < na; r++) if (Math.abs(sc[u + r * MAX_ROWS + c]!) > Math.abs(sc[u + piv * MAX_ROWS + c]!)) piv = r;
    sc[f + FACT_PIV + c] = piv;
    if (piv !== c) {
      for (let l = 0; l < na; l++) {
        const t = sc[u + c * MAX_ROWS + l]!;
        sc[u + c * MAX_ROWS + l] = sc[u + piv * MAX_ROWS + l]!;
        sc[u + piv * MAX_ROWS + l] = t;
      }
    }
    const d = sc[u + c * MAX_ROWS + c]!;
    for (let r = c + 1; r < na; r++) {
      const m = sc[u + r * MAX_ROWS + c]! / d;
      sc[f + FACT_MUL + r * MAX_ROWS + c] = m;
      if (m === 0) continue;
      for (let l = c; l < na; l++) sc[u + r * MAX_ROWS + l] = sc[u + r * MAX_ROWS + l]! - m * sc[u + c * MAX_ROWS + l]!;
    }
  }
  sc[f + FACT_GEN_AT] = sc[FACT_GEN]!;
}

/**
 * Solve the active (unclamped) rows: A_aa λ_a = r_a − A_ac λ_c (clamped rows c carry ±capacity), Gaussian
 * elimination with partial pivoting (n ≤ 4), the matrix part taken from the set's stored factorisation
 * (`factorActive`, made on the set's first solve since the rows were built).
 */
function solveActive(sc: Float64Array, nc: number): void {
  let na = 0;
  let mask = 0;
  for (let k = 0; k < nc; k++) {
    if (!sc[CLAMPED + k]) rowIndex[na++] = k;
    else mask |= 1 << k;
  }
  if (mask === 0) for (let a = 0; a < na; a++) sc[ELIM_RHS + a] = sc[RHS + a]!;
  else {
    for (let a = 0; a < na; a++) {
      const k = rowIndex[a]!;
      let r = sc[RHS + k]!;
      for (let l = 0; l < nc; l++) if (sc[CLAMPED + l]) r -= sc[A_FULL + k * MAX_ROWS + l]! * sc[LAMBDA + l]!;
      sc[ELIM_RHS + a] = r;
    }
  }
  if (na === 1) {
    const k = rowIndex[0]!;
    sc[LAMBDA + k] = sc[ELIM_RHS]! / sc[A_FULL + k * MAX_ROWS + k]!;
    return;
  }
  const f = FACTS + mask * FACT_STRIDE;
  if (sc[f + FACT_GEN_AT] !== sc[FACT_GEN]) factorActive(sc, na, f);
  // The elimination's operations on the right-hand side, in its order: row swap, then r_r −= m_rc·r_c.
  for (let c = 0; c < na; c++) {
    const piv = sc[f + FACT_PIV + c]!;
    if (piv !== c) {
      const t = sc[ELIM_RHS + c]!;
      sc[ELIM_RHS + c] = sc[ELIM_RHS + piv]!;
      sc[ELIM_RHS + piv] = t;
    }
    for (let r = c + 1; r < na; r++) {
      const m = sc[f + FACT_MUL + r * MAX_ROWS + c]!;
      if (m === 0) continue;
      sc[ELIM_RHS + r] = sc[ELIM_RHS + r]! - m * sc[ELIM_RHS + c]!;
    }
  }
  const u = f + FACT_U;
  for (let r = na - 1; r >= 0; r--) {
    let v = sc[ELIM_RHS + r]!;
    for (let l = r + 1; l < na; l++) v -= sc[u + r * MAX_ROWS + l]! * sc[LAMBDA + rowIndex[l]!]!;
    sc[LAMBDA + rowIndex[r]!] = v / sc[u + r * MAX_ROWS + r]!;
  }
}

/** Row numbers of the coupling rows present this solve (−1 = absent), and their count. */
const rows = { clutch: -1, front: -1, rear: -1, centre: -1, n: 0 };

/** Numbers the rows present: the clutch row when a gear is engaged with clutch capacity, then the diffs' rows. */
function numberRows(rt: CarRuntime, hasClutch: boolean): void {
  const kc = rt.cache;
  let nc = hasClutch ? 1 : 0;
  rows.clutch = hasClutch ? 0 : -1;
  rows.front = kc.frontRow ? nc++ : -1;
  rows.rear = kc.rearRow ? nc++ : -1;
  rows.centre = kc.centreRow ? nc++ : -1;
  rows.n = nc;
}

/**
 * The rows J, F and A = J M⁻¹ Fᵀ depend only on the gear ratio, the clutch row's presence and its efficiency
 * direction (and the config): between stages of a tick they rarely change, so they are rebuilt only when one
 * of those differs from the last solve (same values ⇒ same bits).
 */
function buildRows(rt: CarRuntime, hasClutch: boolean): void {
  const G = SOLVE_IN[SOLVE_G]!,
    e = SOLVE_IN[SOLVE_E]!;
  const kc = rt.cache;
  if (kc.dlValid && hasClutch === kc.dlClutch && G === kc.dlG && e === kc.dlE) return;
  const sc = rt.scratch;
  if (hasClutch) {
    const s = rt.split;
    const c0 = -G * s[0],
      c1 = -G * s[1],
      c2 = -G * s[2],
      c3 = -G * s[3];
    sc[J_ROWS + 0] = c0;
    sc[J_ROWS + 1] = c1;
    sc[J_ROWS + 2] = c2;
    sc[J_ROWS + 3] = c3;
    sc[J_ROWS + 4] = 1;
    sc[F_ROWS + 0] = e * c0;
    sc[F_ROWS + 1] = e * c1;
    sc[F_ROWS + 2] = e * c2;
    sc[F_ROWS + 3] = e * c3;
    sc[F_ROWS + 4] = 1;
  }
  if (rows.front >= 0) diffRow(sc, rows.front, 1, -1, 0, 0);
  if (rows.rear >= 0) diffRow(sc, rows.rear, 0, 0, 1, -1);
  if (rows.centre >= 0) diffRow(sc, rows.centre, 0.5, 0.5, -0.5, -0.5);
  if (rows.n > 0) assembleA(sc, rows.n, kc.invM);
  sc[FACT_GEN] = sc[FACT_GEN]! + 1; // every stored factorisation of the old A is stale
  kc.dlValid = true;
  kc.dlClutch = hasClutch;
  kc.dlG = G;
  kc.dlE = e;
}

/**
 * Per solve: bias −J·q/dt (each row asks for zero slip at the end of the step), capacity, clamped flag. The diff
 * rows' dot products are written out on their non-zero coefficients (±1, ±½: the same sums as the full row's, whose
 * other terms are exact zeros).
 */
function biasAndCapacities(world: SimWorld, rt: CarRuntime): void {
  const ccap = SOLVE_IN[SOLVE_CAP]!;
  const C = world.c.Car;
  const Wh = world.c.Wheel;
  const eid = rt.eid;
  const sc = rt.scratch;
  const kc = rt.cache;
  const w = rt.wheels;
  const dt = world.dt;
  const o0 = Wh.omega[w[0]]!,
    o1 = Wh.omega[w[1]]!,
    o2 = Wh.omega[w[2]]!,
    o3 = Wh.omega[w[3]]!;
  const { clutch, front, rear, centre } = rows;
  if (clutch >= 0) {
    const oe = C.omegaE[eid]!;
    sc[BIAS] = -(sc[J_ROWS]! * o0 + sc[J_ROWS + 1]! * o1 + sc[J_ROWS + 2]! * o2 + sc[J_ROWS + 3]! * o3 + sc[J_ROWS + 4]! * oe) / dt;
    sc[CLAMPED] = 0;
    sc[CAP] = ccap;
  }
  if (front >= 0) {
    sc[BIAS + front] = -(o0 - o1) / dt;
    sc[CLAMPED + front] = 0;
    sc[CAP + front] = diffCap(kc.frontDiff, C.diffInFront[eid]!);
  }
  if (rear >= 0) {
    sc[BIAS + rear] = -(o2 - o3) / dt;
    sc[CLAMPED + rear] = 0;
    sc[CAP + rear] = diffCap(kc.rearDiff, C.diffInRear[eid]!);
  }
  if (centre >= 0) {
    sc[BIAS + centre] = -(0.5 * o0 + 0.5 * o1 - 0.5 * o2 - 0.5 * o3) / dt;
    sc[CLAMPED + centre] = 0;
    sc[CAP + centre] = diffCap(kc.centreDiff, C.diffInCentre[eid]!);
  }
}

/** Active-set iterations: solve the unclamped rows, clamp any |λ| over its capacity, solve again (≤ nc + 1 times). */
function solveClamped(sc: Float64Array, nc: number): void {
  for (let iter = 0; iter <= nc && nc > 0; iter++) {
    solveActive(sc, nc);
    let clamped = false;
    for (let k = 0; k < nc; k++) {
      if (sc[CLAMPED + k]) continue;
      const lam = sc[LAMBDA + k]!,
        cap = sc[CAP + k]!;
      if (lam > cap || lam < -cap) {
        sc[LAMBDA + k] = lam > 0 ? cap : -cap;
        sc[CLAMPED + k] = 1;
        clamped = true;
      }
    }
    if (!clamped) break;
  }
}

/**
 * The solve's results the next tick reads (Car state): the clutch carries −λ to the gearbox (+ = driving the
 * car), the locked rows' torques; `sticking` = not clamped.
 */
function writeSolveResults(world: SimWorld, rt: CarRuntime): void {
  const C = world.c.Car;
  const eid = rt.eid;
  const sc = rt.scratch;
  const { clutch, front, rear, centre } = rows;
  C.clutchTorque[eid] = clutch >= 0 ? -sc[LAMBDA + clutch]! : 0;
  C.clutchSticking[eid] = clutch >= 0 && !sc[CLAMPED + clutch] ? 1 : 0;
  C.lockTorqueFront[eid] = front >= 0 ? sc[LAMBDA + front]! : 0;
  C.lockTorqueRear[eid] = rear >= 0 ? sc[LAMBDA + rear]! : 0;
  C.lockTorqueCentre[eid] = centre >= 0 ? sc[LAMBDA + centre]! : 0;
  C.diffSticking[eid] =
    (front >= 0 && !sc[CLAMPED + front] ? 1 : 0) | (rear >= 0 && !sc[CLAMPED + rear] ? 2 : 0) | (centre >= 0 && !sc[CLAMPED + centre] ? 4 : 0);
}

/**
 * Driveline accelerations for one car into out[0..4] (wheels FL..RR, engine).
 * Coupling rows (clutch, clutch-pack / locked diffs) are Coulomb constraints: each tries to remove its slip
 * within the step (J q̈ = −slip/dt, zero when already locked) with |λ| ≤ capacity; a row whose λ exceeds
 * its capacity is clamped to ±capacity (it slips) and the remaining rows are solved again.
 */
export function drivelineAccelerations(world: SimWorld, rt: CarRuntime, out: Float64Array): void {
  const C = world.c.Car;
  const Wh = world.c.Wheel;
  const eid = rt.eid;
  const kc = rt.cache;
  const G = kc.gearRatio[C.gear[eid]! + 1] ?? NaN; // totalRatio(cfg, gear), engine-curve.ts
  const ccap = C.clutchCapacity[eid]!;
  const hasClutch = G !== 0 && ccap > 0;
  let e = 0;
  if (hasClutch) {
    const eta = kc.gearEff[C.autoGear[eid] ? 1 : 0]!; // the gearbox efficiency, manual or automatic
    e = C.clutchTorque[eid]! >= 0 ? eta : 1 / eta;
  }
  if (runDrivelineKernel(world, rt, G, e, ccap, hasClutch, out)) return; // WebAssembly, the same bits
  const sc = rt.scratch;
  const invM = kc.invM; // 1/I_w front ×2, rear ×2, 1/I_e (per config)
  const w = rt.wheels;
  const Q = Qv;
  Q[0] = Wh.torque[w[0]]!;
  Q[1] = Wh.torque[w[1]]!;
  Q[2] = Wh.torque[w[2]]!;
  Q[3] = Wh.torque[w[3]]!;
  Q[4] = C.engineAcc[eid]!;
  numberRows(rt, hasClutch);
  SOLVE_IN[SOLVE_G] = G;
  SOLVE_IN[SOLVE_E] = e;
  SOLVE_IN[SOLVE_CAP] = ccap;
  buildRows(rt, hasClutch);
  biasAndCapacities(world, rt);
  const nc = rows.n;
  if (nc > 0) assembleRhs(sc, Q, invM);
  solveClamped(sc, nc);
  applyRowTorques(world, rt, out);
  writeSolveResults(world, rt);
}

/**
 * q̈ = M⁻¹(Q + Fᵀλ) over all rows (clamped rows carry ±capacity) into out[0..4], and the drive torque reaching
 * each wheel through the rows (Wheel.driveTorque, for telemetry and the power checks). Per DOF the rows are
 * added in row order (clutch, front, rear, centre), the diff rows on their non-zero coefficients (±1, ±½): the
 * same sums as over the full rows, whose other terms are exact zeros.
 */
function applyRowTorques(world: SimWorld, rt: CarRuntime, out: Float64Array): void {
  const Wh = world.c.Wheel;
  const w = rt.wheels;
  const sc = rt.scratch;
  const invM = rt.cache.invM;
  let q0 = Qv[0]!,
    q1 = Qv[1]!,
    q2 = Qv[2]!,
    q3 = Qv[3]!,
    q4 = Qv[4]!;
  let d0 = Wh.driveTorque[w[0]]!,
    d1 = Wh.driveTorque[w[1]]!,
    d2 = Wh.driveTorque[w[2]]!,
    d3 = Wh.driveTorque[w[3]]!;
  const { clutch, front, rear, centre } = rows;
  if (clutch >= 0) {
    const l = sc[LAMBDA]!;
    const t0 = sc[F_ROWS]! * l,
      t1 = sc[F_ROWS + 1]! * l,
      t2 = sc[F_ROWS + 2]! * l,
      t3 = sc[F_ROWS + 3]! * l;
    q0 += t0;
    q1 += t1;
    q2 += t2;
    q3 += t3;
    q4 += sc[F_ROWS + 4]! * l;
    // A wheel outside the drive (split 0) gets no drive torque, not a signed zero.
    if (sc[F_ROWS]! !== 0) d0 += t0;
    if (sc[F_ROWS + 1]! !== 0) d1 += t1;
    if (sc[F_ROWS + 2]! !== 0) d2 += t2;
    if (sc[F_ROWS + 3]! !== 0) d3 += t3;
  }
  if (front >= 0) {
    const l = sc[LAMBDA + front]!;
    q0 += l;
    q1 -= l;
    d0 += l;
    d1 -= l;
  }
  if (rear >= 0) {
    const l = sc[LAMBDA + rear]!;
    q2 += l;
    q3 -= l;
    d2 += l;
    d3 -= l;
  }
  if (centre >= 0) {
    const h = 0.5 * sc[LAMBDA + centre]!;
    q0 += h;
    q1 += h;
    q2 -= h;
    q3 -= h;
    d0 += h;
    d1 += h;
    d2 -= h;
    d3 -= h;
  }
  out[0] = q0 * invM[0]!;
  out[1] = q1 * invM[1]!;
  out[2] = q2 * invM[2]!;
  out[3] = q3 * invM[3]!;
  out[4] = q4 * invM[4]!;
  Wh.driveTorque[w[0]] = d0;
  Wh.driveTorque[w[1]] = d1;
  Wh.driveTorque[w[2]] = d2;
  Wh.driveTorque[w[3]] = d3;
}

// Coupling row k (written inline above, no call: a call with double arguments boxes them on the heap):
// velocity row J (sc[J_ROWS + DOFS·k ..]), force row F = J with the wheel side × e (sc[F_ROWS + DOFS·k ..]),
// bias −J·q/dt (sc[BIAS + k]), capacity (sc[CAP + k]), clamped flag (sc[CLAMPED + k]).

function diffCap(d: DiffConfig, tin: number): number {
  if (d.kind === 'locked') return LOCKED;
  return d.preloadNm + (tin >= 0 ? d.powerRamp : d.coastRamp) * Math.abs(tin);
}

const qdd = new Float64Array(5);

/**
 * One car's `derivative` (the driveline solve, then the state's rates) and then its `stage` at y0 + h·derivative,
 * each rate read before the state it moves is written: the same numbers as the two passes.
 */
function stageCarFromDerivative(world: SimWorld, rt: CarRuntime, y0: Float64Array, h: number, o: number, last: boolean): void {
  const C = world.c.Car;
  const W = world.c.Wheel;
  drivelineAccelerations(world, rt, qdd);
  C.omegaE[rt.eid] = y0[o]! + h * qdd[4]!;
  o++;
  for (let i = 0; i < 4; i++) {
    const w = rt.wheels[i]!;
    const omega = W.omega[w]!,
      rate = W.travelRate[w]!;
    W.omega[w] = y0[o]! + h * qdd[i]!;
    const a = y0[o + 1]! + h * omega;
    W.travel[w] = y0[o + 2]! + h * rate;
    W.travelRate[w] = y0[o + 3]! + h * W.dTravelRate[w]!;
    W.ux[w] = y0[o + 4]! + h * W.dux[w]!;
    W.uy[w] = y0[o + 5]! + h * W.duy[w]!;
    o += 6;
    W.angle[w] = last && (a > 1000 || a < -1000) ? a % (2 * Math.PI) : a;
  }
}

export const vehicleBlock: StateBlock = {
  name: 'vehicle',
  size(world) {
    return vehicles(world).list.length * CAR_STATE_SIZE;
  },
  gather(world, y, o) {
    const C = world.c.Car;
    const W = world.c.Wheel;
    for (const rt of vehicles(world).list) {
      y[o++] = C.omegaE[rt.eid]!;
      for (let i = 0; i < 4; i++) {
        const w = rt.wheels[i]!;
        y[o++] = W.omega[w]!;
        y[o++] = W.angle[w]!;
        y[o++] = W.travel[w]!;
        y[o++] = W.travelRate[w]!;
        y[o++] = W.ux[w]!;
        y[o++] = W.uy[w]!;
      }
    }
  },
  scatter(world, y, o) {
    const C = world.c.Car;
    const W = world.c.Wheel;
    for (const rt of vehicles(world).list) {
      C.omegaE[rt.eid] = y[o++]!;
      for (let i = 0; i < 4; i++) {
        const w = rt.wheels[i]!;
        W.omega[w] = y[o++]!;
        W.angle[w] = y[o++]!;
        W.travel[w] = y[o++]!;
        W.travelRate[w] = y[o++]!;
        W.ux[w] = y[o++]!;
        W.uy[w] = y[o++]!;
      }
    }
  },
  stage(world, y0, k, h, o, last) {
    // = y[i] = y0[i] + h·k[i], scatter (then normalize when last): same expressions, same bits.
    const C = world.c.Car;
    const W = world.c.Wheel;
    const list = vehicles(world).list;
    for (let c = 0; c < list.length; c++) {
      const rt = list[c]!;
      C.omegaE[rt.eid] = y0[o]! + h * k[o]!;
      o++;
      for (let i = 0; i < 4; i++) {
        const w = rt.wheels[i]!;
        W.omega[w] = y0[o]! + h * k[o]!;
        const a = y0[o + 1]! + h * k[o + 1]!;
        W.travel[w] = y0[o + 2]! + h * k[o + 2]!;
        W.travelRate[w] = y0[o + 3]! + h * k[o + 3]!;
        W.ux[w] = y0[o + 4]! + h * k[o + 4]!;
        W.uy[w] = y0[o + 5]! + h * k[o + 5]!;
        o += 6;
        W.angle[w] = last && (a > 1000 || a < -1000) ? a % (2 * Math.PI) : a;
      }
    }
  },
  scatterNormalized(world, y, o) {
    vehicleBlock.scatter(world, y, o);
    vehicleBlock.normalize!(world);
  },
  derivativeStage(world, y0, h, o, last) {
    const list = vehicles(world).list;
    for (let c = 0; c < list.length; c++) stageCarFromDerivative(world, list[c]!, y0, h, o + c * CAR_STATE_SIZE, last);
  },
  derivative(world, dy, o) {
    const W = world.c.Wheel;
    for (const rt of vehicles(world).list) {
      drivelineAccelerations(world, rt, qdd);
      dy[o++] = qdd[4]!;
      for (let i = 0; i < 4; i++) {
        const w = rt.wheels[i]!;
        dy[o++] = qdd[i]!;
        dy[o++] = W.omega[w]!;
        dy[o++] = W.travelRate[w]!;
        dy[o++] = W.dTravelRate[w]!;
        dy[o++] = W.dux[w]!;
        dy[o++] = W.duy[w]!;
      }
    }
  },
  stepEuler(world, dt) {
    // Semi-implicit: spins first, then the angle and the longitudinal bristle with the new spin.
    const C = world.c.Car;
    const W = world.c.Wheel;
    for (const rt of vehicles(world).list) {
      drivelineAccelerations(world, rt, qdd);
      C.omegaE[rt.eid] = C.omegaE[rt.eid]! + qdd[4]! * dt;
      for (let i = 0; i < 4; i++) {
        const w = rt.wheels[i]!;
        const R = rt.cache.tire[i]!.radius;
        const dOmega = qdd[i]! * dt;
        const om = W.omega[w]! + dOmega;
        W.omega[w] = om;
        W.angle[w] = W.angle[w]! + om * dt;
        const rate = W.travelRate[w]! + W.dTravelRate[w]! * dt;
        W.travelRate[w] = rate;
        W.travel[w] = W.travel[w]! + rate * dt;
        W.ux[w] = W.ux[w]! + (W.dux[w]! + (W.grounded[w] ? R * dOmega : 0)) * dt;
        W.uy[w] = W.uy[w]! + W.duy[w]! * dt;
      }
    }
  },
  normalize(world) {
    // Keep spin angles bounded (render only). Travel is not clamped: the droop stop is a stiff spring.
    const W = world.c.Wheel;
    for (const rt of vehicles(world).list) {
      for (let i = 0; i < 4; i++) {
        const w = rt.wheels[i]!;
        const a = W.angle[w]!;
        if (a > 1000 || a < -1000) W.angle[w] = a % (2 * Math.PI);
      }
    }
  },
};
