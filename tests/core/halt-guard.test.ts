/**
 * The simulation's last line of defence (src/systems/sim/halt-guard.ts): a car whose state goes non-finite or
 * runs away is stopped alone, with a `car-halted` event naming it, the tick and the fault; the other cars run
 * on exactly as if nothing had happened; the stop is state (hash, keyframes) and a recovery lifts it.
 */
import { describe, expect, it } from 'vitest';
import { createSimWorld, type SimEvent, type SimWorld } from '../../src/ecs/world';
import { spawnCar } from '../../src/systems/sim/vehicle/prefab-car';
import { runTick } from '../../src/run/pipeline';
import { HeldInput, quantizeInput, setInputSource } from '../../src/ecs/controls';
import { loadBuiltinCar } from '../../src/content/cars/index';
import { FlatGround, SlopeGround, type Ground } from '../../src/ecs/ground';
import { stateHash } from '../../src/ecs/hash';
import { saveSnapshot, type WorldSnapshot } from '../../src/ecs/snapshot';
import { restoreSnapshot } from '../../src/run/snapshot';
import { vehicles } from '../../src/systems/sim/vehicle/registry';
import { placeCarAtRest } from '../../src/systems/sim/vehicle/recovery';
import { HALT_BELOW_TERRAIN, HALT_MAX_SPEED, haltCheckpointPass, haltGuardPass } from '../../src/systems/sim/halt-guard';
import { StageGround } from '../../src/systems/sim/vehicle/stage-ground';
import { BSplineGrid, BSplineSurface, DetailLayer, Heightfield, createRng } from '../../terrain';
import { componentSpecs } from '../../src/ecs/components';

const hatch = loadBuiltinCar('hatch-gti');
const rally = loadBuiltinCar('rally-awd');

interface Two {
  world: SimWorld;
  a: number;
  b: number;
}

/** Two cars 8 m apart, both at full throttle, steering gently. */
function two(ground: Ground = new FlatGround(0)): Two {
  const world = createSimWorld({ ground });
  const a = spawnCar(world, hatch, { x: 0, z: 0, heading: 0, speed: 15 });
  const b = spawnCar(world, rally, { x: 8, z: 0, heading: 0, speed: 15 });
  for (const [eid, steer] of [[a, 0.1], [b, -0.1]] as const) {
    const input = new HeldInput();
    input.input = quantizeInput({ steer, throttle: 1, brake: 0, clutch: 0, handbrake: 0 });
    setInputSource(world, eid, input);
  }
  return { world, a, b };
}

const ticks = (w: SimWorld, n: number): void => {
  for (let i = 0; i < n; i++) runTick(w);
};

const halts = (w: SimWorld): SimEvent[] => w.events.filter((e) => e.kind === 'car-halted');

/** Every state value of the car and its wheels. */
function carState(w: SimWorld, eid: number): number[] {
  const out: number[] = [];
  const rt = vehicles(w).byEid.get(eid)!;
  const stores = w.c as unknown as Record<string, Record<string, ArrayLike<number>>>;
  for (const name of ['RigidBody', 'Car'] as const) for (const f of componentSpecs[name].state) out.push(stores[name]![f]![eid]!);
  for (const wh of rt.wheels) for (const f of componentSpecs.Wheel.state) out.push(stores.Wheel![f]![wh]!);
  return out;
}

function expectStopped(w: SimWorld, eid: number): void {
  const b = w.c.RigidBody;
  for (const v of carState(w, eid)) expect(Number.isFinite(v)).toBe(true);
  for (const f of [b.Px, b.Py, b.Pz, b.Lx, b.Ly, b.Lz, b.vx, b.vy, b.vz, b.wx, b.wy, b.wz]) expect(f[eid]).toBe(0);
  expect(vehicles(w).cars).not.toContain(eid);
  // frozen: nothing moves it afterwards
  const pose = [b.px[eid], b.py[eid], b.pz[eid], b.qw[eid], b.qx[eid], b.qy[eid], b.qz[eid]];
  ticks(w, 100);
  expect([b.px[eid], b.py[eid], b.pz[eid], b.qw[eid], b.qx[eid], b.qy[eid], b.qz[eid]]).toEqual(pose);
}

