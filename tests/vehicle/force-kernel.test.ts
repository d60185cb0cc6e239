import { describe, it, expect, vi, afterEach, beforeAll } from 'vitest';
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
import { tiresCar } from '../../src/systems/sim/vehicle/tires';
import { brakesAeroCar } from '../../src/systems/sim/vehicle/brakes-aero';
import { unsprungCar } from '../../src/systems/sim/vehicle/unsprung';
import { clearDriveSums, suspensionCar } from '../../src/systems/sim/vehicle/suspension-contact';
import { drivelineAccelerations } from '../../src/systems/sim/vehicle/vehicle-block';
import { forceStage } from '../../src/ecs/ground';
import { forceKernelError, forceKernelOf, loadForceKernel, prepareForceKernel, runForceKernel, setForceKernelEnabled } from '../../src/systems/sim/vehicle/force-kernel';
import { runTick } from '../../src/run/pipeline';
import { stateHash } from '../../src/ecs/hash';
import { compileKernel, KERNELS, kernelModuleText } from '../../terrain/wasm/build';
import { LazyKernel } from '../../terrain/wasm/compile';
import { FORCES_WASM_BASE64 } from '../../src/systems/sim/vehicle/wasm/forces-wasm';
import { STEER_SCALE, PEDAL_SCALE } from '../../src/ecs/controls';

/**
 * The WebAssembly force passes 2 and 4–5b (src/systems/sim/vehicle/force-kernel.ts, wasm/assembly/forces.ts) against
 * the TypeScript passes they port (`suspensionCar`, `tiresCar`, `brakesAeroCar`, `unsprungCar`): the same bits, on whole runs (state
 * hashes) and on one evaluation from arbitrary states (every field the passes write, Object.is).
 */
const STAGES = join(__dirname, '../../src/content/stages');

beforeAll(loadForceKernel);
afterEach(() => setForceKernelEnabled(true));

/** A car on `stage` driven by a scripted input (throttle, braking, handbrake, a slalom), in a world of its own. */
function drive(
  stageName: string,
  carId: string,
  kernel: boolean,
  ticks: number,
  midRun?: (world: SimWorld, eid: number) => void,
  expectKernel = kernel,
  atStart?: (world: SimWorld) => void,
  onTick?: (tick: number) => void,
): string[] {
  setForceKernelEnabled(kernel);
  const stage = loadStageFromDir(join(STAGES, stageName));
  const world = createSimWorld({ ground: StageGround.fromStage(stage) });
  const s = stage.start;
  const eid = spawnCar(world, loadBuiltinCar(carId), { x: s.x, z: s.z, heading: s.heading });
  const held = new HeldInput();
  setInputSource(world, eid, held);
  atStart?.(world);
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
    onTick?.(k);
    runTick(world);
    if (k % 250 === 249) hashes.push(stateHash(world));
  }
  if (expectKernel) expect(forceKernelOf(world), forceKernelError() ?? '').not.toBeNull();
  return hashes;
}

