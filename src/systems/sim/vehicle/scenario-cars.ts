/**
 * Cars in headless scenarios (src/run/scenario.ts): spawning from `[[cars]]`, timed inputs, stage terrain,
 * and per-car trace fields (`<car id>.<field>`, e.g. "car.rpm", "car.fl.slip_ratio").
 */
import type { SimWorld } from '../../../ecs/world';
import { FlatGround, SlopeGround, type Ground } from '../../../ecs/ground';
import { quantizeInput, setInputSource, type InputSource, type QuantizedInput } from '../../../ecs/controls';
import { spawnCar } from './prefab-car';
import type { Scenario } from '../../../content/scenario-schema';
import { type CarConfig } from '../../../content/car-schema';
import { loadCarConfig } from '../../../content/car-load';
import { BUILTIN_CARS, loadBuiltinCar, readBuiltin } from '../../../content/cars/index';
import { surfaceIndex } from '../../../content/surfaces';
import { loadStage, parseStageToml, type Stage } from '../../../../terrain/stage';
import { TerrainError } from '../../../../terrain/errors';
import { MAX_PNG_FILE_BYTES } from '../../../../terrain/png-guard';
import { MAX_TOML_BYTES } from '../../../validate/bounded-parse';
import { StageGround } from './stage-ground';
import { readCarTelemetry, emptyTelemetry } from './telemetry';
import { dcos, dsin } from '../../../../terrain/dmath';

export interface ScenarioResources {
  /** Load a stage by id or directory (default: Node fs, src/content/stages/<id>/). */
  loadStage?: (nameOrDir: string) => Stage;
  /** Load a car by built-in id or file path (default: built-ins, then Node fs relative to the scenario). */
  loadCar?: (name: string) => CarConfig;
  /** Directory of the scenario file (for relative car paths). */
  baseDir?: string;
}

type NodeFs = typeof import('node:fs');
type NodePath = typeof import('node:path');
type NodeUrl = typeof import('node:url');

function nodeModules(): { fs: NodeFs; path: NodePath; url: NodeUrl } | null {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const fs = proc?.getBuiltinModule?.('node:fs') as NodeFs | undefined;
  const path = proc?.getBuiltinModule?.('node:path') as NodePath | undefined;
  const url = proc?.getBuiltinModule?.('node:url') as NodeUrl | undefined;
  return fs && path && url ? { fs, path, url } : null;
}

function defaultLoadStage(name: string): Stage {
  const n = nodeModules();
  if (!n) throw new Error(`terrain.stage: cannot load stage "${name}" here (no file access); pass loadStage`);
  const stagesDir = n.url.fileURLToPath(new URL('../../../content/stages/', import.meta.url));
  const dir = n.fs.existsSync(n.path.join(stagesDir, name, 'stage.toml')) ? n.path.join(stagesDir, name) : name;
  const tomlPath = n.path.join(dir, 'stage.toml');
  if (!n.fs.existsSync(tomlPath)) throw new Error(`terrain.stage: expected a shipped stage id or a stage directory, found "${name}"`);
  const read = (file: string, max: number): Uint8Array => {
    const size = n.fs.statSync(file).size; // checked before reading: a huge file is never loaded
    if (size > max) throw new TerrainError(file, '(file)', `a file of at most ${max} bytes`, `${size} bytes`);
    return new Uint8Array(n.fs.readFileSync(file));
  };
  const stageToml = new TextDecoder().decode(read(tomlPath, MAX_TOML_BYTES));
  const sc = parseStageToml(stageToml, tomlPath);
  const heightPng = read(n.path.join(dir, sc.heightmap.file), MAX_PNG_FILE_BYTES);
  return loadStage({ stageToml, heightPng, surfacePng: read(n.path.join(dir, sc.surface_map.file), MAX_PNG_FILE_BYTES) }, tomlPath);
}

function defaultLoadCar(name: string, baseDir?: string): CarConfig {
  if (BUILTIN_CARS.some((c) => c.id === name || c.file === name)) return loadBuiltinCar(name.replace(/\.toml$/, ''));
  const n = nodeModules();
  if (!n) throw new Error(`cars: "${name}" is not a built-in car (${BUILTIN_CARS.map((c) => c.id).join(', ')})`);
  const file = n.path.resolve(baseDir ?? '.', name);
  const dir = n.path.dirname(file);
  return loadCarConfig(n.fs.readFileSync(file, 'utf8'), file, (ext) => {
    const p = n.path.join(dir, ext);
    return n.fs.existsSync(p) ? n.fs.readFileSync(p, 'utf8') : readBuiltin(ext);
  });
}

/** The ground a scenario asks for; returns the stage too when there is one. */
export function scenarioGround(s: Scenario, res: ScenarioResources = {}): { ground: Ground; stage: Stage | null } {
  const t = s.terrain;
  if (t.kind === 'flat') return { ground: new FlatGround(t.height_m, surfaceIndex(t.surface)), stage: null };
  if (t.kind === 'slope') return { ground: new SlopeGround(t.grade, surfaceIndex(t.surface)), stage: null };
  const stage = (res.loadStage ?? defaultLoadStage)(t.stage);
  return { ground: StageGround.fromStage(stage), stage };
}

