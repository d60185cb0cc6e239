/**
 * Wu eqs 5-3, 5-4, 5-11: a car–car impact is one impulse at one contact point, +J on one car and −J on the
 * other. The collision response pass must then conserve the pair's linear momentum ΣP and its angular
 * momentum about any fixed point O, L_O = Σ ((r_i − O) × P_i + L_i) (r_i the CG, L_i the body's angular
 * momentum about its CG), to round-off: random oblique impacts (fast-check over angles, speeds, aim offsets,
 * yaw rates, masses, sizes, CG heights and the step dt) are checked around every run of the collision pass.
 * Tolerance 1e-9 relative to Σ(|r_i − O|·|P_i| + |L_i|), the size of the terms summed: the float64 round-off of
 * a few products is ~1e-15 of that; the couple of two impulses applied a relative displacement apart (what the
 * per-car swept contact points gave) is ~|v_rel|·dt·|J|, 1e-4…1e-2 of it.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createSimWorld, type SimWorld } from '../../src/ecs/world';
import { spawnBody } from '../../src/ecs/prefabs';
import { pipeline } from '../../src/run/pipeline';
import { attachCarCollider } from '../../src/systems/sim/collision/car-collider';
import { collisionPass } from '../../src/systems/sim/collision/system';

const REL_TOL = 1e-9;

interface Sums {
  P: [number, number, number];
  L: [number, number, number];
  /** Σ |P_i| and Σ (|r_i − O|·|P_i| + |L_i|): the scales of the sums above. */
  pScale: number;
  lScale: number;
}

const norm = (x: number, y: number, z: number): number => Math.sqrt(x * x + y * y + z * z);

function pairSums(world: SimWorld, eids: readonly number[], O: readonly [number, number, number]): Sums {
  const b = world.c.RigidBody;
  const s: Sums = { P: [0, 0, 0], L: [0, 0, 0], pScale: 0, lScale: 0 };
  for (const e of eids) {
    const rx = b.px[e]! - O[0], ry = b.py[e]! - O[1], rz = b.pz[e]! - O[2];
    const Px = b.Px[e]!, Py = b.Py[e]!, Pz = b.Pz[e]!;
    s.P[0] += Px;
    s.P[1] += Py;
    s.P[2] += Pz;
    s.L[0] += ry * Pz - rz * Py + b.Lx[e]!;
    s.L[1] += rz * Px - rx * Pz + b.Ly[e]!;
    s.L[2] += rx * Py - ry * Px + b.Lz[e]!;
    const pn = norm(Px, Py, Pz);
    s.pScale += pn;
    s.lScale += norm(rx, ry, rz) * pn + norm(b.Lx[e]!, b.Ly[e]!, b.Lz[e]!);
  }
  return s;
}

/** One tick of the real pipeline with the pair's sums checked around the collision pass. */
function tickChecked(world: SimWorld, eids: readonly number[], O: readonly [number, number, number], worst: { p: number; l: number }): void {
  for (const pass of pipeline) {
    if (pass !== collisionPass) {
      pass(world);
      continue;
    }
    const a = pairSums(world, eids, O);
    pass(world);
    const z = pairSums(world, eids, O);
    const dP = norm(z.P[0] - a.P[0], z.P[1] - a.P[1], z.P[2] - a.P[2]) / a.pScale;
    const dL = norm(z.L[0] - a.L[0], z.L[1] - a.L[1], z.L[2] - a.L[2]) / a.lScale;
    worst.p = Math.max(worst.p, dP);
    worst.l = Math.max(worst.l, dL);
  }
  world.tick += 1;
  world.time = world.tick * world.dt;
}

const carArb = fc.record({
  mass: fc.double({ min: 800, max: 2600, noNaN: true }),
  izzScale: fc.double({ min: 0.7, max: 1.4, noNaN: true }),
  front: fc.double({ min: 1.6, max: 2.6, noNaN: true }),
  rear: fc.double({ min: 1.6, max: 2.6, noNaN: true }),
  width: fc.double({ min: 1.5, max: 2.0, noNaN: true }),
  cgHeight: fc.double({ min: 0.35, max: 0.7, noNaN: true }),
  heading: fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
  yawRate: fc.double({ min: -2, max: 2, noNaN: true }),
});

const impactArb = fc.record({
  a: carArb,
  b: carArb,
  /** Direction from A to B (rad), gap between the bounding circles (m). */
  bearing: fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
  gap: fc.double({ min: 0.02, max: 1, noNaN: true }),
  /** Closing speed (m/s), aim point inside B's inscribed circle (fraction of its radius, angle), B's own velocity. */
  closing: fc.double({ min: 3, max: 60, noNaN: true }),
  aimR: fc.double({ min: 0, max: 0.8, noNaN: true }),
  aimAng: fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
  vB: fc.tuple(fc.double({ min: -30, max: 30, noNaN: true }), fc.double({ min: -30, max: 30, noNaN: true })),
  dt: fc.constantFrom(1 / 1000, 1 / 500, 1 / 240, 1 / 120, 1 / 60),
  /** The fixed point O (m), anywhere near or far. */
  O: fc.tuple(fc.double({ min: -80, max: 80, noNaN: true }), fc.double({ min: -5, max: 5, noNaN: true }), fc.double({ min: -80, max: 80, noNaN: true })),
});

