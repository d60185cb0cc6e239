import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { loadHavokNode } from '../../src/systems/sim/collision/havok-node';
import { parseScenario } from '../../src/content/scenario-schema';
import { buildScenario, runScenario } from '../../src/run/scenario';
import { createSimWorld } from '../../src/ecs/world';
import { spawnBody } from '../../src/ecs/prefabs';
import { updateDerived } from '../../src/ecs/rigid-body';
import { runTick } from '../../src/run/pipeline';
import { stateHash } from '../../src/ecs/hash';
import { attachCarCollider } from '../../src/systems/sim/collision/car-collider';
import { enableHavokProps, spawnProp } from '../../src/systems/sim/collision/props';
import { releaseCollisionWorld } from '../../src/systems/sim/collision/runtime';
import { HavokScene } from '../../src/systems/sim/collision/havok-scene';
import { fromScenery, SceneColliders } from '../../src/systems/sim/collision/scene';
import { obstaclePoints, newPose } from '../../src/systems/sim/collision/detect';
import { newPointList } from '../../src/systems/sim/collision/contact-points';
import type { HavokPhysicsWithBindings } from '@babylonjs/havok';

let hp: HavokPhysicsWithBindings;
beforeAll(async () => {
  hp = await loadHavokNode();
});

describe('Havok props', () => {
  it('a car knocks a cone: equal and opposite impulses (car exactly, Havok prop to float32 + one step of ground friction)', () => {
    const world = createSimWorld({ dt: 1 / 500, gravity: 9.81 });
    const car = spawnBody(world, { mass: 1400, inertia: [2400, 2600, 550], position: [0, 0.5, 0], gravity: false });
    attachCarCollider(world, car, { cgToFrontM: 2, cgToRearM: 2.2, widthM: 1.8, heightM: 1.4, cgHeightM: 0.5 });
    enableHavokProps(world, hp, 0);
    const cone = spawnProp(world, 'cone', 0.2, 0, 6);
    for (let i = 0; i < 200; i++) runTick(world); // the cone settles on the ground; the car waits 4 m away
    world.events.length = 0;
    const b = world.c.RigidBody, P = world.c.Prop;
    b.Pz[car] = 1400 * 15;
    updateDerived(world, car);
    let hit = false;
    for (let i = 0; i < 500 && !hit; i++) {
      const pCarX = b.Px[car]!, pCarZ = b.Pz[car]!;
      const pConeX = P.mass[cone]! * P.vx[cone]!, pConeZ = P.mass[cone]! * P.vz[cone]!;
      runTick(world);
      const ev = world.events.find((e) => e.kind === 'collision' && e.type === 'prop');
      if (ev) {
        hit = true;
        const J = ev.impulse_ns as number;
        expect(Math.hypot(b.Px[car]! - pCarX, b.Pz[car]! - pCarZ)).toBeCloseTo(J, 9); // the car gets exactly J
        expect(b.Pz[car]! - pCarZ).toBeLessThan(0);
        const dConeX = P.mass[cone]! * P.vx[cone]! - pConeX, dConeZ = P.mass[cone]! * P.vz[cone]! - pConeZ;
        expect(Math.abs(Math.hypot(dConeX, dConeZ) - J) / J).toBeLessThan(0.02);
        expect(Math.abs(dConeX + (b.Px[car]! - pCarX)) / J).toBeLessThan(0.02);
        expect(Math.abs(dConeZ + (b.Pz[car]! - pCarZ)) / J).toBeLessThan(0.02);
        // Wu eq 5-38 at α = 0: e = 0.05 → cone leaves ≈ (1 + e)·v_car·m_car/(m_car + m_cone)
        expect(P.vz[cone]!).toBeGreaterThan(14);
      }
      world.events.length = 0;
    }
    expect(hit).toBe(true);
  });

  it('resting props cost no Havok step until a car reaches them; then they are knocked and the run repeats bit for bit', () => {
    const run = () => {
      const world = createSimWorld({ dt: 1 / 500, gravity: 9.81 });
      const car = spawnBody(world, { mass: 1400, inertia: [2400, 2600, 550], position: [0, 0.5, 0], gravity: false });
      attachCarCollider(world, car, { cgToFrontM: 2, cgToRearM: 2.2, widthM: 1.8, heightM: 1.4, cgHeightM: 0.5 });
      const props = enableHavokProps(world, hp, 0);
      const cone = spawnProp(world, 'cone', 0.2, 0, 12);
      spawnProp(world, 'hay-bale', -3, 0, 12);
      let t = 0;
      while (!props.resting && t < 5000) {
        runTick(world);
        t++;
      }
      const stepsAsleep = props.steps;
      for (let i = 0; i < 300; i++) runTick(world); // all asleep, car parked: no Havok step
      const skipped = props.steps === stepsAsleep;
      const P = world.c.Prop, b = world.c.RigidBody;
      const z0 = P.pz[cone]!;
      b.Pz[car] = 1400 * 15;
      updateDerived(world, car);
      for (let i = 0; i < 800; i++) runTick(world);
      return { t, skipped, moved: P.pz[cone]! - z0, steps: props.steps - stepsAsleep, hash: stateHash(world) };
    };
    const a = run(), b = run();
    expect(a.t).toBeLessThan(5000); // the props fell asleep
    expect(a.skipped).toBe(true);
    expect(a.steps).toBeGreaterThan(0); // stepping again once the car kicked the cone
    expect(a.moved).toBeGreaterThan(1); // knocked forward (the car comes at 15 m/s)
    expect(b.hash).toBe(a.hash);
  });

  // Havok props depend on the wasm heap's history: each props world has its own fresh Havok instance
  // (havok-instance.ts), so the runs are identical with the release (here) and without it (havok-fresh.test.ts)
  it('game stage worlds built one after another, each released when done (GameSession.dispose): identical runs', async () => {
    const { loadStageFromDir } = await import('../../terrain/node');
    const { buildRunWorld } = await import('../../src/run/run-world');
    const { carChoice, gameCarAdapter } = await import('../../src/app/cars');
    const { RUN_SETUP } = await import('../../src/app/game-setup');
    const { HeldInput, setInputSource } = await import('../../src/ecs/controls');
    const stage = loadStageFromDir('src/content/stages/forest-gravel');
    const ch = carChoice('hatch-gti');
    const s = stage.start;
    const hashes: string[] = [];
    {
      for (let k = 0; k < 4; k++) {
        const run = buildRunWorld({ ...RUN_SETUP, props: true, ground: null, cars: [ch.replayCar({ x: s.x, y: s.y, z: s.z, heading: s.heading })] }, stage, gameCarAdapter);
        const input = new HeldInput();
        input.input = { steer: 0, throttle: 1000, brake: 0, clutch: 0, handbrake: 0, buttons: 0 };
        setInputSource(run.world, run.cars[0]!, input);
        for (let i = 0; i < 1200; i++) runTick(run.world); // props settle (and move) in the first seconds
        hashes.push(stateHash(run.world));
        releaseCollisionWorld(run.world);
      }
    }
    expect(new Set(hashes).size).toBe(1);
  }, 120_000);

  it('same run → same hash with props; prop state is in the hash', () => {
    const f = 'src/content/scenarios/collision-props.toml';
    const text = readFileSync(f, 'utf8');
    const short = (): ReturnType<typeof parseScenario> => ({ ...parseScenario(text, f), duration_s: 2.5 });
    // each props world in its own fresh Havok instance (havok-fresh.test.ts); the CLI test below checks another process
    const a = runScenario(buildScenario(short()));
    const run = buildScenario(short());
    const b = runScenario(run);
    expect(a.state_hash).toBe(b.state_hash);
    expect(a.events.filter((e) => e.type === 'prop').length).toBeGreaterThan(3);
    const someProp = [...Array(run.world.capacity).keys()].find((e) => run.world.c.Prop.mass[e]! > 0)!;
    run.world.c.Prop.px[someProp] = run.world.c.Prop.px[someProp]! + 1e-6;
    expect(stateHash(run.world)).not.toBe(b.state_hash);
  });

  it('another process (the sim CLI, a fresh Havok instance) gives the same hash with props', () => {
    const f = 'src/content/scenarios/collision-props.toml';
    const local = runScenario(buildScenario(parseScenario(readFileSync(f, 'utf8'), f)));
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/sim.ts', f, '--json'], { encoding: 'utf8' });
    const cli = JSON.parse(out.trim().split('\n').pop()!);
    expect(cli.state_hash).toBe(local.state_hash);
    expect(cli.events.length).toBe(local.events.length);
  }, 180_000);

  it('props on a slope stand on a Havok heightfield patch of the sim ground (Havok layout checked)', () => {
    const text = `dt = 0.002\nduration_s = 1.5\n[terrain]\nkind = "slope"\ngrade = 0.1\n[[props]]\nkind = "barrel"\nposition_m = [3, 20]\n[[props]]\nkind = "hay-bale"\nposition_m = [-7, -12]\n`;
    const run = buildScenario(parseScenario(text, 'p.toml'));
    runScenario(run);
    const P = run.world.c.Prop;
    const gs = { h: 0, nx: 0, ny: 1, nz: 0, surface: 0 };
    let n = 0;
    for (let e = 0; e < run.world.capacity; e++) {
      if (!(P.mass[e]! > 0)) continue;
      n++;
      run.world.ground.sample(P.px[e]!, P.pz[e]!, gs);
      // the base rests on the sloped ground (a 10 % grade under a 0.3/0.6 m radius base: ±6 cm at the rim)
      expect(Math.abs(P.py[e]! - gs.h)).toBeLessThan(0.08);
      expect(Math.abs(P.pz[e]! - (P.mass[e]! > 100 ? -12 : 20))).toBeLessThan(0.2);
    }
    expect(n).toBe(2);
  });

  it('bad prop kinds are named (file, key path)', () => {
    expect(() => parseScenario(`dt = 0.002\nduration_s = 1\n[[props]]\nkind = "piano"\nposition_m = [0, 0]\n`, 'q.toml')).toThrow(/q\.toml: props\[0\]\.kind/);
  });
});