/** Timed inputs: each entry holds from t_s until the next; shift flags last one tick. */
export class TimedInput implements InputSource {
  private readonly entries: { t: number; q: QuantizedInput }[];
  private readonly shiftTicks = new Map<number, number>();
  constructor(inputs: Scenario['cars'][number]['inputs'], dt: number) {
    const sorted = [...inputs].sort((a, b) => a.t_s - b.t_s);
    const cur = { steer: 0, throttle: 0, brake: 0, clutch: 0, handbrake: 0 };
    this.entries = sorted.map((e) => {
      if (e.steer !== undefined) cur.steer = e.steer;
      if (e.throttle !== undefined) cur.throttle = e.throttle;
      if (e.brake !== undefined) cur.brake = e.brake;
      if (e.clutch !== undefined) cur.clutch = e.clutch;
      if (e.handbrake !== undefined) cur.handbrake = e.handbrake;
      if (e.shift_up || e.shift_down) this.shiftTicks.set(Math.round(e.t_s / dt), e.shift_up ? 1 : -1);
      return { t: e.t_s, q: quantizeInput({ ...cur }) };
    });
  }
  next(world: SimWorld): QuantizedInput {
    let q: QuantizedInput = { steer: 0, throttle: 0, brake: 0, clutch: 0, handbrake: 0, buttons: 0 };
    for (const e of this.entries) {
      if (e.t <= world.time + 1e-12) q = e.q;
      else break;
    }
    const sh = this.shiftTicks.get(world.tick);
    return sh ? { ...q, buttons: sh > 0 ? 1 : 2 } : q;
  }
}

export interface ScenarioEntityLike {
  id: string;
  eid: number;
  kind: string;
}

/** Spawn the scenario's cars; returns their entities (kind "car"). */
export function setupScenarioCars(world: SimWorld, s: Scenario, stage: Stage | null, ids: Set<string>, res: ScenarioResources = {}): ScenarioEntityLike[] {
  const out: ScenarioEntityLike[] = [];
  s.cars.forEach((c, i) => {
    if (ids.has(c.id)) throw new Error(`cars[${i}].id: "${c.id}" used twice`);
    ids.add(c.id);
    let cfg: CarConfig;
    try {
      cfg = res.loadCar ? res.loadCar(c.car) : defaultLoadCar(c.car, res.baseDir);
    } catch (e) {
      throw new Error(`cars[${i}].car: cannot load "${c.car}": ${(e as Error).message}`, { cause: e });
    }
    let x: number, z: number, heading: number;
    if (c.position_m) {
      [x, z] = c.position_m;
      heading = (c.heading_deg * Math.PI) / 180;
    } else if (stage) {
      // Start line, side by side 3 m apart.
      const p = stage.start;
      const off = (i - (s.cars.length - 1) / 2) * 3;
      x = p.x + dcos(p.heading) * off;
      z = p.z - dsin(p.heading) * off;
      heading = p.heading;
    } else {
      x = i * 4;
      z = 0;
      heading = (c.heading_deg * Math.PI) / 180;
    }
    const eid = spawnCar(world, cfg, { x, z, heading, speed: c.speed_m_s }, { autoClutch: c.auto_clutch, autoGear: c.auto_gear, gear: c.gear });
    setInputSource(world, eid, new TimedInput(c.inputs, world.dt));
    out.push({ id: c.id, eid, kind: 'car' });
  });
  return out;
}

const WHEELS: Record<string, number> = { fl: 0, fr: 1, rl: 2, rr: 3 };
const tel = emptyTelemetry();

type TelemetryField = (t: typeof tel) => number;
const CAR_FIELDS: Record<string, TelemetryField> = {
  speed_kmh: (t) => t.speedMs * 3.6,
  forward: (t) => t.forwardMs,
  rpm: (t) => t.rpm,
  gear: (t) => t.gear,
  throttle: (t) => t.throttle,
  brake: (t) => t.brake,
  handbrake: (t) => t.handbrake,
  steer: (t) => t.steer,
  clutch: (t) => t.clutch,
  clutch_locked: (t) => (t.clutchLocked ? 1 : 0),
  stalled: (t) => (t.engineStalled ? 1 : 0),
  lat_g: (t) => t.latG,
  long_g: (t) => t.longG,
  engine_load: (t) => t.engineLoad,
  engine_torque: (t) => t.engineTorqueNm,
};
const WHEEL_FIELDS: Record<string, (w: (typeof tel)['wheels'][number]) => number> = {
  slip_ratio: (w) => w.slipRatio,
  slip_angle: (w) => w.slipAngleRad,
  load: (w) => w.loadN,
  travel: (w) => w.travelM,
  omega: (w) => w.omega,
  fx: (w) => w.fx,
  fy: (w) => w.fy,
  steer: (w) => w.steerRad,
  surface: (w) => w.surface,
  grounded: (w) => (w.grounded ? 1 : 0),
};

/** Trace resolver for car entities: "rpm", "gear", "fl.slip_ratio", "rr.load", "fl.travel", … */
export function carTraceField(kind: string, eid: number, field: string): ((w: SimWorld) => number) | null {
  if (kind !== 'car') return null;
  const f = CAR_FIELDS[field];
  if (f) return (w) => f(readCarTelemetry(w, eid, tel));
  const dot = field.indexOf('.');
  if (dot > 0) {
    const wi = WHEELS[field.slice(0, dot)];
    const wf = WHEEL_FIELDS[field.slice(dot + 1)];
    if (wi !== undefined && wf) return (w) => wf(readCarTelemetry(w, eid, tel).wheels[wi]!);
  }
  return null;
}

export const CAR_TRACE_FIELDS = [...Object.keys(CAR_FIELDS), ...Object.keys(WHEELS).flatMap((w) => Object.keys(WHEEL_FIELDS).map((f) => `${w}.${f}`))];
