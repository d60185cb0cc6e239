/**
 * Car catalogue and factories for the app, on the vehicle simulation (issue 4): BUILTIN_CARS configs,
 * spawnCar (automatic clutch and gearbox by default), readCarTelemetry for the views, and the collision
 * issue's CarCollider (residual crush per end drives the damage indicator and the dents).
 */
import type { SimWorld } from '../ecs/world';
import { BUILTIN_CARS, loadBuiltinCar } from '../content/cars';
import type { CarConfig } from '../content/car-schema';
import { carOverride } from './garage/live-car';
import { customCarConfig, drivableCustomIds, readAnyCar } from './garage/car-sources';
import { emptyTelemetry as emptyCarTelemetry, readCarTelemetry, type CarTelemetry } from '../systems/sim/vehicle/telemetry';
import { SURFACE_IDS } from '../../terrain/surface';
import type { CarInfo, CarTelemetryView, DrivableCar, Pose } from './car-link';
import type { CarShape } from '../systems/view/car-view';
import { carShapeOf } from '../systems/view/car/car-shape';
import { replayCarFromText, vehicleCarAdapter } from '../run/cars';
import { crc32 } from '../../terrain/crc32';
import { CarTestRunner } from './car-test/runner';
import carStats from './car-stats.json';
import type { CarAdapter } from '../run/cars';
import type { ReplayCar } from '../replay/format';

const configs = new Map<string, CarConfig>();
function config(id: string): CarConfig {
  // issue 9: the garage's "apply" / dev live reload, and custom cars (src/app/garage)
  const tuned = carOverride(id)?.config ?? customCarConfig(id);
  if (tuned) return tuned;
  let c = configs.get(id);
  if (!c) {
    c = loadBuiltinCar(id);
    configs.set(id, c);
  }
  return c;
}

const RAD_TO_RPM = 30 / Math.PI;

export function CARS(): CarInfo[] {
  return [...BUILTIN_CARS.map((b) => b.id), ...drivableCustomIds()].map((id) => {
    const c = config(id);
    const kw = Math.max(...c.engine.curveOmega.map((w, k) => (w * c.engine.curveTorque[k]!) / 1000));
    return {
      id,
      name: c.name,
      color: c.look.primary,
      stats: [
        ['Drive', c.drivetrain.layout.toUpperCase()],
        ['Power', `${Math.round(kw)} kW`],
        ['Torque', `${Math.round(c.engine.peakTorque)} N·m`],
        ['Mass', `${Math.round(c.body.massKg)} kg`],
        ['Power/mass', `${Math.round((kw * 1000) / c.body.massKg)} W/kg`],
        ['Gears', String(c.gearbox.forwardGears)],
        ['Redline', `${Math.round(c.engine.redline * RAD_TO_RPM)} rpm`],
      ],
    };
  });
}

/** The drawn shape of car `id` (the car select's turntable). */
export function carShape(id: string): CarShape {
  return carShapeOf(config(id));
}

/** Everything the game needs to put one car into a run: its replay header entry and its drivable view. */
export interface CarChoice {
  info: CarInfo;
  cfg: CarConfig;
  /** The header car of a replay (the car file text embedded, so a recording replays this exact car). */
  replayCar(pose: Pose): ReplayCar;
  /** The drivable wrapper for a car entity the adapter spawned (`cfg`: after a live swap, the new config). */
  wrap(world: SimWorld, eid: number, cfg?: CarConfig): DrivableCar;
}

/**
 * The game's car adapter for `buildRunWorld`: the replay vehicle adapter (spawn from the embedded car text,
 * with the collision issue's CarCollider from the same config: crush, scenery impacts), so a replay of a
 * game run builds exactly the same entities.
 */
export const gameCarAdapter: CarAdapter = vehicleCarAdapter;

export function carChoice(id: string): CarChoice {
  const infos = CARS();
  const info = infos.find((c) => c.id === id) ?? infos[0]!;
  const cfg = config(info.id);
  // the text the run is driven with: the garage's applied override, a custom car, or the built-in file
  // (replays embed it, and the run world is spawned from it, so what is driven is what is recorded)
  const builtin = BUILTIN_CARS.find((b) => b.id === info.id);
  const ov = carOverride(info.id);
  const src = ov ? { file: ov.file, text: ov.text } : builtin ? { file: builtin.file, text: builtin.text } : { file: `${info.id}.toml`, text: readAnyCar(`${info.id}.toml`) };
  return {
    info,
    cfg,
    replayCar: (pose) => replayCarFromText({ id: info.id, main: src.file, text: src.text, read: readAnyCar, pose: { x: pose.x, y: pose.y, z: pose.z, heading: pose.heading } }),
    wrap: (world, eid, swapped) => drivable(world, eid, info, swapped ?? cfg),
  };
}

