import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseScenario } from '../../src/content/scenario-schema';
import { buildScenario, runScenario } from '../../src/run/scenario';
import { loadStageFromDir } from '../../terrain/node';

describe('scenario cars with ai = true', () => {
  it('the shipped AI scenario drives both cars down the test stage (progress along the road)', () => {
    const file = 'src/content/scenarios/ai-test-short.toml';
    const s = parseScenario(readFileSync(file, 'utf8'), file);
    s.duration_s = 12;
    const run = buildScenario(s);
    runScenario(run);
    const stage = loadStageFromDir('src/content/stages/test-short');
    const b = run.world.c.RigidBody;
    for (const e of run.entities) {
      const p = stage.road.project(b.px[e.eid]!, b.pz[e.eid]!);
      // 12 s from a standing start: well over 80 m along the road, on it
      expect(p.distanceM - stage.start.distanceM).toBeGreaterThan(80);
      expect(Math.abs(p.lateralM)).toBeLessThan(stage.road.poseAt(p.distanceM).width / 2 + 1);
    }
  });

  it('ai on a flat ground or together with timed inputs is a clear error naming the car entry', () => {
    const flat = `name = "x"\ndt = 0.002\nduration_s = 1\n[[cars]]\nid = "a"\ncar = "rally-awd"\nai = true\n`;
    expect(() => buildScenario(parseScenario(flat, 'flat.toml'))).toThrow(/cars\[0\]\.ai: expected terrain.kind = "stage".*found "flat"/);
    const both = `name = "x"\ndt = 0.002\nduration_s = 1\n[terrain]\nkind = "stage"\nstage = "test-short"\n[[cars]]\nid = "a"\ncar = "rally-awd"\nai = true\n[[cars.inputs]]\nt_s = 0\nthrottle = 1\n`;
    expect(() => buildScenario(parseScenario(both, 'both.toml'))).toThrow(/both\.toml: cars\[0\]\.inputs: expected none with ai = true.*found array of 1/); // refused by the loader
    const bad = `name = "x"\ndt = 0.002\nduration_s = 1\n[[cars]]\nid = "a"\ncar = "rally-awd"\nai = "yes"\n`;
    expect(() => parseScenario(bad, 'bad.toml')).toThrow(/bad\.toml: cars\[0\]\.ai: expected boolean/);
  });
});
