import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { knightE, knightMu, knightP, wuE, wuMu, angleToSurface, angleToNormal } from '../../src/systems/sim/collision/coefficients';
import { newImpulseResult, solveEnergy, solveRestitution, STATIC_BODY, yawEnergy, type YawBody } from '../../src/systems/sim/collision/impulse';
import { clipSegment, newClip } from '../../src/systems/sim/collision/cohen-sutherland';
import { newContactGeom, newPointList, pushPoint, reducePoints } from '../../src/systems/sim/collision/contact-points';

const body = (m: number, I: number, vx: number, vz: number, r: number): YawBody => ({ invMass: 1 / m, invI: 1 / I, vx, vz, r });
const deg = (d: number): number => (d * Math.PI) / 180;

describe('coefficients (docs/physics.md)', () => {
  it('Knight e, μ, P at grazing and head-on', () => {
    expect(knightE(0)).toBeCloseTo(0.3, 15);
    expect(knightE(Math.PI / 2)).toBeCloseTo(0.05, 15);
    expect(knightMu(0)).toBeCloseTo(0.3, 15);
    expect(knightMu(Math.PI / 2)).toBeCloseTo(0, 15);
    expect(knightP(0)).toBeCloseTo(0.92, 15);
    expect(knightP(Math.PI / 2)).toBeCloseTo(0.04, 15);
  });
  it('Wu e(α) eq 5-39 and the friction ramp', () => {
    expect(wuE(0)).toBeCloseTo(0.05, 15);
    expect(wuE(Math.PI / 2)).toBeCloseTo(0.3, 15);
    expect(wuE(Math.PI / 4)).toBeCloseTo(0.175, 15);
    expect(wuMu(0)).toBe(0);
    expect(wuMu(deg(5))).toBeCloseTo(0.15, 12);
    expect(wuMu(deg(10))).toBeCloseTo(0.3, 12);
    expect(wuMu(deg(40))).toBe(0.3);
  });
  it('angles', () => {
    expect(angleToSurface(1, 0, -1, 0)).toBeCloseTo(Math.PI / 2, 12);
    expect(angleToSurface(Math.cos(deg(30)), Math.sin(deg(30)), 0, -1)).toBeCloseTo(deg(30), 12);
    expect(angleToNormal(Math.cos(deg(30)), Math.sin(deg(30)), -1, 0)).toBeCloseTo(deg(30), 12);
  });
});

describe('Knight restitution method (eqs 15–17)', () => {
  it('head-on at the front centre: J = (1+e)·m·v, v2 = −e·v1', () => {
    const b = body(1500, 2500, 0, 10, 0);
    const r = solveRestitution(b, 0, 2, STATIC_BODY, 0, 0, 0, -1, 0.1, 0, newImpulseResult());
    expect(r.jn).toBeCloseTo(1.1 * 1500 * 10, 9);
    expect(r.jz).toBeCloseTo(-16500, 9);
    expect(r.pAfter).toBeCloseTo(1.0, 12);
  });
  it('offset hit, μ = 0: Impulse = (1+e)|p1| / h with h = 1/m + y²/Izz (eq 15, 17)', () => {
    const m = 1500, I = 2500, e = 0.2;
    const b = body(m, I, 0, 10, 0);
    // contact 0.8 m left of the centreline at the front (ρ = (0.8, 2.0)); wall normal −Z; moment arm y = 0.8 m
    const r = solveRestitution(b, 0.8, 2.0, STATIC_BODY, 0, 0, 0, -1, e, 0, newImpulseResult());
    const h = 1 / m + 0.8 ** 2 / I;
    expect(r.jn).toBeCloseTo(((1 + e) * 10) / h, 8);
    expect(r.pAfter).toBeCloseTo(-e * r.pBefore, 12);
  });
  it('with friction: eq 17 with k = x·y/Izz (x along the wall, y the moment arm)', () => {
    // Car heading +Z, sliding along a wall at x = const to its left with normal −X (pointing back into the car).
    // Contact on the left side, 1.5 m ahead of the CG: ρ = (0.9, 1.5). Velocity (3, 20): approaching at 3 m/s.
    const m = 1400, I = 2200, e = 0.25, mu = 0.3;
    const b = body(m, I, 3, 20, 0);
    const r = solveRestitution(b, 0.9, 1.5, STATIC_BODY, 0, 0, -1, 0, e, mu, newImpulseResult());
    // Knight frame: normal N = −X, tangent along +Z; friction opposes the sliding: impulse (−1, −μ)·jn.
    // Normal velocity change per unit jn: 1/m + (ρ ×_y n)(ρ ×_y (n + μt))/I, ρ ×_y a = ρz·ax − ρx·az.
    const y = 1.5 * -1 - 0.9 * 0; // ρ ×_y n
    const yt = 1.5 * -1 - 0.9 * -mu; // ρ ×_y (n + μt), t = (0, −1)
    const hmk = 1 / m + (y * yt) / I; // h − μk of eq 17 (h = 1/m + y²/I, μk = −y·(ρ×t)·μ/I)
    expect(r.jn).toBeCloseTo(((1 + e) * 3) / hmk, 8);
    expect(r.mu).toBe(mu);
    expect(r.jz).toBeCloseTo(-mu * r.jn, 9);
  });
});

