import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseScenario } from '../../src/content/scenario-schema';
import { buildScenario, runScenario, type ScenarioRun } from '../../src/run/scenario';
import { createSimWorld, type SimEvent } from '../../src/ecs/world';
import { spawnBody } from '../../src/ecs/prefabs';
import { runTick } from '../../src/run/pipeline';
import { stateHash } from '../../src/ecs/hash';
import { attachCarCollider } from '../../src/systems/sim/collision/car-collider';
import { collisionRuntime } from '../../src/systems/sim/collision/runtime';
import { knightE, wuE } from '../../src/systems/sim/collision/coefficients';
import { havokOrNull } from '../../src/systems/sim/collision/havok-instance';
import { useHavokSceneQueries } from '../../src/systems/sim/collision/havok-queries';

/** tests/collision/system-havok.test.ts loads Havok and re-runs this file: then every world queries through Havok. */
const onHavokPath = (world: ReturnType<typeof createSimWorld>): void => {
  const hp = havokOrNull();
  if (hp) useHavokSceneQueries(world, hp);
};
const checkPath = (world: ReturnType<typeof createSimWorld>): void => {
  const q = collisionRuntime(world).queries;
  if (havokOrNull()) expect(q?.queries ?? 0).toBeGreaterThan(0);
  else expect(q).toBeNull();
};

const load = (name: string): ScenarioRun =>
  buildScenario(parseScenario(readFileSync(`src/content/scenarios/${name}.toml`, 'utf8'), `${name}.toml`));

const collisions = (events: SimEvent[]): SimEvent[] => events.filter((e) => e.kind === 'collision');

describe('car–scene scenarios (Knight & Bernard)', () => {
  it('head-on wall: stops the car, keeps e(90°)² of the energy, no penetration', () => {
    const run = load('collision-head-on-wall');
    const b = run.world.c.RigidBody;
    const eid = run.entities[0]!.eid;
    let maxFront = -Infinity;
    const s = runScenario(run, { onTick: (r) => (maxFront = Math.max(maxFront, r.world.c.RigidBody.pz[eid]! + 2.0)) });
    const ev = collisions(s.events);
    expect(ev).toHaveLength(1);
    const e = ev[0]!;
    expect(e.type).toBe('scene');
    expect(e.ids).toEqual(['car', 'wall']);
    expect(e.method).toBe('restitution');
    expect(e.angle_deg as number).toBeCloseTo(90, 9);
    expect(e.e as number).toBeCloseTo(knightE(Math.PI / 2), 12);
    expect((e.ke_after as number) / (e.ke_before as number)).toBeCloseTo(0.05 ** 2, 12); // 99.75 % gone
    expect(b.vz[eid]!).toBeCloseTo(-0.05 * 20, 9);
    expect(maxFront).toBeLessThanOrEqual(15 + 1e-9);
    expect((e.crush_added_m as number[])[0]).toBeGreaterThan(0.1);
    expect(run.world.c.Damage.powerFactor[eid]!).toBeLessThan(1);
    checkPath(run.world);
  });

  it('kinetic-energy method: the yaw-plane energy ratio is P(90°) = 0.04', () => {
    const s = runScenario(load('collision-energy-wall'));
    const e = collisions(s.events)[0]!;
    expect(e.method).toBe('energy');
    expect((e.ke_after as number) / (e.ke_before as number)).toBeCloseTo(0.04, 12);
  });

  it('glancing wall: redirected, drives on with most of its speed', () => {
    const run = load('collision-glancing-wall');
    const eid = run.entities[0]!.eid;
    let maxX = -Infinity;
    const s = runScenario(run, { onTick: (r) => (maxX = Math.max(maxX, r.world.c.RigidBody.px[eid]!)) });
    const ev = collisions(s.events);
    expect(ev.length).toBeGreaterThanOrEqual(1);
    expect(ev[0]!.angle_deg as number).toBeCloseTo(10, 5);
    expect(ev[0]!.e as number).toBeCloseTo(knightE((10 * Math.PI) / 180), 9);
    const b = run.world.c.RigidBody;
    const speed = Math.hypot(b.vx[eid]!, b.vz[eid]!);
    expect(speed).toBeGreaterThan(0.8 * 25);
    expect(b.vx[eid]!).toBeLessThanOrEqual(0); // no longer heading into the wall
    expect(b.pz[eid]!).toBeGreaterThan(60); // kept going along the wall
    expect(maxX + 0.9).toBeLessThan(4 + 0.3); // the side never went through (corner swing < 0.3 m)
    expect(run.world.c.CarCollider.crushL[eid]!).toBeGreaterThan(0);
    checkPath(run.world);
  });

  it('a 5 mph barrier impact leaves no body crush', () => {
    const run = load('collision-5mph-barrier');
    const s = runScenario(run);
    const ev = collisions(s.events);
    expect(ev).toHaveLength(1);
    expect((ev[0]!.crush_added_m as number[])[0]).toBe(0);
    const c = run.world.c.CarCollider, eid = run.entities[0]!.eid;
    expect(c.crushF[eid]! + c.crushR[eid]! + c.crushL[eid]! + c.crushRt[eid]!).toBe(0);
  });

  for (const dt of [1 / 500, 1 / 120, 1 / 60]) {
    it(`no tunnelling at 400 km/h through a 0.2 m wall or a 0.1 m pole (dt = ${dt.toFixed(4)} s)`, () => {
      const world = createSimWorld({ dt, gravity: 0 });
      const rt = collisionRuntime(world);
      rt.scene.add({ kind: 'box', center: [0, 60], half_extents: [20, 0.1], height_m: 2, id: 'wall' });
      rt.scene.add({ kind: 'cylinder', center: [30, 60], radius: 0.1, height_m: 2, id: 'pole' });
      onHavokPath(world);
      const cars = [0, 30].map((x) => {
        const eid = spawnBody(world, { mass: 1400, inertia: [2400, 2600, 550], position: [x, 0.5, 0], velocity: [0, 0, 400 / 3.6], gravity: false });
        attachCarCollider(world, eid, { cgToFrontM: 2, cgToRearM: 2.2, widthM: 1.8, heightM: 1.4, cgHeightM: 0.5 });
        return eid;
      });
      let maxFront = -Infinity;
      for (let i = 0; i < Math.round(1.2 / dt); i++) {
        runTick(world);
        for (const eid of cars) maxFront = Math.max(maxFront, world.c.RigidBody.pz[eid]! + 2);
      }
      expect(maxFront).toBeLessThan(60 - 0.1 + 1e-9);
      for (const eid of cars) expect(world.c.RigidBody.vz[eid]!).toBeLessThan(0);
      checkPath(world);
    });
  }
});