describe('force kernel (WebAssembly): wheel contact and suspension, tyres, brakes and aero, wheel travel', () => {
  it('compiles and runs here, reading the components in place', () => {
    const world = createSimWorld({});
    expect(componentMemory(world.c)).toBeDefined();
    expect(forceKernelOf(world)).not.toBeNull();
    expect(forceKernelError()).toBeNull();
  });

  it("gives the TypeScript passes' bits over whole runs: every shipped car, gravel, tarmac and snow stages", () => {
    for (const [stage, car] of [['test-short', 'rally-awd'], ['col-tarmac', 'hatch-gti'], ['snow-ridge', 'classic-rwd']] as const) {
      expect(drive(stage, car, true, 3000), `${car} on ${stage}`).toEqual(drive(stage, car, false, 3000));
    }
  });

  it('follows a new surface table and a new car config in mid-run with the same bits', () => {
    const swap = (world: SimWorld, eid: number): void => {
      setSurfaces(world, DEFAULT_SURFACES.map((s) => ({ ...s, muStatic: s.muStatic * 0.8, stiffnessScale: s.stiffnessScale * 1.2 })));
      const cfg = loadBuiltinCar('rally-awd');
      // the tyres and the engine's inertia (the driveline's rows change while the gear and efficiency stay)
      reconfigureCar(world, eid, {
        ...cfg,
        tires: { ...cfg.tires, front: { ...cfg.tires.front, grip: 0.9 * cfg.tires.front.grip, radius: 1.05 * cfg.tires.front.radius } },
        engine: { ...cfg.engine, inertia: 1.3 * cfg.engine.inertia },
      });
    };
    const withKernel = drive('test-short', 'rally-awd', true, 2000, swap);
    expect(withKernel).toEqual(drive('test-short', 'rally-awd', false, 2000, swap));
    expect(withKernel).not.toEqual(drive('test-short', 'rally-awd', false, 2000));
  });

  it('keeps the same bits when a world goes from the kernel to the TypeScript passes and back (steering all along)', () => {
    // the TypeScript passes move the car's steer sin/cos cache while the kernel's slots stand still
    const toggled = drive('test-short', 'rally-awd', true, 3000, undefined, true, undefined, (k) => setForceKernelEnabled(k < 700 || k >= 1900));
    expect(toggled).toEqual(drive('test-short', 'rally-awd', false, 3000));
  });

  it("gives the TypeScript passes' bits from any state, at both midpoint stages: every field they write, for any doubles (NaN, ±Infinity, −0)", () => {
    const stage = loadStageFromDir(join(STAGES, 'test-short'));
    const s0 = stage.start;
    const pair = [0, 1].map(() => {
      const world = createSimWorld({ ground: StageGround.fromStage(stage) });
      const eid = spawnCar(world, loadBuiltinCar('rally-awd'), { x: s0.x, z: s0.z, heading: s0.heading });
      return { world, rt: carRuntime(world, eid) };
    });
    const h0 = pair[0]!.world.c.RigidBody.py[pair[0]!.rt.eid]!;
    // mostly finite state (so every branch is reached), with any double (NaN, ±Infinity, −0, 1e300) mixed in
    const num = fc.oneof({ arbitrary: fc.double({ min: -50, max: 50, noNaN: true }), weight: 12 }, { arbitrary: fc.double(), weight: 1 }, { arbitrary: fc.constantFrom(0, -0, 1), weight: 1 });
    const BODY = ['R0', 'R1', 'R2', 'R3', 'R4', 'R5', 'R6', 'R7', 'R8', 'px', 'py', 'pz', 'vx', 'vy', 'vz', 'wx', 'wy', 'wz', 'fx', 'fy', 'fz', 'tx', 'ty', 'tz', 'mass', 'gravity'] as const;
    const WHEEL = ['omega', 'ux', 'uy', 'steer', 'travel', 'travelRate'] as const;
    const nums = (n: number): fc.Arbitrary<number[]> => fc.array(num, { minLength: n, maxLength: n });
    const wheel = fc.record({ f: nums(WHEEL.length), surface: fc.integer({ min: -2, max: 7 }) });
    const pedals = fc.record({ brake: fc.double({ min: 0, max: 1, noNaN: true }), hand: fc.constantFrom(0, 1, 0.5), abs: fc.integer({ min: 0, max: 2 }) });
    // between the stages the body moves (horizontally up to 0.4 m: past the patch's 0.25 m reach at times)
    const mm = (max: number): fc.Arbitrary<number> => fc.integer({ min: -max, max }).map((v) => v / 1000);
    const move = fc.record({ dx: mm(400), dz: mm(400), dy: mm(50) });
    const setState = (body: number[], wheels: { f: number[]; surface: number }[], p: { brake: number; hand: number; abs: number }): void => {
      for (const { world, rt } of pair) {
        const b = world.c.RigidBody, W = world.c.Wheel;
        BODY.forEach((f, i) => (b[f][rt.eid] = body[i]!));
        // near the stage's start, the wheels between well above and well into the ground (the travel scaled to m)
        b.px[rt.eid] = s0.x + body[9]! * 0.2;
        b.py[rt.eid] = h0 + body[10]! * 0.01;
        b.pz[rt.eid] = s0.z + body[11]! * 0.2;
        world.c.Controls.brake[rt.eid] = p.brake;
        world.c.Controls.handbrake[rt.eid] = p.hand;
        world.c.Car.abs[rt.eid] = p.abs;
        rt.wheels.forEach((w, j) => {
          WHEEL.forEach((f, i) => (W[f][w] = wheels[j]!.f[i]!));
          W.travel[w] = wheels[j]!.f[4]! * 0.004;
          W.surface[w] = wheels[j]!.surface;
        });
      }
    };
    const evaluate = (): string[] => {
      const [js, wasm] = pair as [(typeof pair)[0], (typeof pair)[0]];
      suspensionCar(js.world, js.rt);
      tiresCar(js.world, js.rt);
      brakesAeroCar(js.world, js.rt);
      unsprungCar(js.world, js.rt);
      const k = forceKernelOf(wasm.world)!;
      expect(prepareForceKernel(k, wasm.world, wasm.rt)).toBe(true);
      clearDriveSums(wasm.world, wasm.rt);
      runForceKernel(k, wasm.world, wasm.rt);
      const differ: string[] = [];
      for (const [name, eids] of [['RigidBody', [js.rt.eid]], ['Car', [js.rt.eid]], ['Wheel', js.rt.wheels]] as const) {
        const a = js.world.c[name] as unknown as Record<string, Float64Array>, k = wasm.world.c[name] as unknown as Record<string, Float64Array>;
        for (const f of Object.keys(a)) for (const e of eids) if (!Object.is(a[f]![e], k[f]![e])) differ.push(`${name}.${f}[${e}]: TypeScript ${a[f]![e]}, kernel ${k[f]![e]}`);
      }
      return differ;
    };
    fc.assert(
      fc.property(nums(BODY.length), fc.array(wheel, { minLength: 4, maxLength: 4 }), pedals, move, (body, wheels, p, m) => {
        setState(body, wheels, p);
        forceStage.midpointStage = false; // the start-of-step evaluation samples each wheel's ground patch
        try {
          expect(evaluate()).toEqual([]);
          for (const { world, rt } of pair) {
            const b = world.c.RigidBody;
            b.px[rt.eid] = b.px[rt.eid]! + m.dx;
            b.py[rt.eid] = b.py[rt.eid]! + m.dy;
            b.pz[rt.eid] = b.pz[rt.eid]! + m.dz;
          }
          forceStage.midpointStage = true; // the midpoint stage reads the patches (or samples past their reach)
          expect(evaluate()).toEqual([]);
        } finally {
          forceStage.midpointStage = false;
        }
      }),
      { numRuns: 1500, seed: 19 },
    );
    expect(forceKernelOf(pair[1]!.world)).not.toBeNull();
  });

  it("gives the TypeScript driveline solve's bits from any state: clutch, clutch-pack, locked and open diffs, slipping or not", () => {
    const base = loadBuiltinCar('rally-awd');
    const diff = (type: 'clutch' | 'locked' | 'open', preloadNm: number) => ({ ...base.drivetrain.frontDiff, kind: type, preloadNm });
    const variants = [
      base,
      { ...base, drivetrain: { ...base.drivetrain, frontDiff: diff('locked', 0), rearDiff: diff('locked', 0), centreDiff: diff('locked', 0) } },
      { ...base, drivetrain: { ...base.drivetrain, frontDiff: diff('open', 0), rearDiff: diff('locked', 0), centreDiff: diff('clutch', 40) } },
      loadBuiltinCar('hatch-gti'),
    ];
    const pairs = variants.map((cfg) =>
      [0, 1].map(() => {
        const world = createSimWorld({});
        const eid = spawnCar(world, cfg, { x: 0, z: 0, heading: 0 });
        return { world, rt: carRuntime(world, eid) };
      }),
    );
    const num = fc.oneof({ arbitrary: fc.double({ min: -400, max: 400, noNaN: true }), weight: 12 }, { arbitrary: fc.double(), weight: 1 }, { arbitrary: fc.constantFrom(0, -0), weight: 1 });
    const nums = (n: number): fc.Arbitrary<number[]> => fc.array(num, { minLength: n, maxLength: n });
    const state = fc.record({
      variant: fc.integer({ min: 0, max: variants.length - 1 }),
      wheels: nums(12), // ω, torque, drive torque per wheel
      car: nums(6), // ω_e, engine torque sum, clutch torque, diff inputs front, rear, centre
      gear: fc.integer({ min: -2, max: 8 }),
      clutchCapacity: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 900, noNaN: true })),
      autoGear: fc.integer({ min: 0, max: 1 }),
    });
    const CAR = ['omegaE', 'engineAcc', 'clutchTorque', 'diffInFront', 'diffInRear', 'diffInCentre'] as const;
    fc.assert(
      fc.property(state, (st) => {
        const pair = pairs[st.variant]!;
        for (const { world, rt } of pair) {
          const W = world.c.Wheel, C = world.c.Car;
          rt.wheels.forEach((w, j) => {
            W.omega[w] = st.wheels[j]!;
            W.torque[w] = st.wheels[4 + j]!;
            W.driveTorque[w] = st.wheels[8 + j]!;
          });
          CAR.forEach((f, i) => (C[f][rt.eid] = st.car[i]!));
          C.gear[rt.eid] = st.gear;
          C.clutchCapacity[rt.eid] = st.clutchCapacity;
          C.autoGear[rt.eid] = st.autoGear;
        }
        const [js, wasm] = pair as [(typeof pair)[0], (typeof pair)[0]];
        const outJs = new Float64Array(5), outWasm = new Float64Array(5);
        setForceKernelEnabled(false);
        drivelineAccelerations(js.world, js.rt, outJs);
        setForceKernelEnabled(true);
        expect(prepareForceKernel(forceKernelOf(wasm.world)!, wasm.world, wasm.rt)).toBe(true);
        drivelineAccelerations(wasm.world, wasm.rt, outWasm);
        const differ: string[] = [];
        for (let i = 0; i < 5; i++) if (!Object.is(outJs[i], outWasm[i])) differ.push(`q̈[${i}]: TypeScript ${outJs[i]}, kernel ${outWasm[i]}`);
        for (const [name, eids] of [['Car', [js.rt.eid]], ['Wheel', js.rt.wheels]] as const) {
          const a = js.world.c[name] as unknown as Record<string, Float64Array>, k = wasm.world.c[name] as unknown as Record<string, Float64Array>;
          for (const f of Object.keys(a)) for (const e of eids) if (!Object.is(a[f]![e], k[f]![e])) differ.push(`${name}.${f}[${e}]: TypeScript ${a[f]![e]}, kernel ${k[f]![e]}`);
        }
        expect(differ).toEqual([]);
      }),
      { numRuns: 3000, seed: 23 },
    );
  });

  it('keeps the TypeScript passes, with the same bits and a reason, where the components cannot be in a WebAssembly memory', () => {
    const spy = vi.spyOn(WebAssembly, 'Memory').mockImplementation(function noMemory(): never {
      throw new RangeError('WebAssembly.Memory(): could not allocate memory');
    });
    let hashes: string[];
    try {
      const world = createSimWorld({});
      expect(componentMemory(world.c)).toBeUndefined();
      expect(forceKernelOf(world)).toBeNull();
      expect(forceKernelError()).toMatch(/not in a WebAssembly memory/);
      hashes = drive('test-short', 'rally-awd', true, 1000, undefined, false);
    } finally {
      spy.mockRestore();
    }
    expect(hashes).toEqual(drive('test-short', 'rally-awd', false, 1000));
    setForceKernelEnabled(true);
    expect(forceKernelOf(createSimWorld({}))).not.toBeNull();
    expect(forceKernelError()).toBeNull();
  });

  it('keeps the TypeScript passes for a surface table longer than the kernel holds', () => {
    const long = Array.from({ length: 500 }, (_, i) => DEFAULT_SURFACES[i % DEFAULT_SURFACES.length]!);
    const run = (kernel: boolean): string[] =>
      drive('test-short', 'rally-awd', kernel, 500, undefined, false, (world) => setSurfaces(world, long));
    const withKernel = run(true);
    expect(forceKernelError()).toMatch(/500 rows, the kernel holds \d+/);
    expect(withKernel).toEqual(run(false));
  });

  it('loads its module from a lazy chunk: none until it has arrived, then compiled; a chunk that fails says so', async () => {
    let arrive: (text: string) => void = () => {};
    const later = new LazyKernel(() => new Promise<string>((resolve) => (arrive = resolve)));
    expect(later.module()).toBeUndefined(); // the first call starts the load
    expect(later.error()).toBeNull();
    arrive(FORCES_WASM_BASE64);
    await later.load();
    expect(later.module()).toBeInstanceOf(WebAssembly.Module);
    const lost = new LazyKernel(() => Promise.reject(new Error('network down')));
    await lost.load();
    expect(lost.module()).toBeNull();
    expect(lost.error()).toMatch(/chunk did not load: network down/);
  });

  it('is the module its AssemblyScript source compiles to (npm run build:wasm)', async () => {
    const bytes = await compileKernel(KERNELS.forces);
    expect(readFileSync(KERNELS.forces.module, 'utf8')).toBe(kernelModuleText(KERNELS.forces, bytes));
  }, 60_000);
});