describe('Knight kinetic-energy method (eqs 18–35)', () => {
  it('matches the literal A, B, C of eqs 33–35 in the vehicle frame and keeps P·E1', () => {
    // vehicle frame i = forward (+Z), j = left (+X); Knight's c, d: ρ = c i + d j; a, b: unit force direction.
    const m = 1300, I = 2000, P = 0.75, mu = 0.2;
    const u1 = 18, v1 = -2, r1 = 0.4; // forward, lateral (left) velocity, yaw rate
    const b = body(m, I, v1, u1, r1);
    const rho = { x: -0.7, z: 2.1 }; // front right
    const n = { x: -Math.sin(deg(20)), z: -Math.cos(deg(20)) };
    const res = solveEnergy(b, rho.x, rho.z, n.x, n.z, P, mu, 0.1, newImpulseResult());
    expect(res.method).toBe('energy');
    const dirx = res.jx / Math.hypot(res.jx, res.jz), dirz = res.jz / Math.hypot(res.jx, res.jz);
    const a = dirz, bb = dirx, c = rho.z, d = rho.x;
    const E1 = 0.5 * m * (u1 * u1 + v1 * v1) + 0.5 * I * r1 * r1; // eq 25
    const A = (a * a + bb * bb) / m + (a * a * d * d + bb * bb * c * c - 2 * a * d * bb * c) / I; // eq 33, Δt = 1
    const B = 2 * (a * u1 + bb * v1) + 2 * r1 * (bb * c - a * d); // eq 34
    const C = m * (u1 * u1 + v1 * v1) + I * r1 * r1 - (P * E1) / 0.5; // eq 35
    const F0 = (-B + Math.sqrt(B * B - 4 * A * C)) / (2 * A); // eq 32, larger root
    expect(Math.hypot(res.jx, res.jz)).toBeCloseTo(F0, 6);
    // eqs 27–29 → E2 = P·E1
    const u2 = u1 + (F0 * a) / m, v2 = v1 + (F0 * bb) / m, r2 = r1 + (F0 * (bb * c - a * d)) / I;
    const E2 = 0.5 * m * (u2 * u2 + v2 * v2) + 0.5 * I * r2 * r2;
    expect(E2 / E1).toBeCloseTo(P, 10);
    expect(res.energyAfter / res.energyBefore).toBeCloseTo(P, 10);
  });
  it('falls back to restitution when eq 32 has no real root', () => {
    // grazing approach: the normal impulse cannot remove 96 % of the energy
    const b = body(1500, 2500, -0.5, 30, 0);
    const r = solveEnergy(b, 0.9, 0, 1, 0, 0.04, 0, 0.3, newImpulseResult());
    expect(r.method).toBe('energy-fallback');
    expect(r.pAfter).toBeCloseTo(-0.3 * r.pBefore, 12);
  });
});

