/**
 * The midpoint method's fused stages (src/systems/sim/integrate-bodies.ts, `StateBlock.derivativeStage`): each
 * block computes its derivative and writes y0 + h·derivative straight into its components, the derivative never
 * stored. That must give every bit the plain form gives (derivative of every block into k, then `stage` from k),
 * which the integrator still runs for a block without the fused method.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSimWorld, type SimWorld, type StateBlock } from '../../src/ecs/world';
import { spawnCar } from '../../src/systems/sim/vehicle/prefab-car';
import { StageGround } from '../../src/systems/sim/vehicle/stage-ground';
import { runTick } from '../../src/run/pipeline';
import { HeldInput, setInputSource } from '../../src/ecs/controls';
import { loadBuiltinCar } from '../../src/content/cars/index';
import { stateHash } from '../../src/ecs/hash';
import { loadStageFromDir } from '../../terrain/node';

const stage = loadStageFromDir(join(__dirname, '../../src/content/stages/test-short'));
const CARS = ['hatch-gti', 'classic-rwd', 'rally-awd'] as const;
/** Held inputs per car (steer, throttle, brake on the −1000…1000 scale): a turn under power, a straight, a braking turn. */
const INPUTS = [
  { steer: 300, throttle: 800, brake: 0 },
  { steer: 0, throttle: 1000, brake: 0 },
  { steer: -500, throttle: 0, brake: 400 },
];

/** Three cars side by side at the stage's start, 12 m/s, each with its held input. */
function makeWorld(fused: boolean): { world: SimWorld; cars: number[] } {
  const world = createSimWorld({ integrator: 'midpoint', ground: StageGround.fromStage(stage), seed: 3 });
  const { x, z, heading } = stage.start;
  const cars = CARS.map((id, i) => {
    const side = (i - 1) * 4; // m to the left of the start, across the heading
    const eid = spawnCar(world, loadBuiltinCar(id), { x: x + side * Math.cos(heading), z: z - side * Math.sin(heading), heading, speed: 12 });
    const input = new HeldInput();
    input.input = { ...INPUTS[i]!, clutch: 0, handbrake: 0, buttons: 0 };
    setInputSource(world, eid, input);
    return eid;
  });
  if (!fused) world.stateBlocks = world.stateBlocks.map((b): StateBlock => ({ ...b, derivativeStage: undefined }));
  return { world, cars };
}

describe('midpoint integrator, fused derivative and stage', () => {
  it('every block the game registers has the fused form', () => {
    const { world } = makeWorld(true);
    expect(world.stateBlocks.map((b) => b.name)).toEqual(['rigid-body', 'vehicle']);
    for (const b of world.stateBlocks) expect(b.derivativeStage).toBeTypeOf('function');
  });

  it('gives the same bits as the plain derivative → stage form, tick after tick', () => {
    const { world: fused, cars } = makeWorld(true);
    const { world: plain } = makeWorld(false);
    expect(plain.stateBlocks.some((b) => b.derivativeStage)).toBe(false);
    expect(stateHash(fused)).toBe(stateHash(plain));
    const b = fused.c.RigidBody;
    const from = cars.map((e) => [b.px[e]!, b.pz[e]!] as const);
    for (let t = 1; t <= 1500; t++) {
      runTick(fused);
      runTick(plain);
      if (t % 250 === 0) expect(stateHash(fused), `tick ${t}`).toBe(stateHash(plain));
    }
    // 3 s of driving, not cars at rest: each moved, the one at full throttle sped up, the braking one slowed
    cars.forEach((e, i) => expect(Math.hypot(b.px[e]! - from[i]![0], b.pz[e]! - from[i]![1]), CARS[i]).toBeGreaterThan(10));
    expect(Math.hypot(b.vx[cars[1]!]!, b.vz[cars[1]!]!)).toBeGreaterThan(14);
    expect(Math.hypot(b.vx[cars[2]!]!, b.vz[cars[2]!]!)).toBeLessThan(12);
  });
});
