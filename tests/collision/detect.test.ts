import { describe, expect, it } from 'vitest';
import { createSimWorld } from '../../src/ecs/world';
import { setAppliedForce, spawnBody } from '../../src/ecs/prefabs';
import { runTick } from '../../src/run/pipeline';
import { applyImpulseAtPoint } from '../../src/ecs/rigid-body';
import { SceneColliders } from '../../src/systems/sim/collision/scene';
import { carCarPoints, newPose, obstacleNormal, obstaclePoints, missesCentralBox } from '../../src/systems/sim/collision/detect';
import { newContactGeom, newPointList, reducePoints } from '../../src/systems/sim/collision/contact-points';
import { attachCarCollider } from '../../src/systems/sim/collision/car-collider';
import { collisionRuntime } from '../../src/systems/sim/collision/runtime';
import { newImpulseResult, solveRestitution, STATIC_BODY } from '../../src/systems/sim/collision/impulse';

const pose = (cx: number, cz: number, yaw = 0) => {
  const p = newPose();
  Object.assign(p, { cx, cz, fx: Math.sin(yaw), fz: Math.cos(yaw), front: 2, rear: 2, hw: 1 });
  return p;
};

describe('outline intersections (Wu Fig 4-4)', () => {
  it('front edge across a wall: two points, midpoint contact, normal ⟂ to the wall', () => {
    const sc = new SceneColliders();
    sc.add({ kind: 'wall', a: [-5, 2], b: [5, 1.8], height_m: 1 });
    const l = newPointList();
    expect(obstaclePoints(sc, 0, pose(0, 0.1), l)).toBe(2); // the two side edges cross it
    const g = newContactGeom();
    reducePoints(l, g);
    const wallDir = [10, -0.2];
    expect(Math.abs(g.nx * wallDir[0]! + g.nz * wallDir[1]!)).toBeLessThan(1e-12);
  });
  it('corner into a box: one point per crossing edge; box face normal in the one-point case', () => {
    const sc = new SceneColliders();
    sc.add({ kind: 'box', center: [3, 3], half_extents: [1, 1], rot_y_rad: 0, height_m: 1 });
    // heading +Z, left = +X: the front-left corner (c + 2f + l) at (2.2, 2.2) pokes 0.2 m into the box's corner
    const l = newPointList();
    const n = obstaclePoints(sc, 0, pose(1.2, 0.2), l);
    expect(n).toBe(2);
    const nrm = { x: 0, z: 0 };
    obstacleNormal(sc, 0, 2, 3, nrm); // on the box's −x face
    expect(nrm.x).toBeCloseTo(-1, 15);
    expect(nrm.z).toBeCloseTo(0, 15);
    obstacleNormal(sc, 0, 3, 2, nrm); // on the −z face
    expect(nrm.x).toBeCloseTo(0, 15);
    expect(nrm.z).toBeCloseTo(-1, 15);
  });
  it('a pole between the side edges is caught by the front edge (two chord points)', () => {
    const sc = new SceneColliders();
    sc.add({ kind: 'cylinder', center: [0.3, 2.05], radius: 0.1, height_m: 2 });
    const l = newPointList();
    expect(obstaclePoints(sc, 0, pose(0, 0), l)).toBe(2);
  });
  it('car–car: Cohen–Sutherland crossing points, two for an offset front-to-front overlap', () => {
    const l = newPointList();
    const a = pose(0, 0), b = pose(0.1, 3.9, Math.PI);
    b.hw = 0.8; // B's sides (x = −0.7, 0.9) cross A's front edge (z = 2)
    expect(carCarPoints(a, b, l)).toBe(2);
    const g = newContactGeom();
    reducePoints(l, g);
    expect(Math.abs(g.nx)).toBeCloseTo(0, 12);
    expect(g.z).toBeCloseTo(2, 12);
    expect(g.x).toBeCloseTo(0.1, 12);
  });
  it('minor collision test (Fig 5-7): a relative velocity line that misses the central box', () => {
    const p = pose(0, 0);
    expect(missesCentralBox(p, 0.3, 2, 0, -1)).toBe(false); // straight back into the car: hits the box (|x| ≤ 0.5)
    expect(missesCentralBox(p, 0.9, 2, 0, -1)).toBe(true); // straight back but outside the box's half width
    expect(missesCentralBox(p, 0.95, 2, 1, -0.05)).toBe(true); // sliding off sideways past the corner
  });
});

describe('Knight eq 37: a constant force over one step gives the same momenta as the impulse', () => {
  it('semi-implicit Euler, one tick', () => {
    const mk = () => {
      const w = createSimWorld({ dt: 1 / 500, gravity: 0, integrator: 'euler' });
      const e = spawnBody(w, { mass: 1400, inertia: [2400, 2600, 550], position: [0, 0.5, 0], velocity: [0, 0, 20], gravity: false });
      return { w, e };
    };
    const A = mk(), B = mk();
    const r = solveRestitution({ invMass: 1 / 1400, invI: 1 / 2600, vx: 0, vz: 20, r: 0 }, 0.7, 2, STATIC_BODY, 0, 0, 0, -1, 0.1, 0.2, newImpulseResult());
    applyImpulseAtPoint(A.w, A.e, r.jx, 0, r.jz, 0.7, 0.5, 2);
    runTick(A.w);
    // B: F = J/Δt at the same body point (the body does not rotate before the force is evaluated)
    setAppliedForce(B.w, B.e, [r.jx * 500, 0, r.jz * 500], [0, 0, 0], [0.7, 0, 2]);
    runTick(B.w);
    const a = A.w.c.RigidBody, b = B.w.c.RigidBody;
    for (const f of ['Px', 'Pz', 'Ly'] as const) expect(b[f][B.e]!).toBeCloseTo(a[f][A.e]!, 8);
  });
});

describe('L-shaped corner', () => {
  it('a car driven diagonally into a corner stays inside both walls', () => {
    const w = createSimWorld({ dt: 1 / 500, gravity: 0 });
    const sc = collisionRuntime(w).scene;
    sc.add({ kind: 'wall', a: [-20, 10], b: [10, 10], height_m: 1 });
    sc.add({ kind: 'wall', a: [10, 10], b: [10, -20], height_m: 1 });
    const yaw = Math.PI / 4;
    const e = spawnBody(w, { mass: 1400, inertia: [2400, 2600, 550], position: [0, 0.5, 0], orientation: [Math.cos(yaw / 2), 0, Math.sin(yaw / 2), 0], velocity: [20 * Math.sin(yaw), 0, 20 * Math.cos(yaw)], gravity: false });
    attachCarCollider(w, e, { cgToFrontM: 2, cgToRearM: 2.2, widthM: 1.8, heightM: 1.4, cgHeightM: 0.5 });
    const b = w.c.RigidBody;
    for (let i = 0; i < 1500; i++) {
      runTick(w);
      // every corner stays on the inner side of both walls (x ≤ 10, z ≤ 10)
      const fx = b.R2[e]!, fz = b.R8[e]!, n = Math.hypot(fx, fz), ux = fx / n, uz = fz / n, lx = uz, lz = -ux;
      for (const [u, v] of [[2, 0.9], [2, -0.9], [-2.2, 0.9], [-2.2, -0.9]] as const) {
        expect(b.px[e]! + u * ux + v * lx).toBeLessThan(10 + 1e-6);
        expect(b.pz[e]! + u * uz + v * lz).toBeLessThan(10 + 1e-6);
      }
    }
    expect(Math.hypot(b.vx[e]!, b.vz[e]!)).toBeLessThan(20);
  });
});