describe('Havok static scene from stage scenery', () => {
  it('ray queries along car edges agree with the yaw-plane colliders built from the same scenery', () => {
    const items = [
      { kind: 'tree', x: 3, y: 0, z: 10, rotY: 0, radius: 2, height: 8 },
      { kind: 'rock', x: -4, y: 0, z: 20, rotY: 0, radius: 0.8, height: 1 },
      { kind: 'fence', x: 0, y: 0, z: 30, rotY: 0.3, radius: 3, height: 1.2 },
    ];
    const hs = new HavokScene(hp, 9.81, 0.002);
    hs.addScenery(items);
    const sc = fromScenery(items, new SceneColliders());
    const pose = newPose();
    pose.front = 2;
    pose.rear = 2;
    pose.hw = 0.9;
    const l = newPointList();
    let agree = 0;
    for (let x = -6; x <= 6; x += 0.5)
      for (let z = 5; z <= 35; z += 0.5) {
        pose.cx = x;
        pose.cz = z;
        l.n = 0;
        let ours = 0;
        for (let i = 0; i < sc.n; i++) ours += obstaclePoints(sc, i, pose, l);
        // Havok: the four edges as rays at 0.5 m (CG height) in both directions
        const cs = [[x + 0.9, z + 2], [x - 0.9, z + 2], [x - 0.9, z - 2], [x + 0.9, z - 2]];
        let hk = false;
        for (let e = 0; e < 4 && !hk; e++) {
          const a = cs[e]!, b = cs[(e + 1) & 3]!;
          hk = !!hs.castSegment([a[0]!, 0.5, a[1]!], [b[0]!, 0.5, b[1]!]) || !!hs.castSegment([b[0]!, 0.5, b[1]!], [a[0]!, 0.5, a[1]!]);
        }
        // rocks are spheres in Havok and cylinders in the yaw plane; compare trees and fences (x ≥ −2)
        if (x >= -2 && (ours > 0) === hk) agree++;
      }
    const total = 25 * 61 - 8 * 61;
    expect(agree / total).toBeGreaterThan(0.97); // edges within a fence's 0.1 m thickness may differ
    hs.dispose();
  });
});
