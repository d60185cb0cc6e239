/** Cars in headless scenarios: timed inputs, trace fields, determinism, stage terrain. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/content/scenario-schema';
import { buildScenario, resolveTraceField, runScenario } from '../../src/run/scenario';

const launch = readFileSync(new URL('../../src/content/scenarios/car-launch.toml', import.meta.url), 'utf8');

describe('scenario cars', () => {
  it('runs the launch scenario twice to the same state hash, traces resolve', () => {
    const s = parseScenario(launch, 'car-launch.toml');
    const a = buildScenario(s);
    const getters = s.trace!.fields.map((f) => resolveTraceField(a, f));
    let maxSpeed = 0;
    let sawSteer = false;
    const ha = runScenario(a, {
      onTick: (r) => {
        maxSpeed = Math.max(maxSpeed, getters[0]!(r.world));
        if (r.world.time > 6.5 && r.world.time < 8) sawSteer ||= Math.abs(getters[4]!(r.world)) > 0.3; // lat_g
      },
    }).state_hash;
    const hb = runScenario(buildScenario(parseScenario(launch, 'car-launch.toml'))).state_hash;
    expect(ha).toBe(hb);
    expect(maxSpeed).toBeGreaterThan(100); // km/h
    expect(sawSteer).toBe(true);
    // Braked to a stop by the end (inputs: brake from 8 s).
    expect(resolveTraceField(a, 'car.speed_kmh')(a.world)).toBeLessThan(0.5);
  });

  it('unknown car trace field and unknown car are clear errors', () => {
    const s = parseScenario(launch, 'car-launch.toml');
    const run = buildScenario(s);
    expect(() => resolveTraceField(run, 'car.warp_factor')).toThrow('trace.fields: "car.warp_factor": unknown field "warp_factor" for car "car"');
    const bad = parseScenario(launch.replace('car = "rally-awd"', 'car = "no-such-car.toml"'), 'car-launch.toml');
    expect(() => buildScenario(bad)).toThrow(/cars\[0\]\.car: cannot load "no-such-car\.toml"/);
  });

  it('a car on a shipped stage starts on the road at ride height and drives', () => {
    const s = parseScenario(readFileSync(new URL('../../src/content/scenarios/car-stage.toml', import.meta.url), 'utf8'), 'car-stage.toml');
    const run = buildScenario(s);
    const load = ['fl', 'fr', 'rl', 'rr'].map((w) => resolveTraceField(run, `car.${w}.load`));
    const speed = resolveTraceField(run, 'car.speed_kmh');
    let max = 0;
    runScenario(run, { onTick: (r) => (max = Math.max(max, speed(r.world))) });
    expect(max).toBeGreaterThan(30);
    for (const l of load) expect(l(run.world)).toBeGreaterThan(500); // all four wheels on the ground
  });
});
