import { describe, expect, it } from 'vitest';
import { loadStageFromDir } from '../../terrain/node';
import { loadBuiltinCar } from '../../src/content/cars/index';
import { createSimWorld } from '../../src/ecs/world';
import { setInputSource, type QuantizedInput } from '../../src/ecs/controls';
import { spawnCar } from '../../src/systems/sim/vehicle/prefab-car';
import { runTick } from '../../src/run/pipeline';
import { StageGround } from '../../src/systems/sim/vehicle/stage-ground';
import { AI_DECISION_HZ, AiDriver } from '../../src/systems/sim/ai/driver';
import { stagePath } from '../../src/systems/sim/ai/stage-path';
import { driverVehicleFromConfig } from '../../src/systems/sim/ai/car-params';
import { AiPath } from '../../src/systems/sim/ai/path';

describe('AI decision rate', () => {
  const stage = loadStageFromDir('src/content/stages/test-short');
  const car = loadBuiltinCar('rally-awd');
  const path = stagePath(stage, car);

  it('decides every round(1/(f·dt)) ticks with dt = that period, and holds the input in between', () => {
    const dt = 1 / 500;
    const world = createSimWorld({ dt, integrator: 'euler', ground: StageGround.fromStage(stage) });
    const eid = spawnCar(world, car, { x: stage.start.x, z: stage.start.z, heading: stage.start.heading });
    const driver = new AiDriver({ path, vehicle: driverVehicleFromConfig(car), params: { aggressiveness: 0.5, skill: 0.8 } });
    const period = Math.round(1 / (AI_DECISION_HZ * dt));
    expect(driver.decisionTicks(dt)).toBe(period);
    // count the decisions and the dt each one is given, through the source the controls pass calls
    const dts: number[] = [];
    const decide = driver.decide.bind(driver);
    driver.decide = (w, e, d) => {
      dts.push(d ?? w.dt);
      return decide(w, e, d);
    };
    // copies: the driver rewrites one object per decision (InputSource: valid until the next call)
    const inputs: QuantizedInput[] = [];
    setInputSource(world, eid, { next: (w, e) => (inputs.push({ ...driver.next(w, e) }), inputs[inputs.length - 1]!) });
    const ticks = 40 * period;
    for (let k = 0; k < ticks; k++) runTick(world);
    expect(dts.length).toBe(ticks / period);
    for (const d of dts) expect(d).toBeCloseTo(period * dt, 15);
    // the same input for every tick of a decision period; a decision changes it at some period's first tick
    let changed = 0;
    for (let k = 1; k < ticks; k++) {
      if (k % period === 0) changed += JSON.stringify(inputs[k]) === JSON.stringify(inputs[k - 1]) ? 0 : 1;
      else expect(inputs[k]).toEqual(inputs[k - 1]);
    }
    expect(changed).toBeGreaterThan(0);
    // the car drove off (the held inputs are real decisions)
    expect(Math.hypot(world.c.RigidBody.vx[eid]!, world.c.RigidBody.vz[eid]!)).toBeGreaterThan(1);
  });

  it('never decides less than once per tick at coarse steps, and decides afresh after resetTracking', () => {
    const driver = new AiDriver({ path, vehicle: driverVehicleFromConfig(car), params: { aggressiveness: 0.5, skill: 0.8 } });
    expect(driver.decisionTicks(0.02)).toBe(1);
    expect(driver.decisionTicks(0.001)).toBe(Math.round(1 / (AI_DECISION_HZ * 0.001)));
    const world = createSimWorld({ dt: 1 / 500, integrator: 'euler', ground: StageGround.fromStage(stage) });
    const eid = spawnCar(world, car, { x: stage.start.x, z: stage.start.z, heading: stage.start.heading });
    let calls = 0;
    const decide = driver.decide.bind(driver);
    driver.decide = (w, e, d) => {
      calls++;
      return decide(w, e, d);
    };
    driver.next(world, eid);
    driver.next(world, eid);
    expect(calls).toBe(1);
    driver.resetTracking();
    driver.next(world, eid);
    expect(calls).toBe(2);
  });
});

describe('AiPath.locate from a hint', () => {
  it('finds the nearest segment that the full scan finds, for points near a winding path and hints up to 10 segments off', () => {
    // a winding closed path: radius 80 ± 15 m with 5 lobes, 2 m samples
    const pts: number[] = [];
    const n = 300;
    for (let i = 0; i < n; i++) {
      const a = (2 * Math.PI * i) / n;
      const r = 80 + 15 * Math.sin(5 * a);
      pts.push(r * Math.cos(a), 0, -r * Math.sin(a));
    }
    const path = AiPath.fromCentreline({ points: Float64Array.from(pts), widths: [0] }, { closed: true, racingLine: 0 });
    let state = 12345;
    const rnd = (): number => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let t = 0; t < 500; t++) {
      const k = Math.floor(rnd() * path.n);
      const off = (rnd() - 0.5) * 12; // within 6 m of the line, as a car on the road
      const h = path.headingAt(path.s[k]!);
      const x = path.x[k]! + off * Math.cos(h), z = path.z[k]! - off * Math.sin(h);
      const full = path.locate(x, z);
      const hint = (k + Math.round((rnd() - 0.5) * 20) + path.n) % path.n;
      const walked = path.locate(x, z, hint);
      expect(walked.index).toBe(full.index);
      expect(walked.s).toBe(full.s);
      expect(walked.lateral).toBe(full.lateral);
    }
  });
});
