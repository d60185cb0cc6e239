import { describe, expect, it } from 'vitest';
import { loadStageFromDir } from '../../terrain/node';
import { loadBuiltinCar } from '../../src/content/cars/index';
import { createSimWorld } from '../../src/ecs/world';
import { setInputSource } from '../../src/ecs/controls';
import { spawnCar } from '../../src/systems/sim/vehicle/prefab-car';
import { runTick } from '../../src/run/pipeline';
import { StageGround } from '../../src/systems/sim/vehicle/stage-ground';
import { AiDriver, driverGains } from '../../src/systems/sim/ai/driver';
import { stagePath } from '../../src/systems/sim/ai/stage-path';
import { driverVehicleFromConfig } from '../../src/systems/sim/ai/car-params';
import { G, wrapPi } from '../../src/systems/sim/ai/driver-model';

describe('AI driver on a car', () => {
  const stage = loadStageFromDir('src/content/stages/test-short');
  const car = loadBuiltinCar('rally-awd');
  const path = stagePath(stage, car);

  it('aggressiveness shortens the look-ahead time (eq 6) and raises c_dδ (eq 8); skill raises the grip used', () => {
    const calm = driverGains({ aggressiveness: 0, skill: 0.5 }), wild = driverGains({ aggressiveness: 1, skill: 0.5 });
    expect(wild.tS).toBeLessThan(calm.tS);
    expect(wild.cDSteer).toBeGreaterThan(calm.cDSteer);
    expect(driverGains({ aggressiveness: 0.5, skill: 1 }).gripUse).toBeGreaterThan(driverGains({ aggressiveness: 0.5, skill: 0 }).gripUse);
  });

  it('recovers from a spin: facing back down the road it turns round (reverse, three-point turn) and drives on, without Recover', () => {
    const world = createSimWorld({ dt: 1 / 500, integrator: 'euler', ground: StageGround.fromStage(stage) });
    // 60 m into the stage, facing the wrong way
    const s0 = path.locate(stage.start.x, stage.start.z).s + 60;
    const pt = [0, 0];
    path.pointAt(s0, pt);
    const eid = spawnCar(world, car, { x: pt[0]!, z: pt[1]!, heading: path.headingAt(s0) + Math.PI });
    const driver = new AiDriver({ path, vehicle: driverVehicleFromConfig(car), params: { aggressiveness: 0.5, skill: 0.8 } });
    setInputSource(world, eid, driver);
    const modes = new Set<string>();
    let sawReverseGear = false;
    for (let k = 0; k < 20 * 500; k++) {
      runTick(world);
      modes.add(driver.mode);
      if (world.c.Car.gear[eid]! < 0) sawReverseGear = true;
    }
    expect(modes.has('reverse')).toBe(true);
    expect(sawReverseGear).toBe(true);
    expect(driver.recoveries).toBe(0);
    // after 20 s it faces along the road and has driven on past where it started
    const b = world.c.RigidBody;
    const heading = Math.atan2(b.R2[eid]!, b.R8[eid]!);
    expect(Math.abs(wrapPi(heading - path.headingAt(driver.loc.s)))).toBeLessThan(0.5);
    expect(driver.loc.s).toBeGreaterThan(s0 + 30);
  });

  it('brakes within the friction circle: the deceleration asked is at most √((μg)² − (u·ω_y)²), floored at 35 % of μg', () => {
    // the car 30 m before the slowest point of its profile, 25 m/s too fast: the demand exceeds any grip
    const vehicle = driverVehicleFromConfig(car);
    const probe = new AiDriver({ path, vehicle, params: { aggressiveness: 0.6, skill: 0.8 } });
    let iMin = 0;
    for (let i = 1; i < path.n; i++) if (probe.profile[i]! < probe.profile[iMin]!) iMin = i;
    const s0 = path.s[iMin]! - 30;
    const xz = (s: number): [number, number] => {
      const p = [0, 0];
      path.pointAt(s, p);
      return [p[0]!, p[1]!];
    };
    const u = probe.profile[iMin]! + 25;
    // the car's pose and speed; the deceleration asked with lateral acceleration u·ω_y = aLat (u: the driver's
    // forward speed, the velocity projected on the body axis), as a pedal fraction of the full-pedal deceleration
    const pedalAt = (aLat: number): { brake: number; want: number } => {
      const world = createSimWorld({ dt: 1 / 500, integrator: 'euler', ground: StageGround.fromStage(stage) });
      const pt = [0, 0];
      path.pointAt(s0, pt);
      const h = path.headingAt(s0);
      const eid = spawnCar(world, car, { x: pt[0]!, z: pt[1]!, heading: h });
      const b = world.c.RigidBody;
      b.vx[eid] = u * Math.sin(h);
      b.vz[eid] = u * Math.cos(h);
      b.wy[eid] = aLat / u;
      const driver = new AiDriver({ path, vehicle, params: { aggressiveness: 0.6, skill: 0.8 } });
      const brake = driver.decide(world, eid).brake;
      const muG = path.mu[driver.loc.index]! * G;
      const aLatNow = driver.last.u * b.wy[eid]!;
      const aMax = Math.max(0.35 * muG, Math.sqrt(Math.max(0, muG * muG - aLatNow * aLatNow)));
      return { brake, want: Math.min(1, aMax / vehicle.brakeDecelMS2) };
    };
    const muG = path.mu[path.locate(...xz(s0)).index]! * G;
    for (const aLat of [0, 0.8 * muG, -0.8 * muG, 0.95 * muG, 1.5 * muG]) {
      const p = pedalAt(aLat);
      expect(p.brake, `aLat ${aLat}`).toBeCloseTo(p.want, 12);
    }
    // the cases between: √(1 − 0.8²) = 0.6 of μg, the 35 % floor past μg
    expect(pedalAt(0.8 * muG).want).toBeCloseTo(Math.min(1, (0.6 * muG) / vehicle.brakeDecelMS2), 5);
    expect(pedalAt(1.5 * muG).want).toBeCloseTo((0.35 * muG) / vehicle.brakeDecelMS2, 12);
  });
});