/** The drivable view of a car entity (the game's cars, and replay cars with `place` refused: src/app/replay/replay-car.ts). */
export function drivable(_world: SimWorld, eid: number, info: CarInfo, cfg: CarConfig, place?: DrivableCar['place']): DrivableCar {
  const shape = carShapeOf(cfg);
  const tele: CarTelemetry = emptyCarTelemetry();
  const redline = cfg.engine.redline * RAD_TO_RPM;
  const limiter = cfg.engine.limiter * RAD_TO_RPM;
  const staticTravel = cfg.wheels.map((w) => w.staticTravel);
  const counts = new Array<number>(SURFACE_IDS.length).fill(0);
  return {
    eid,
    info,
    shape,
    // a placed car is exactly a freshly spawned car at that pose (the replay adapter's place), crush kept
    place: place ?? ((w, p) => gameCarAdapter.place(w, eid, { x: p.x, y: p.y, z: p.z, heading: p.heading })),
    readTelemetry: (w: SimWorld, out: CarTelemetryView) => {
        readCarTelemetry(w, eid, tele);
        out.speedMS = tele.speedMs;
        out.rpm = tele.rpm;
        out.redlineRpm = redline;
        out.maxRpm = Math.max(limiter, redline) * 1.05;
        out.gear = tele.gear;
        // the gearbox state (src/systems/sim/vehicle/drivetrain.ts startShift): neutral until the timer runs out
        out.shiftTo = w.c.Car.shiftTimer[eid]! > 0 ? w.c.Car.shiftTarget[eid]! : null;
        out.throttle = tele.throttle;
        out.brake = tele.brake;
        let slip = 0;
        let grounded = 0;
        counts.fill(0);
        for (let i = 0; i < 4; i++) {
          const wt = tele.wheels[i]!;
          const o = out.wheels[i]!;
          o.steer = wt.steerRad;
          o.spin = wt.spinAngleRad;
          o.travel = wt.travelM - staticTravel[i]!;
          if (wt.grounded) {
            grounded++;
            counts[wt.surface] = (counts[wt.surface] ?? 0) + 1;
            // combined slip measure: |κ| and |tan α| (both ~0.1–0.2 at peak grip)
            slip = Math.max(slip, Math.hypot(wt.slipRatio, Math.tan(Math.min(1.4, Math.abs(wt.slipAngleRad)))));
          }
        }
        out.slip = slip;
        out.contact = grounded / 4;
        let best = 0;
        for (let s = 1; s < counts.length; s++) if (counts[s]! > counts[best]!) best = s;
        out.surface = SURFACE_IDS[best] ?? 'gravel';
        const cc = w.c.CarCollider;
        // crush (m) → 0..1 per corner: front/rear end crush shared by the two corners of that end, plus the side
        const f = cc.crushF[eid]!, r = cc.crushR[eid]!, l = cc.crushL[eid]!, rt = cc.crushRt[eid]!;
        const k = (m: number): number => Math.min(1, m / 0.3);
        out.damage[0] = k(Math.max(f, l));
        out.damage[1] = k(Math.max(f, rt));
        out.damage[2] = k(Math.max(r, l));
        out.damage[3] = k(Math.max(r, rt));
      },
  };
}

/** Car test result rows as the car select shows them. */
export type StatRow = [string, string];

const STAT_LABELS: [RegExp, string, (v: number) => string][] = [
  [/^0-100/, '0–100 km/h', (v) => `${v.toFixed(1)} s`],
  [/^top speed/, 'Top speed', (v) => `${Math.round(v)} km/h`],
  [/^100-0/, '100–0 km/h', (v) => `${v.toFixed(1)} m`],
  [/lateral/, 'Max lateral', (v) => `${v.toFixed(2)} g`],
];

function statRows(results: readonly { name: string; value: number }[]): StatRow[] {
  const rows: StatRow[] = [];
  for (const [re, label, fmt] of STAT_LABELS) {
    const r = results.find((x) => re.test(x.name));
    if (r && Number.isFinite(r.value)) rows.push([label, fmt(r.value)]);
  }
  return rows;
}

let runner: CarTestRunner | null = null;
const statsCache = new Map<string, Promise<StatRow[]>>();

/**
 * Car test numbers for the car select (tarmac, 500 Hz): from src/app/car-stats.json when the car file is
 * unchanged since it was generated (CRC-32 of the text), otherwise measured now in the car test worker.
 */
export function carTestStats(id: string): Promise<StatRow[]> {
  let p = statsCache.get(id);
  if (p) return p;
  const b = BUILTIN_CARS.find((x) => x.id === id);
  if (!b) return Promise.resolve([]);
  const pre = (carStats as Record<string, { crc32: number; results: { name: string; value: number }[] } | undefined>)[id];
  if (pre && pre.crc32 === crc32(new TextEncoder().encode(b.text))) p = Promise.resolve(statRows(pre.results));
  else {
    runner ??= new CarTestRunner();
    p = runner.run(config(id), b.text).then(statRows);
  }
  statsCache.set(id, p);
  return p;
}