type CarArb = typeof carArb extends fc.Arbitrary<infer T> ? T : never;

function spawnCar(world: SimWorld, c: CarArb, x: number, z: number, vx: number, vz: number): number {
  const izz = (c.mass * ((c.front + c.rear) ** 2 + c.width ** 2)) / 12 * c.izzScale;
  const eid = spawnBody(world, {
    mass: c.mass, inertia: [0.9 * izz, izz, 0.35 * izz], position: [x, c.cgHeight, z],
    orientation: [Math.cos(c.heading / 2), 0, Math.sin(c.heading / 2), 0], velocity: [vx, 0, vz],
    angularVelocity: [0, c.yawRate, 0], gravity: false,
  });
  attachCarCollider(world, eid, { cgToFrontM: c.front, cgToRearM: c.rear, widthM: c.width, heightM: 1.4, cgHeightM: c.cgHeight });
  return eid;
}

describe('car–car impulse at one world point (Wu eqs 5-3, 5-4, 5-11)', () => {
  it('property: oblique impacts conserve the pair’s linear and angular momentum about any fixed point (1e-9)', () => {
    let impacts = 0;
    fc.assert(
      fc.property(impactArb, (k) => {
        const world = createSimWorld({ dt: k.dt, gravity: 0 });
        const Ra = Math.hypot(Math.max(k.a.front, k.a.rear), k.a.width / 2);
        const Rb = Math.hypot(Math.max(k.b.front, k.b.rear), k.b.width / 2);
        const d = Ra + Rb + k.gap;
        const bx = d * Math.cos(k.bearing), bz = d * Math.sin(k.bearing);
        // A's CG heads (relative to B) for a point of B's inscribed circle: the paths must meet
        const r = k.aimR * Math.min(k.b.width / 2, k.b.front, k.b.rear);
        const tx = bx + r * Math.cos(k.aimAng), tz = bz + r * Math.sin(k.aimAng);
        const tn = Math.hypot(tx, tz);
        const ea = spawnCar(world, k.a, 0, 0, k.vB[0] + (k.closing * tx) / tn, k.vB[1] + (k.closing * tz) / tn);
        const eb = spawnCar(world, k.b, bx, bz, k.vB[0], k.vB[1]);
        const worst = { p: 0, l: 0 };
        const maxTicks = Math.ceil((d + 1) / k.closing / k.dt) + 10;
        let hits = 0, after = 0;
        for (let i = 0; i < maxTicks && after < 20; i++) {
          tickChecked(world, [ea, eb], k.O, worst);
          hits += world.events.filter((e) => e.kind === 'collision' && e.type === 'car').length;
          world.events.length = 0;
          if (hits > 0) after++;
        }
        expect(hits).toBeGreaterThan(0); // every case is a real impact
        impacts += hits;
        expect(worst.p).toBeLessThan(REL_TOL);
        expect(worst.l).toBeLessThan(REL_TOL);
      }),
      { numRuns: 300, seed: 20261125 },
    );
    expect(impacts).toBeGreaterThanOrEqual(300);
  });

  it('the impulse acts at the reported contact point, the same world point for both cars', () => {
    const world = createSimWorld({ dt: 1 / 60, gravity: 0 });
    const car = { mass: 1300, izzScale: 1, front: 2.1, rear: 2.1, width: 1.8, cgHeight: 0.5, heading: 0, yawRate: 0 };
    // B crosses A's path at 90°, A hits B's side behind its CG: an oblique, eccentric impact at a large dt
    const ea = spawnCar(world, car, 0, 0, 0, 25);
    const eb = spawnCar(world, { ...car, heading: Math.PI / 2 }, 0.8, 5.0, -12, 0);
    const b = world.c.RigidBody;
    const snap = () => [ea, eb].map((e) => ({ Px: b.Px[e]!, Pz: b.Pz[e]!, Ly: b.Ly[e]!, x: b.px[e]!, z: b.pz[e]! }));
    let before = snap();
    let ev: Record<string, unknown> | undefined;
    for (let i = 0; i < 60 && !ev; i++) {
      before = snap();
      for (const pass of pipeline) {
        pass(world);
        ev = world.events.find((e) => e.kind === 'collision');
        if (ev) break; // stop right after the collision pass: the momenta hold exactly its impulses
      }
      world.tick += 1;
    }
    expect(ev).toBeDefined();
    const [X, , Z] = ev!.point as number[];
    // ΔL_y of each body = (X − r) ×_y ΔP with one X: (Z − z)·ΔPx − (X − x)·ΔPz
    for (const [i, e] of [ea, eb].entries()) {
      const p = before[i]!;
      const dPx = b.Px[e]! - p.Px, dPz = b.Pz[e]! - p.Pz;
      expect(Math.hypot(dPx, dPz)).toBeGreaterThan(1000);
      const dLy = (Z! - p.z) * dPx - (X! - p.x) * dPz;
      expect(Math.abs(b.Ly[e]! - p.Ly - dLy)).toBeLessThan(1e-9 * Math.hypot(dPx, dPz) * 5);
    }
  });
});