describe('Wu car–car (eq 5-38)', () => {
  it('head-to-head: eq 5-41', () => {
    const m1 = 1200, m2 = 1800, e = 0.05;
    // car 1 on the +x side moving −x, car 2 moving +x; CCS x points toward car 1
    const V1 = -15, V2 = 10;
    const b1 = body(m1, 2000, V1, 0, 0), b2 = body(m2, 3000, V2, 0, 0);
    const r = solveRestitution(b1, 0, 0, b2, 0, 0, 1, 0, e, 0, newImpulseResult());
    expect(r.jn).toBeCloseTo(((1 + e) * (V2 - V1)) / (1 / m1 + 1 / m2), 8);
  });

  const arbBody = fc.record({
    m: fc.double({ min: 600, max: 3000, noNaN: true }),
    I: fc.double({ min: 500, max: 6000, noNaN: true }),
    vx: fc.double({ min: -60, max: 60, noNaN: true }),
    vz: fc.double({ min: -60, max: 60, noNaN: true }),
    r: fc.double({ min: -3, max: 3, noNaN: true }),
    rx: fc.double({ min: -2.5, max: 2.5, noNaN: true }),
    rz: fc.double({ min: -2.5, max: 2.5, noNaN: true }),
  });

  it('property: momentum conserved (1e-9 rel), p⁺ = −e·p⁻, energy never increases for e ≥ 0', () => {
    fc.assert(
      fc.property(arbBody, arbBody, fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }), fc.double({ min: -0.5, max: 0.3, noNaN: true }), (A, B, ang, eIn) => {
        const b1 = body(A.m, A.I, A.vx, A.vz, A.r), b2 = body(B.m, B.I, B.vx, B.vz, B.r);
        const nx = Math.cos(ang), nz = Math.sin(ang);
        const relx = A.vx + A.r * A.rz - (B.vx + B.r * B.rz), relz = A.vz - A.r * A.rx - (B.vz - B.r * B.rx);
        const alpha = angleToNormal(relx, relz, nx, nz);
        const e = eIn < 0 ? eIn : wuE(alpha);
        const r = solveRestitution(b1, A.rx, A.rz, b2, B.rx, B.rz, nx, nz, e, wuMu(alpha), newImpulseResult());
        // post-impact states
        const v1x = A.vx + r.jx / A.m, v1z = A.vz + r.jz / A.m, v2x = B.vx - r.jx / B.m, v2z = B.vz - r.jz / B.m;
        const pBefore = Math.hypot(A.m * A.vx + B.m * B.vx, A.m * A.vz + B.m * B.vz);
        const scale = Math.max(pBefore, A.m * Math.hypot(A.vx, A.vz), B.m * Math.hypot(B.vx, B.vz), 1);
        expect(Math.abs(A.m * v1x + B.m * v2x - (A.m * A.vx + B.m * B.vx)) / scale).toBeLessThan(1e-9);
        expect(Math.abs(A.m * v1z + B.m * v2z - (A.m * A.vz + B.m * B.vz)) / scale).toBeLessThan(1e-9);
        if (r.pBefore < 0) {
          // independent evaluation of the post-impact normal relative velocity
          const w1 = A.r + (A.rz * r.jx - A.rx * r.jz) / A.I, w2 = B.r - (B.rz * r.jx - B.rx * r.jz) / B.I;
          const px = v1x + w1 * A.rz - (v2x + w2 * B.rz), pz = v1z - w1 * A.rx - (v2z - w2 * B.rx);
          const pAfter = px * nx + pz * nz;
          expect(Math.abs(pAfter + e * r.pBefore)).toBeLessThan(1e-9 * Math.max(1, Math.abs(r.pBefore)));
          const E0 = yawEnergy(b1) + yawEnergy(b2);
          const E1 = 0.5 * A.m * (v1x ** 2 + v1z ** 2) + 0.5 * A.I * w1 * w1 + 0.5 * B.m * (v2x ** 2 + v2z ** 2) + 0.5 * B.I * w2 * w2;
          if (e >= 0 || e > -1) expect(E1).toBeLessThanOrEqual(E0 * (1 + 1e-12) + 1e-9);
        } else {
          expect(r.jn).toBe(0);
        }
      }),
      { numRuns: 2000, seed: 42 },
    );
  });

  it('property: energy mode keeps exactly P(θ) of the yaw-plane energy (1e-9) or falls back', () => {
    fc.assert(
      fc.property(arbBody, fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }), (A, ang) => {
        const b = body(A.m, A.I, A.vx, A.vz, A.r);
        const nx = Math.cos(ang), nz = Math.sin(ang);
        const theta = angleToSurface(A.vx, A.vz, nx, nz);
        const r = solveEnergy(b, A.rx, A.rz, nx, nz, knightP(theta), knightMu(theta), knightE(theta), newImpulseResult());
        if (r.method === 'energy') {
          expect(Math.abs(r.energyAfter / r.energyBefore - knightP(theta))).toBeLessThan(1e-9);
          expect(r.pAfter).toBeGreaterThan(r.pBefore);
        } else if (r.pBefore < 0) {
          expect(Math.abs(r.pAfter + r.e * r.pBefore)).toBeLessThan(1e-9 * Math.max(1, Math.abs(r.pBefore)));
        }
      }),
      { numRuns: 2000, seed: 7 },
    );
  });
});

describe('Cohen–Sutherland and contact points', () => {
  it('clips a crossing segment to the rectangle boundary', () => {
    const c = newClip();
    expect(clipSegment(-2, 0.5, 2, 0.5, -1, -1, 1, 1, c)).toBe(true);
    expect([c.x0, c.y0, c.x1, c.y1]).toEqual([-1, 0.5, 1, 0.5]);
    expect(c.clipped0 && c.clipped1).toBe(true);
    expect(clipSegment(-2, 2, 2, 2, -1, -1, 1, 1, c)).toBe(false); // both above: trivially rejected
    expect(clipSegment(0, 0, 3, 3, -1, -1, 1, 1, c)).toBe(true);
    expect([c.x1, c.y1, c.clipped0, c.clipped1]).toEqual([1, 1, false, true]);
  });
  it('two points: midpoint and perpendicular normal; four points: two groups (Wu Fig 4-4 case 6)', () => {
    const l = newPointList();
    const g = newContactGeom();
    pushPoint(l, 0, 0);
    pushPoint(l, 2, 0);
    reducePoints(l, g);
    expect([g.x, g.z, Math.abs(g.nx), Math.abs(g.nz)]).toEqual([1, 0, 0, 1]);
    l.n = 0;
    pushPoint(l, 0, 0);
    pushPoint(l, 0.1, 0.2);
    pushPoint(l, 4, 0.1);
    pushPoint(l, 4.1, -0.1);
    reducePoints(l, g);
    expect(g.x).toBeCloseTo((0.05 + 4.05) / 2, 12);
    expect(g.z).toBeCloseTo((0.1 + 0) / 2, 12);
  });
});
