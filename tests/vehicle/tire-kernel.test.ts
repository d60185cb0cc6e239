import { describe, it, expect, vi, afterEach } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { loadStageFromDir } from '../../terrain/node';
import { loadBuiltinCar } from '../../src/content/cars/index';
import { DEFAULT_SURFACES } from '../../src/content/surface-table';
import { createSimWorld, type SimWorld } from '../../src/ecs/world';
import { componentMemory } from '../../src/ecs/components/index';
import { HeldInput, setInputSource } from '../../src/ecs/controls';
import { spawnCar } from '../../src/systems/sim/vehicle/prefab-car';
import { carRuntime, setSurfaces } from '../../src/systems/sim/vehicle/registry';
import { reconfigureCar } from '../../src/systems/sim/vehicle/reconfigure';
import { StageGround } from '../../src/systems/sim/vehicle/stage-ground';
import { tiresCar, tiresJs } from '../../src/systems/sim/vehicle/tires';
import { setTireKernelEnabled, tireKernelError, tireKernelOf } from '../../src/systems/sim/vehicle/tire-kernel';
import { runTick } from '../../src/run/pipeline';
import { stateHash } from '../../src/ecs/hash';
import { compileKernel, KERNELS, kernelModuleText } from '../../terrain/wasm/build';
import { STEER_SCALE, PEDAL_SCALE } from '../../src/ecs/controls';

/**
 * The WebAssembly tyre pass (src/systems/sim/vehicle/tire-kernel.ts, wasm/assembly/tires.ts) against the TypeScript
 * pass it ports (`tiresJs`): the same bits, on whole runs (state hashes) and on one pass from arbitrary states
 * (every field the pass writes, Object.is).
 */
const STAGES = join(__dirname, '../../src/content/stages');

afterEach(() => setTireKernelEnabled(true));

/** A car on `stage` driven by a scripted input (throttle, braking, handbrake, a slalom), in a world of its own. */
function drive(stageName: string, carId: string, kernel: boolean, ticks: number, midRun?: (world: SimWorld, eid: number) => void, expectKernel = kernel): string[] {
  setTireKernelEnabled(kernel);
  const stage = loadStageFromDir(join(STAGES, stageName));
  const world = createSimWorld({ ground: StageGround.fromStage(stage) });
  const s = stage.start;
  const eid = spawnCar(world, loadBuiltinCar(carId), { x: s.x, z: s.z, heading: s.heading });
  const held = new HeldInput();
  setInputSource(world, eid, held);
  const hashes: string[] = [];
  for (let k = 0; k < ticks; k++) {
    const t = k / 500;
    held.input = {
      steer: Math.round(STEER_SCALE * 0.6 * Math.sin(1.3 * t)),
      throttle: Math.round(PEDAL_SCALE * (t % 4 < 3 ? 1 : 0)),
      brake: Math.round(PEDAL_SCALE * (t % 4 >= 3.4 ? 0.8 : 0)),
      clutch: 0,
      handbrake: t % 6 > 5.5 ? PEDAL_SCALE : 0,
      buttons: 0,
    };
    if (k === ticks >> 1) midRun?.(world, eid);
    runTick(world);
    if (k % 250 === 249) hashes.push(stateHash(world));
  }
  if (expectKernel) expect(tireKernelOf(world), tireKernelError() ?? '').not.toBeNull();
  return hashes;
}

