import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compareRuns, firstPassage } from '../../src/app/telemetry/compare';
import { TelemetryRing } from '../../src/app/telemetry/ring';
import { RunLog, runChannel } from '../../src/app/telemetry/run-log';
import { CH, NCH, TelemetrySampler } from '../../src/app/telemetry/channels';
import { createSimWorld } from '../../src/ecs/world';
import { setAppliedForce, spawnBody } from '../../src/ecs/prefabs';
import { runTick } from '../../src/run/pipeline';
import { stepRun } from '../../src/run/step';

/** Samples of a run with distance d(t), every h seconds for T seconds. */
function run(d: (t: number) => number, h: number, T: number, extra?: (t: number) => number) {
  const t: number[] = [], dist: number[] = [], ch: number[] = [];
  for (let i = 0; i * h <= T + 1e-12; i++) {
    t.push(i * h);
    dist.push(d(i * h));
    ch.push(extra ? extra(i * h) : 0);
  }
  return { t, dist, channels: { speed: ch } };
}

describe('run comparison by distance', () => {
  it('constant speeds: Δ(x) = x/vB − x/vA exactly (linear T is interpolated exactly)', () => {
    const a = run((t) => 20 * t, 0.05, 30);
    const b = run((t) => 25 * t, 0.05, 30);
    const c = compareRuns(a, b, 5);
    expect(c.x[0]).toBe(0);
    expect(c.x[c.x.length - 1]).toBe(600); // both covered [0, 600]
    for (let i = 0; i < c.x.length; i++) expect(c.delta[i]).toBeCloseTo(c.x[i]! / 25 - c.x[i]! / 20, 9);
    expect(c.channels['speed']![0].length).toBe(c.x.length);
  });

  it('accelerating runs: T(x) = √(2x/a); error within the linear-interpolation bound h_d²/8·max|T″|', () => {
    const aA = 3, aB = 4, h = 0.1, T = 20;
    const A = run((t) => 0.5 * aA * t * t, h, T, (t) => aA * t);
    const B = run((t) => 0.5 * aB * t * t, h, T, (t) => aB * t);
    const c = compareRuns(A, B, 2);
    const x0 = c.x[0]!;
    expect(x0).toBe(0);
    for (let i = 1; i < c.x.length; i++) {
      const x = c.x[i]!;
      const exact = Math.sqrt((2 * x) / aB) - Math.sqrt((2 * x) / aA);
      // T″(x) = −(2a)^{-1/2}·x^{-3/2}/2·… bounded on the sample interval containing x: use the interval start.
      const tol = (xi: number, a: number): number => {
        const tk = Math.floor(Math.sqrt((2 * xi) / a) / h) * h; // sample before x
        const dk = 0.5 * a * tk * tk, dk1 = 0.5 * a * (tk + h) ** 2;
        const lo = Math.max(dk, 1e-9);
        const t2 = Math.sqrt(2 / a) * 0.25 * lo ** -1.5; // max |T″| on [dk, dk1]
        return ((dk1 - dk) ** 2 / 8) * t2;
      };
      expect(Math.abs(c.delta[i]! - exact)).toBeLessThanOrEqual(tol(x, aA) + tol(x, aB) + 1e-12);
      // speed channel overlaid at the same distance: v = √(2ax), linear in t so exact at sample points only
      expect(c.channels['speed']![0][i]).toBeCloseTo(Math.sqrt(2 * aA * x), 0);
    }
  });

  it('rolling back does not count: first passage of each distance', () => {
    // forward to 50 m, back to 30 m, forward to 100 m
    const dist = [0, 10, 20, 30, 40, 50, 40, 30, 35, 45, 55, 70, 100];
    const fp = firstPassage(dist);
    expect([...fp.d]).toEqual([0, 10, 20, 30, 40, 50, 55, 70, 100]);
    expect([...fp.idx]).toEqual([0, 1, 2, 3, 4, 5, 10, 11, 12]);
    const t = dist.map((_, i) => i);
    const c = compareRuns({ t, dist }, { t: [0, 10], dist: [0, 100] }, 10);
    // A reaches 52.5 m at t = 5 + (52.5−50)/(55−50)·(10−5) = 7.5
    const k = [...c.x].indexOf(50);
    expect(c.tA[k]).toBe(5);
    expect(c.tA[k + 1]).toBeCloseTo(10 + (60 - 55) / 15, 12);
  });

  it('property: Δ is antisymmetric and zero against itself', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0.1, max: 30, noNaN: true }), { minLength: 3, maxLength: 60 }), fc.array(fc.double({ min: 0.1, max: 30, noNaN: true }), { minLength: 3, maxLength: 60 }), (va, vb) => {
        const mk = (v: number[]) => {
          const t = [0], dist = [0];
          for (const s of v) {
            t.push(t[t.length - 1]! + 0.1);
            dist.push(dist[dist.length - 1]! + s * 0.1);
          }
          return { t, dist };
        };
        const A = mk(va), B = mk(vb);
        const ab = compareRuns(A, B, 0.5), ba = compareRuns(B, A, 0.5), aa = compareRuns(A, A, 0.5);
        for (let i = 0; i < ab.x.length; i++) expect(ab.delta[i]).toBeCloseTo(-ba.delta[i]!, 9);
        for (const d of aa.delta) expect(d).toBe(0);
      }),
      { numRuns: 100 },
    );
  });
});