describe('car–car (Wu)', () => {
  it("head-to-head matches eq 5-41 and conserves momentum", () => {
    const run = load('collision-wu-head-to-head');
    const s = runScenario(run);
    const ev = collisions(s.events);
    expect(ev).toHaveLength(1);
    const e = ev[0]!;
    expect(e.type).toBe('car');
    expect(e.e as number).toBeCloseTo(wuE(0), 12);
    expect(e.mu).toBe(0);
    const m1 = 1200, m2 = 1800, V1 = 15, V2 = -10;
    const I = ((1 + 0.05) * (V1 - V2)) / (1 / m1 + 1 / m2);
    expect(e.impulse_ns as number).toBeCloseTo(I, 6);
    const [a, b] = run.entities.map((x) => x.eid);
    const rb = run.world.c.RigidBody;
    expect(rb.vz[a!]!).toBeCloseTo(V1 - I / m1, 9);
    expect(rb.vz[b!]!).toBeCloseTo(V2 + I / m2, 9);
    expect(Math.abs(m1 * rb.vz[a!]! + m2 * rb.vz[b!]! - (m1 * V1 + m2 * V2))).toBeLessThan(1e-9 * m2 * 15);
  });

  it('overtaking corner clip is a minor collision (Fig 5-7): e < 0, momentum kept, both cars drive on', () => {
    const run = load('collision-car-sideswipe');
    const s = runScenario(run);
    const e = collisions(s.events)[0]!;
    expect(e.type).toBe('car');
    expect(e.minor).toBe(true);
    expect(e.e).toBe(-0.5);
    const [a, b] = run.entities.map((x) => x.eid);
    const rb = run.world.c.RigidBody;
    expect(rb.vz[a!]!).toBeGreaterThan(20);
    expect(rb.vz[b!]!).toBeGreaterThan(20);
    expect(Math.abs(1300 * (rb.vz[a!]! + rb.vz[b!]!) - 1300 * 50)).toBeLessThan(1e-9 * 1300 * 50);
    // a major hit at the same closing speed would take more energy: ΔE(minor) = ½(1 − e²)p²/K with e² = 0.25 vs 0.0025
    expect((e.ke_before as number) - (e.ke_after as number)).toBeLessThan(0.05 * (e.ke_before as number));
  });

  it('a pack of cars: every impulse conserves total linear momentum; energy never increases', () => {
    const world = createSimWorld({ dt: 1 / 500, gravity: 0, seed: 5 });
    const cars: number[] = [];
    for (let i = 0; i < 12; i++) {
      const ang = world.rng.next() * 2 * Math.PI;
      const eid = spawnBody(world, {
        mass: 1100 + 600 * world.rng.next(), inertia: [2400, 2000 + 1500 * world.rng.next(), 550],
        position: [(i % 4) * 5 + world.rng.next(), 0.5, Math.floor(i / 4) * 6 + world.rng.next()],
        orientation: [Math.cos(ang / 2), 0, Math.sin(ang / 2), 0],
        velocity: [(world.rng.next() - 0.5) * 30, 0, (world.rng.next() - 0.5) * 30],
        angularVelocity: [0, (world.rng.next() - 0.5) * 2, 0], gravity: false,
      });
      attachCarCollider(world, eid, { cgToFrontM: 2, cgToRearM: 2.1, widthM: 1.8, heightM: 1.4, cgHeightM: 0.5 });
      cars.push(eid);
    }
    const b = world.c.RigidBody;
    const mom = (): [number, number] => cars.reduce<[number, number]>((s, e) => [s[0] + b.Px[e]!, s[1] + b.Pz[e]!], [0, 0]);
    const energy = (): number => cars.reduce((s, e) => s + 0.5 * b.mass[e]! * (b.vx[e]! ** 2 + b.vz[e]! ** 2) + 0.5 * b.Iyy[e]! * b.wy[e]! ** 2, 0);
    const p0 = mom();
    const scale = cars.reduce((s, e) => s + b.mass[e]! * 30, 0);
    let E = energy();
    let n = 0;
    for (let i = 0; i < 1500; i++) {
      runTick(world);
      n += world.events.filter((e) => e.kind === 'collision').length;
      world.events.length = 0;
      const p = mom();
      expect(Math.abs(p[0] - p0[0]) / scale).toBeLessThan(1e-9);
      expect(Math.abs(p[1] - p0[1]) / scale).toBeLessThan(1e-9);
      const E1 = energy();
      expect(E1).toBeLessThanOrEqual(E * (1 + 1e-9));
      E = E1;
    }
    expect(n).toBeGreaterThan(3);
  });
});

describe('determinism', () => {
  it('same scenario, same hash; collision state is hashed', () => {
    const a = runScenario(load('collision-glancing-wall'));
    const b = runScenario(load('collision-glancing-wall'));
    expect(a.state_hash).toBe(b.state_hash);
    const run = load('collision-glancing-wall');
    const s = runScenario(run);
    run.world.c.CarCollider.crushL[run.entities[0]!.eid] = 0;
    expect(stateHash(run.world)).not.toBe(s.state_hash);
  });
});

describe('bad scenario input', () => {
  it('names the field, expected and found', () => {
    const text = `dt = 0.002\nduration_s = 1\n[[obstacles]]\nkind = "cylinder"\ncenter = [0, 0]\nradius = -1\nheight_m = 1\n`;
    expect(() => parseScenario(text, 'bad.toml')).toThrow(/bad\.toml: obstacles\[0\]\.radius/);
    const t2 = `dt = 0.002\nduration_s = 1\n[[obstacles]]\nkind = "wall"\na = [0, 0]\nb = [0, 0]\nheight_m = 1\n`;
    expect(() => buildScenario(parseScenario(t2, 'bad2.toml'))).toThrow(/obstacles\[0\]: .*coincide/);
  });
});