describe('tyre kernel (WebAssembly)', () => {
  it('compiles and runs here, reading the components in place', () => {
    const world = createSimWorld({});
    expect(componentMemory(world.c)).toBeDefined();
    expect(tireKernelOf(world)).not.toBeNull();
    expect(tireKernelError()).toBeNull();
  });

  it("gives the TypeScript pass's bits over whole runs: every shipped car, gravel, tarmac and snow stages", () => {
    for (const [stage, car] of [['test-short', 'rally-awd'], ['col-tarmac', 'hatch-gti'], ['snow-ridge', 'classic-rwd']] as const) {
      expect(drive(stage, car, true, 3000), `${car} on ${stage}`).toEqual(drive(stage, car, false, 3000));
    }
  });

  it('follows a new surface table and a new car config in mid-run with the same bits', () => {
    const swap = (world: SimWorld, eid: number): void => {
      setSurfaces(world, DEFAULT_SURFACES.map((s) => ({ ...s, muStatic: s.muStatic * 0.8, stiffnessScale: s.stiffnessScale * 1.2 })));
      const cfg = loadBuiltinCar('rally-awd');
      reconfigureCar(world, eid, { ...cfg, tires: { ...cfg.tires, front: { ...cfg.tires.front, grip: 0.9 * cfg.tires.front.grip, radius: 1.05 * cfg.tires.front.radius } } });
    };
    const withKernel = drive('test-short', 'rally-awd', true, 2000, swap);
    expect(withKernel).toEqual(drive('test-short', 'rally-awd', false, 2000, swap));
    expect(withKernel).not.toEqual(drive('test-short', 'rally-awd', false, 2000));
  });

  it('gives the TypeScript pass\'s bits from any state: every field the pass writes, for any doubles (NaN, ±Infinity, −0)', () => {
    const pair = [0, 1].map(() => {
      const world = createSimWorld({});
      const eid = spawnCar(world, loadBuiltinCar('rally-awd'), { x: 0, z: 0, heading: 0 });
      return { world, rt: carRuntime(world, eid) };
    });
    const num = fc.oneof(fc.double(), fc.double({ min: -50, max: 50, noNaN: true }), fc.constantFrom(0, -0, 1));
    const BODY = ['R0', 'R1', 'R2', 'R3', 'R4', 'R5', 'R6', 'R7', 'R8', 'px', 'py', 'pz', 'vx', 'vy', 'vz', 'wx', 'wy', 'wz', 'fx', 'fy', 'fz', 'tx', 'ty', 'tz'] as const;
    const WHEEL = ['nx', 'ny', 'nz', 'cx', 'cy', 'cz', 'load', 'omega', 'ux', 'uy', 'torque', 'steer'] as const;
    const wheel = fc.record({ f: fc.array(num, { minLength: WHEEL.length, maxLength: WHEEL.length }), surface: fc.integer({ min: -2, max: 7 }), grounded: fc.integer({ min: 0, max: 1 }) });
    fc.assert(
      fc.property(fc.array(num, { minLength: BODY.length, maxLength: BODY.length }), fc.array(wheel, { minLength: 4, maxLength: 4 }), (body, wheels) => {
        for (const { world, rt } of pair) {
          const b = world.c.RigidBody, W = world.c.Wheel;
          BODY.forEach((f, i) => (b[f][rt.eid] = body[i]!));
          rt.wheels.forEach((w, j) => {
            WHEEL.forEach((f, i) => (W[f][w] = wheels[j]!.f[i]!));
            W.surface[w] = wheels[j]!.surface;
            W.grounded[w] = wheels[j]!.grounded;
          });
        }
        tiresJs(pair[0]!.world, pair[0]!.rt);
        tiresCar(pair[1]!.world, pair[1]!.rt);
        const differ: string[] = [];
        for (const [name, eids] of [['RigidBody', [pair[0]!.rt.eid]], ['Wheel', pair[0]!.rt.wheels]] as const) {
          const a = pair[0]!.world.c[name] as unknown as Record<string, Float64Array>, k = pair[1]!.world.c[name] as unknown as Record<string, Float64Array>;
          for (const f of Object.keys(a)) for (const e of eids) if (!Object.is(a[f]![e], k[f]![e])) differ.push(`${name}.${f}[${e}]: TypeScript ${a[f]![e]}, kernel ${k[f]![e]}`);
        }
        expect(differ).toEqual([]);
      }),
      { numRuns: 400, seed: 19 },
    );
    expect(tireKernelOf(pair[1]!.world)).not.toBeNull();
  });

  it('keeps the TypeScript pass, with the same bits and a reason, where the components cannot be in a WebAssembly memory', () => {
    const spy = vi.spyOn(WebAssembly, 'Memory').mockImplementation(function noMemory(): never {
      throw new RangeError('WebAssembly.Memory(): could not allocate memory');
    });
    let hashes: string[];
    try {
      const world = createSimWorld({});
      expect(componentMemory(world.c)).toBeUndefined();
      expect(tireKernelOf(world)).toBeNull();
      expect(tireKernelError()).toMatch(/not in a WebAssembly memory/);
      hashes = drive('test-short', 'rally-awd', true, 1000, undefined, false);
    } finally {
      spy.mockRestore();
    }
    expect(hashes).toEqual(drive('test-short', 'rally-awd', false, 1000));
    setTireKernelEnabled(true);
    expect(tireKernelOf(createSimWorld({}))).not.toBeNull();
    expect(tireKernelError()).toBeNull();
  });

  it('keeps the TypeScript pass for a surface table longer than the kernel holds', () => {
    const world = createSimWorld({});
    const eid = spawnCar(world, loadBuiltinCar('rally-awd'), { x: 0, z: 0, heading: 0 });
    setSurfaces(world, Array.from({ length: 500 }, () => DEFAULT_SURFACES[1]!));
    const W = world.c.Wheel, w = carRuntime(world, eid).wheels[0]!;
    W.grounded[w] = 1;
    W.load[w] = 3000;
    W.ny[w] = 1;
    W.uy[w] = 0.01;
    tiresCar(world, carRuntime(world, eid));
    expect(tireKernelError()).toMatch(/500 rows, the kernel holds \d+/);
    expect(W.tireAxis[w]).toBeCloseTo(3000, 6); // the load along the (level) suspension axis
    expect(W.fy[w]).toBeGreaterThan(0); // the lateral bristles' force, from the TypeScript pass
  });

  it('is the module its AssemblyScript source compiles to (npm run build:wasm)', async () => {
    const bytes = await compileKernel(KERNELS.tires);
    expect(readFileSync(KERNELS.tires.module, 'utf8')).toBe(kernelModuleText(KERNELS.tires, bytes));
  }, 60_000);
});

