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
import { wrapPi } from '../../src/systems/sim/ai/driver-model';

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
});