describe('last line of defence: a non-finite or runaway car is stopped alone', () => {
  it('NaN injected into one of two cars: that car stops with an event naming it and the tick; the other runs on unchanged', () => {
    const ref = two();
    const run = two();
    ticks(ref.world, 100);
    ticks(run.world, 100);
    const B = run.world.c.RigidBody;
    B.Px[run.a] = NaN; // e.g. a bad value written by a buggy setter between ticks
    const tick = run.world.tick;
    const start = [B.px[run.a], B.py[run.a], B.pz[run.a], B.qw[run.a], B.qx[run.a], B.qy[run.a], B.qz[run.a]];
    ticks(ref.world, 1);
    ticks(run.world, 1);
    const ev = halts(run.world);
    expect(ev).toHaveLength(1);
    expect(ev[0]).toMatchObject({ car: run.a, car_id: 'hatch-gti', reason: 'non-finite', tick });
    expect(ev[0]!.message).toMatch(new RegExp(`car ${run.a} .*hatch-gti.* stopped at tick ${tick}: non-finite`));
    expect(run.world.c.RigidBody.halted[run.a]).toBe(1);
    expect(run.world.c.RigidBody.halted[run.b]).toBe(0);
    // the stopped car is put back to its start-of-tick pose (its integrated position was NaN)
    expect([B.px[run.a], B.py[run.a], B.pz[run.a], B.qw[run.a], B.qx[run.a], B.qy[run.a], B.qz[run.a]]).toEqual(start);
    run.world.events.length = 0;
    expectStopped(run.world, run.a);
    ticks(ref.world, 100);
    // car b: bit-identical to the run where nothing happened to car a (the cars do not interact)
    expect(carState(run.world, run.b)).toEqual(carState(ref.world, ref.b));
    expect(carState(run.world, run.b).every(Number.isFinite)).toBe(true);
    expect(halts(run.world)).toHaveLength(0); // reported once
  });

  it('NaN in a wheel (not the chassis) is caught too, before it reaches the body', () => {
    const run = two();
    ticks(run.world, 50);
    const w0 = run.world.c.Car.w0[run.b]!;
    run.world.c.Wheel.omega[w0] = NaN;
    ticks(run.world, 1);
    const ev = halts(run.world);
    expect(ev).toHaveLength(1);
    expect(ev[0]).toMatchObject({ car: run.b, car_id: 'rally-awd', reason: 'non-finite' });
    run.world.events.length = 0;
    expectStopped(run.world, run.b);
    expect(run.world.c.RigidBody.halted[run.a]).toBe(0);
    expect(Math.hypot(run.world.c.RigidBody.vx[run.a]!, run.world.c.RigidBody.vz[run.a]!)).toBeGreaterThan(10);
  });

  it(`a car flung at 300 m/s (> ${HALT_MAX_SPEED} m/s) is stopped where it is`, () => {
    const run = two();
    ticks(run.world, 20);
    const b = run.world.c.RigidBody;
    b.Px[run.a] = b.mass[run.a]! * 300;
    const x0 = b.px[run.a]!;
    ticks(run.world, 1);
    const ev = halts(run.world);
    expect(ev).toHaveLength(1);
    expect(ev[0]).toMatchObject({ car: run.a, reason: 'overspeed' });
    expect(ev[0]!.detail).toMatch(/\|v\| = 3\d\d(\.\d+)? m\/s, expected ≤ 200 m\/s/);
    expect(b.halted[run.a]).toBe(2);
    expect(Math.abs(b.px[run.a]! - x0)).toBeLessThan(300 * run.world.dt * 1.01); // one tick of flight at most
    run.world.events.length = 0;
    expectStopped(run.world, run.a);
    expect(b.halted[run.b]).toBe(0);
  });

  it(`a car teleported 3 m under the terrain (> ${HALT_BELOW_TERRAIN} m) is stopped; on a slope too`, () => {
    for (const ground of [new FlatGround(5), new SlopeGround(0.2)]) {
      const run = two(ground);
      ticks(run.world, 20);
      const b = run.world.c.RigidBody;
      b.py[run.b] = b.py[run.b]! - 3.5; // the CG sits ≈ 0.5 m above the ground: now ≈ 3 m under it
      ticks(run.world, 1);
      const ev = halts(run.world);
      expect(ev).toHaveLength(1);
      expect(ev[0]).toMatchObject({ car: run.b, reason: 'below-terrain' });
      expect(b.halted[run.b]).toBe(3);
      run.world.events.length = 0;
      expectStopped(run.world, run.b);
      expect(b.halted[run.a]).toBe(0);
    }
  });

  it('a healthy run never trips the guard (3 s of driving, both cars)', () => {
    const run = two();
    ticks(run.world, 1500);
    expect(halts(run.world)).toHaveLength(0);
    expect(vehicles(run.world).cars).toEqual([run.a, run.b]);
  });

  it('deterministic: the stop is state — same hash twice; a keyframe across it resumes bit-identically; seeking back un-stops', () => {
    const go = (): { t: Two; before: ReturnType<typeof saveSnapshot>; after: ReturnType<typeof saveSnapshot> } => {
      const t = two();
      ticks(t.world, 30);
      const before = saveSnapshot(t.world);
      t.world.c.RigidBody.Pz[t.a] = Infinity;
      ticks(t.world, 10);
      const after = saveSnapshot(t.world);
      ticks(t.world, 200);
      return { t, before, after };
    };
    const x = go(), y = go();
    expect(stateHash(x.t.world)).toBe(stateHash(y.t.world));
    // restore the keyframe taken after the stop into a fresh world of the same build: same run
    const z = two();
    restoreSnapshot(z.world, x.after);
    ticks(z.world, 200);
    expect(stateHash(z.world)).toBe(stateHash(x.t.world));
    // seek back to before the stop: car a drives again, as a run that never had the fault
    const ref = two();
    ticks(ref.world, 30);
    restoreSnapshot(x.t.world, x.before);
    expect(x.t.world.c.RigidBody.halted[x.t.a]).toBe(0);
    ticks(x.t.world, 100);
    ticks(ref.world, 100);
    expect(stateHash(x.t.world)).toBe(stateHash(ref.world));
  });

  it('a keyframe of an earlier build (no RigidBody.halted, bitrally-sim-4) is refused, nothing written', () => {
    const t = two();
    ticks(t.world, 10);
    const snap = saveSnapshot(t.world);
    const old: WorldSnapshot = {
      ...snap,
      components: snap.components.map((c) => (c.name === 'RigidBody' ? { ...c, fields: new Map([...c.fields].filter(([f]) => f !== 'halted')) } : c)),
    };
    const u = two();
    const before = stateHash(u.world);
    expect(() => restoreSnapshot(u.world, old)).toThrow('snapshot: component "RigidBody" lacks state field "halted"');
    expect(stateHash(u.world)).toBe(before);
  });

  it('a recovery (placeCarAtRest) lifts the stop: the car drives on exactly like a recovered car that never stopped', () => {
    const run = two(), ref = two();
    ticks(run.world, 20);
    ticks(ref.world, 20);
    run.world.c.RigidBody.Px[run.a] = NaN;
    ticks(run.world, 1);
    ticks(ref.world, 1);
    expect(run.world.c.RigidBody.halted[run.a]).toBe(1);
    for (const t of [run, ref]) placeCarAtRest(t.world, t.a, hatch, { x: -20, z: 0, heading: 0 });
    ticks(run.world, 500);
    ticks(ref.world, 500);
    expect(run.world.c.RigidBody.halted[run.a]).toBe(0);
    expect(vehicles(run.world).cars).toContain(run.a);
    expect(run.world.c.RigidBody.vz[run.a]!).toBeGreaterThan(2); // full throttle from rest for 1 s
    expect(stateHash(run.world)).toBe(stateHash(ref.world));
  });
});

