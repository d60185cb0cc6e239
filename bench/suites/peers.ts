/**
 * Benchmark (c), issue 8: our car vs Rapier's DynamicRayCastVehicleController and cannon-es RaycastVehicle,
 * side by side in one process on the same heightfield (a 257×257-node window of the test-short stage), same
 * mass, same dt (2 ms), same scripted driving inputs (bench/peers-harness.ts). Reports µs per vehicle step for
 * each engine and the ratios ours / peer (> 1: ours is slower per step; ours runs a 6DOF body + 4 wheel spins
 * + suspension + brush tyres + drivetrain solve with the midpoint integrator, the peers a raycast model).
 */
import { join } from 'node:path';
import { loadStageFromDir } from '../../terrain/node';
import { loadBuiltinCar } from '../../src/content/cars/index';
import { createSimWorld } from '../../src/ecs/world';
import { setInputSource } from '../../src/ecs/controls';
import { spawnCar } from '../../src/systems/sim/vehicle/prefab-car';
import { runTick } from '../../src/run/pipeline';
import { StageGround } from '../../src/systems/sim/vehicle/stage-ground';
import { cannonVehicle, heightPatch, initRapier, PEER_DT, peerParams, rapierVehicle, scriptedInput, type PeerVehicle } from '../peers-harness';
import type { BenchResult, BenchSuite } from '../types';

const STAGE_DIR = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '../../src/content/stages/test-short');

function timeSteps(v: PeerVehicle, warm: number, steps: number): number {
  let k = 0;
  for (; k < warm; k++) v.step(scriptedInput(k));
  const t0 = performance.now();
  for (let i = 0; i < steps; i++, k++) v.step(scriptedInput(k));
  return ((performance.now() - t0) * 1000) / steps;
}

export const suite: BenchSuite = {
  name: 'peers',
  async run({ quick }) {
    await initRapier();
    const stage = loadStageFromDir(STAGE_DIR);
    const car = loadBuiltinCar('rally-awd');
    const p = peerParams(car);
    const s = stage.start;
    const patch = heightPatch(stage, s.x, s.z, 257);
    const start = { x: s.x, y: stage.bspline.heightMacro(s.x, s.z) + car.body.cgHeightM + 0.05, z: s.z, heading: s.heading };
    const warm = quick ? 300 : 1000;
    const steps = quick ? 2000 : 10000;

    // ours: the full pipeline with one car on the stage's B-spline ground
    const world = createSimWorld({ dt: PEER_DT, ground: StageGround.fromStage(stage) });
    const eid = spawnCar(world, car, { x: s.x, z: s.z, heading: s.heading });
    setInputSource(world, eid, { next: (w) => scriptedInput(w.tick) });
    const b = world.c.RigidBody;
    const ours: PeerVehicle = {
      name: 'bitrally',
      step: () => runTick(world),
      position: () => [b.px[eid]!, b.py[eid]!, b.pz[eid]!],
      speed: () => Math.hypot(b.vx[eid]!, b.vy[eid]!, b.vz[eid]!),
      dispose: () => {},
    };
    const engines = [ours, rapierVehicle(patch, p, start), cannonVehicle(patch, p, start)];
    const us: Record<string, number> = {};
    const out: BenchResult[] = [];
    for (const v of engines) {
      const t = timeSteps(v, warm, steps);
      us[v.name] = t;
      const [x, y, z] = v.position();
      const moved = Math.hypot(x - s.x, z - s.z);
      const above = y - stage.bspline.heightMacro(x, z);
      const inside = x > patch.x0 && x < patch.x0 + (patch.n - 1) * patch.cell && z > patch.z0 && z < patch.z0 + (patch.n - 1) * patch.cell;
      if (!inside || Math.abs(above) > 3) process.stderr.write(`peers: ${v.name} left the heightfield or the ground (${x.toFixed(0)}, ${y.toFixed(1)}, ${z.toFixed(0)})\n`);
      out.push({
        suite: 'peers',
        name: `${v.name}: one car, step`,
        value: t,
        unit: 'µs/vehicle/step',
        note: `dt 2 ms, ${steps} steps after ${warm} warm-up; ended ${moved.toFixed(0)} m from the start, chassis ${above.toFixed(2)} m above ground${inside && Math.abs(above) < 3 ? '' : ' (LEFT THE GROUND: invalid)'}`,
      });
      v.dispose();
    }
    out.push({ suite: 'peers', name: 'ratio bitrally / rapier', value: us.bitrally! / us.rapier!, unit: '×', note: 'per vehicle step; > 1 = ours slower' });
    out.push({ suite: 'peers', name: 'ratio bitrally / cannon-es', value: us.bitrally! / us['cannon-es']!, unit: '×', note: 'per vehicle step; > 1 = ours slower' });
    return out;
  },
};