describe('telemetry buffers', () => {
  it('ring keeps the newest samples in order and windows by time', () => {
    const r = new TelemetryRing(10, 2);
    for (let i = 0; i < 25; i++) r.push([i * 0.1, i]);
    expect(r.count).toBe(10);
    expect(r.at(0, 1)).toBe(15);
    expect(r.at(9, 1)).toBe(24);
    const [t, v] = r.window(0, 0.45, [0, 1]);
    expect([...v!]).toEqual([20, 21, 22, 23, 24]);
    expect(t![0]).toBeCloseTo(2.0, 12);
  });

  it('run log decimates, stores channel-major and reads channels back', () => {
    const log = new RunLog(3, 2);
    const s = new Float64Array(NCH);
    for (let i = 0; i < 30; i++) {
      s[CH.t] = i / 120;
      s[CH.dist] = i * 0.25;
      log.offer(s);
    }
    expect(log.n).toBe(10);
    const st = log.toStored({ id: 'r1', stageId: 's', carId: 'c', label: 'x', timeS: null, carText: null, seq: 1 });
    expect(st.samples).toBe(10);
    expect([...runChannel(st, 'dist')!]).toEqual([0, 0.75, 1.5, 2.25, 3, 3.75, 4.5, 5.25, 6, 6.75]);
    expect(runChannel(st, 'nope')).toBeNull();
  });

  it('sampler: speed and body-frame g of a body under a known force (a = F/m)', () => {
    const world = createSimWorld({});
    // body yawed 90° about +Y (forward = body +Z → world +X, left = body +X → world −Z)
    const eid = spawnBody(world, { mass: 1000, inertia: [500, 500, 500], gravity: false, orientation: [Math.SQRT1_2, 0, Math.SQRT1_2, 0] });
    // 2 m/s² along world +X = forward; 0.981 m/s² along world +Z = to the car's right
    setAppliedForce(world, eid, [2000, 0, 981]);
    const s = new TelemetrySampler(eid);
    const out = new Float64Array(NCH);
    s.sample(world, 0, out);
    for (let i = 0; i < 60; i++) runTick(world);
    s.sample(world, 0, out);
    for (let i = 0; i < 60; i++) runTick(world);
    s.sample(world, 0, out);
    expect(out[CH.longG]).toBeCloseTo(2 / 9.81, 6);
    expect(out[CH.latG]).toBeCloseTo(-0.1, 6);
    expect(out[CH.speed]).toBeCloseTo(Math.hypot(2, 0.981) * world.time * 3.6, 6);
  });
});

describe('telemetry service: per-tick samples of a driving car, stored with the finished run', () => {
  it('samples every tick (after the pipeline, through the session observers), keeps distance and speed, stores the run log on finish', async () => {
    const { spawnCar } = await import('../../src/systems/sim/vehicle/prefab-car');
    const { loadBuiltinCar } = await import('../../src/content/cars/index');
    const { HeldInput, setInputSource } = await import('../../src/ecs/controls');
    const { TelemetryService } = await import('../../src/app/telemetry/service');
    const { listRuns } = await import('../../src/app/telemetry/run-store');
    const { runChannel: chan } = await import('../../src/app/telemetry/run-log');
    const world = createSimWorld({ integrator: 'midpoint' });
    const eid = spawnCar(world, loadBuiltinCar('rally-awd'), { x: 0, z: 0, heading: 0 });
    const input = new HeldInput();
    setInputSource(world, eid, input);
    input.input.throttle = 1000;
    const session = {
      world,
      car: { eid, info: { id: 'rally-awd' } },
      // straight road along +Z: distance = z
      stage: { id: 'straight', road: { project: (_x: number, z: number, out: { distanceM: number }) => ((out.distanceM = z), out) } },
      finished: false,
      run: { finishTimeS: null as number | null, timeS: 0 },
      observers: {},
    };
    const host = { session: null as typeof session | null };
    const svc = new TelemetryService(host);
    host.session = session;
    svc.poll();
    const ticks = Math.round(3 / world.dt);
    for (let i = 0; i < ticks; i++) stepRun(world, session.observers);
    expect(svc.ring.count).toBe(ticks);
    const last = svc.ring.count - 1;
    expect(svc.ring.at(last, CH.t)).toBeCloseTo(world.time, 12);
    expect(svc.ring.at(last, CH.dist)).toBe(world.c.RigidBody.pz[eid]);
    expect(svc.ring.at(last, CH.speed)).toBeCloseTo(Math.hypot(world.c.RigidBody.vx[eid]!, world.c.RigidBody.vy[eid]!, world.c.RigidBody.vz[eid]!) * 3.6, 9);
    expect(svc.ring.at(last, CH.speed)).toBeGreaterThan(20);
    // the wheels carry the car: Σ loads ≈ m g (±15 % while accelerating over 3 s: pitch dynamics)
    const sumLoad = ['fl', 'fr', 'rl', 'rr'].reduce((s, w) => s + svc.ring.at(last, CH[`load_${w}` as 'load_fl']), 0);
    expect(Math.abs(sumLoad / (loadBuiltinCar('rally-awd').body.massKg * 9.81) - 1)).toBeLessThan(0.15);
    session.finished = true;
    session.run.finishTimeS = world.time;
    const saved = new Promise<string>((res) => (svc.onRunSaved = res));
    svc.poll();
    const id = await saved;
    const run = (await listRuns()).find((r) => r.id === id)!;
    expect(run.stageId).toBe('straight');
    expect(run.samples).toBe(Math.ceil(ticks / 6));
    const d = chan(run, 'dist')!;
    for (let i = 1; i < d.length; i++) expect(d[i]!).toBeGreaterThanOrEqual(d[i - 1]! - 1e-3); // accelerating forward
    svc.dispose();
  });
});