/** A stage ground that counts its height samples (the guard's one sample per car, unless the ceiling answers). */
class CountingGround extends StageGround {
  samples = 0;
  override heightAt(x: number, z: number): number {
    this.samples++;
    return super.heightAt(x, z);
  }
}

describe('the under-the-ground check on a stage: the height ceiling skips the sample only when it proves the verdict', () => {
  // 4 m of noise on a 2 m grid plus a weighted detail layer: rough, so some tiles' ceilings sit far above the ground
  const n = 65, rng = createRng(17);
  const h = new Float32Array(n * n);
  for (let i = 0; i < h.length; i++) h[i] = 4 * rng();
  const hf = Heightfield.fromFloat32(h, n, n, { cellSize: 2, origin: { x: -64, z: -64 } });
  const weight = new BSplineGrid(new Float32Array(n * n).fill(1), n, n, 2, -64, -64);
  const ground = new CountingGround(new BSplineSurface(hf, DetailLayer.random(createRng(3), { amplitude: 0.05, weight })));

  it('CG depths around 2 m at 300 points (past the borders too): halted exactly when the sampled depth > 2 m', () => {
    const world = createSimWorld({ ground });
    const car = spawnCar(world, hatch, { x: 0, z: 0, heading: 0 });
    const b = world.c.RigidBody;
    const depths = [-1, -0.3, 0.5, 1.5, 2 - 1e-12, 2, 2 + 1e-12, 2.5, 3];
    let skipped = 0, sampled = 0;
    for (let k = 0; k < 300; k++) {
      const x = -70 + 140 * rng(), z = -70 + 140 * rng();
      for (const d of depths) {
        haltCheckpointPass(world);
        b.px[car] = x;
        b.pz[car] = z;
        b.py[car] = ground.surface.height(x, z) - d;
        const depth = ground.surface.height(x, z) - b.py[car]!; // the sample's verdict, the same expression
        ground.samples = 0;
        world.events.length = 0;
        haltGuardPass(world);
        expect(b.halted[car]).toBe(depth > HALT_BELOW_TERRAIN ? 3 : 0);
        if (depth > HALT_BELOW_TERRAIN) expect(halts(world)[0]).toMatchObject({ reason: 'below-terrain', detail: expect.stringContaining(`CG ${depth.toPrecision(4)} m`) });
        if (ground.samples === 0) skipped++;
        else sampled++;
        // the ceiling answered only where it is within 2 m above the CG
        expect(ground.samples === 0).toBe(ground.heightCeilingAt(x, z) - b.py[car]! <= HALT_BELOW_TERRAIN);
        b.halted[car] = 0;
      }
    }
    expect(skipped).toBeGreaterThan(300); // most healthy placements never sample
    expect(sampled).toBeGreaterThan(4 * 300); // every placement at ≥ 2 m depth samples
  });

  it('a car that falls through the stage ground is still halted', () => {
    const world = createSimWorld({ ground });
    const car = spawnCar(world, rally, { x: 0, z: 0, heading: 0, speed: 5 });
    ticks(world, 50);
    expect(halts(world)).toHaveLength(0);
    world.c.RigidBody.py[car] = ground.surface.height(world.c.RigidBody.px[car]!, world.c.RigidBody.pz[car]!) - 3; // 3 m under
    ticks(world, 1);
    expect(halts(world)).toHaveLength(1);
    expect(halts(world)[0]).toMatchObject({ car, reason: 'below-terrain' });
    expect(world.c.RigidBody.halted[car]).toBe(3);
  });
});
