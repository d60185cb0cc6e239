import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseScenario } from '../../src/content/scenario-schema';
import { buildScenario, runScenario } from '../../src/run/scenario';
import { loadBuiltinCar } from '../../src/content/cars/index';
import { colliderParamsFromConfig } from '../../src/systems/sim/collision/car-collider';
import { collisionRuntime } from '../../src/systems/sim/collision/runtime';

describe('real cars (issue 4) get a collider', () => {
  it('collider rectangle from the car file: CG → bumper = CG → axle + half the overhang', () => {
    const cfg = loadBuiltinCar('rally-awd');
    const p = colliderParamsFromConfig(cfg);
    const oh = (cfg.body.lengthM - cfg.body.wheelbaseM) / 2;
    expect(p.cgToFrontM + p.cgToRearM).toBeCloseTo(cfg.body.lengthM, 12);
    expect(p.cgToFrontM).toBeCloseTo(cfg.body.cgToFrontM + oh, 12);
    expect(p.widthM).toBe(cfg.body.widthM);
  });

  it('glancing guardrail hit: redirected, drives on along the rail, feels the damage', () => {
    const f = 'src/content/scenarios/collision-car-glancing.toml';
    const run = buildScenario(parseScenario(readFileSync(f, 'utf8'), f));
    const eid = run.entities.find((e) => e.id === 'car')!.eid;
    const b = run.world.c.RigidBody;
    let maxLeft = -Infinity;
    const hw = run.world.c.CarCollider.halfWidth[eid]!;
    const s = runScenario(run, { onTick: (r) => (maxLeft = Math.max(maxLeft, r.world.c.RigidBody.px[eid]! + hw)) });
    const hits = s.events.filter((e) => e.kind === 'collision' && e.type === 'scene');
    expect(hits.length).toBeGreaterThanOrEqual(1);
    expect(hits[0]!.angle_deg as number).toBeGreaterThan(6);
    expect(hits[0]!.angle_deg as number).toBeLessThan(10);
    expect(b.vz[eid]!).toBeGreaterThan(20); // drives on
    expect(Math.abs(b.vx[eid]!)).toBeLessThan(1.5); // heading along the rail, not into it
    expect(b.pz[eid]!).toBeGreaterThan(100);
    expect(maxLeft).toBeLessThan(4 + 0.25); // body never more than a corner's swing past the rail line
    expect(run.world.c.CarCollider.crushL[eid]!).toBeGreaterThan(0);
    expect(run.world.c.Damage.steerPullRad[eid]!).toBeGreaterThan(0); // pulls toward the damaged (left) side
  });
});

describe('stage scenery colliders', () => {
  it('a car on a shipped stage aimed at a tree hits it (scenery → colliders)', () => {
    const f = 'src/content/scenarios/car-stage.toml';
    const base = parseScenario(readFileSync(f, 'utf8'), f);
    // find the stage's trees through a first build, then aim a car at one from 15 m
    const probe = buildScenario(base);
    const sc = collisionRuntime(probe.world).scene;
    const tree = sc.names.findIndex((n) => n.startsWith('tree#'));
    expect(tree).toBeGreaterThanOrEqual(0);
    const tx = sc.p0[tree]!, tz = sc.p1[tree]!;
    const heading = 0.3;
    const s = {
      ...base, duration_s: 2,
      cars: [{ ...base.cars[0]!, position_m: [tx - 15 * Math.sin(heading), tz - 15 * Math.cos(heading)] as [number, number], heading_deg: (heading * 180) / Math.PI, speed_m_s: 15, inputs: [] }],
    };
    const run = buildScenario(s);
    const sum = runScenario(run);
    const hits = sum.events.filter((e) => e.kind === 'collision' && e.type === 'scene');
    expect(hits.length).toBeGreaterThanOrEqual(1);
    expect(String((hits[0]!.ids as string[])[1])).toMatch(/^(tree|rock|fence|marker|arch)#/);
  });
});
