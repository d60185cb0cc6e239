/**
 * How cars enter a run world: a car is spawned from its embedded car file text (`loadCarConfig` with
 * `extends` resolved from the embedded files, never from disk), so editing a car file after recording
 * changes nothing in the replay. `place` (recovery) re-runs `spawnCar` in a scratch
 * world on the same ground and copies the fresh car state over, so a placed car is exactly a spawned car.
 */
import { hasComponent } from 'bitecs';
import type { SimWorld } from '../ecs/world';
import { spawnCar } from '../systems/sim/vehicle/prefab-car';
import { placeCarAtRest } from '../systems/sim/vehicle/recovery';
import { loadCarConfig } from '../content/car-load';
import { attachCarColliderFromConfig } from '../systems/sim/collision/car-collider';
import type { CarConfig } from '../content/car-schema';
import { reconfigureCar } from '../systems/sim/vehicle/reconfigure';
import { carRuntime, openSplit } from '../systems/sim/vehicle/registry';
import { applyCarDamage, type CarDamage } from '../systems/sim/collision/damage-state';

/** A car's start (or recovery) pose: position, m, and heading, rad. */
export interface CarPose {
  x: number;
  y: number;
  z: number;
  heading: number;
}

/** A car file and the files it extends, by name (a replay header car, a recorded config edit). */
export interface CarFilesSource {
  /** Name of the main car file inside `files`. */
  main: string;
  files: Record<string, string>;
}

/** One car of a run: its id, role, file texts and start pose (a replay header stores exactly this). */
export interface RunCar extends CarFilesSource {
  id: string;
  role: 'player' | 'ai';
  pose: CarPose;
  /** The damage the car starts with (a rally stage after the first); absent = undamaged. */
  damage?: CarDamage;
}

/** How cars enter a world (the vehicle cars below; tests may pass their own). */
export interface CarAdapter {
  /** Spawns the car from its embedded file text at its start pose; returns the car entity. */
  spawn(world: SimWorld, car: RunCar): number;
  /** Puts the car at rest at `pose` (recovery). */
  place(world: SimWorld, eid: number, pose: CarPose): void;
  /**
   * Gives the car the configuration of `source` (the same object always yields the same config object):
   * 'swap' = a recorded mid-run swap, applied exactly as the game applied it (state kept, reconfigured);
   * 'restore' = only the configuration, before a keyframe restore writes the state (seeking).
   * Adapters without it cannot play replays that contain config edits.
   */
  setConfig?(world: SimWorld, eid: number, source: CarFilesSource, how: 'swap' | 'restore'): void;
  /**
   * Parses the embedded car files of a header car or a config edit with the game's car loader (throws its
   * ContentError on a bad file): replays are checked with it before they run (`checkReplayCars`).
   */
  parse?(source: CarFilesSource & { id?: string }): unknown;
}

const parsed = new WeakMap<CarFilesSource, CarConfig>();

/**
 * Parses the embedded car text (clear ContentError naming the embedded file on bad text). One config object
 * per source object (a header car or a config edit), so restoring the same configuration twice gives the
 * same object.
 */
export function carConfigFromReplay(car: CarFilesSource & { id?: string }): CarConfig {
  const done = parsed.get(car);
  if (done) return done;
  const id = car.id ?? car.main;
  const main = car.files[car.main];
  if (main === undefined) throw new Error(`replay: car "${id}": main file "${car.main}" is not among the embedded files (${Object.keys(car.files).join(', ')})`);
  const cfg = loadCarConfig(main, car.main, (name) => {
    const t = car.files[name] ?? car.files[`${name}.toml`];
    if (t === undefined) throw new Error(`replay: car "${id}" extends "${name}", which is not embedded`);
    return t;
  });
  parsed.set(car, cfg);
  return cfg;
}

/** Collects a car file and the files it extends into the `files` map a replay embeds. */
export function embedCarFiles(main: string, text: string, read: (name: string) => string): Record<string, string> {
  const files: Record<string, string> = { [main]: text };
  // resolve extends by letting the loader ask for them
  loadCarConfig(text, main, (name) => {
    const t = read(name);
    files[name] = t;
    return t;
  });
  return files;
}

const configs = new WeakMap<SimWorld, Map<number, CarConfig>>();

export const vehicleCarAdapter: CarAdapter = {
  parse: carConfigFromReplay,
  spawn(world, car) {
    const cfg = carConfigFromReplay(car);
    const eid = spawnCar(world, cfg, { x: car.pose.x, z: car.pose.z, heading: car.pose.heading });
    // the game's cars carry a collider (crush, damage): same entity content in every world built from a replay
    attachCarColliderFromConfig(world, eid, cfg);
    if (car.damage) applyCarDamage(world, eid, car.damage);
    let m = configs.get(world);
    if (!m) configs.set(world, (m = new Map()));
    m.set(eid, cfg);
    return eid;
  },
  place(world, eid, pose: CarPose) {
    const cfg = configs.get(world)?.get(eid);
    if (!cfg) throw new Error(`replay: entity ${eid} is not a car spawned by the vehicle adapter`);
    placeCarAtRest(world, eid, cfg, pose);
  },
  setConfig(world, eid, source, how) {
    const cfg = carConfigFromReplay(source);
    if (how === 'swap') reconfigureCar(world, eid, cfg);
    else {
      const rt = carRuntime(world, eid);
      rt.cfg = cfg;
      rt.split = openSplit(cfg);
      // the collider's config-derived box (its crush state is restored by the keyframe that follows)
      if (hasComponent(world, eid, world.c.CarCollider)) attachCarColliderFromConfig(world, eid, cfg);
    }
    configs.get(world)?.set(eid, cfg);
  },
};

/**
 * A mid-run car swap in the game (garage "apply", dev live reload): later recoveries place the car with the
 * new configuration (the replay recorder records the edit: src/replay/car-swap.ts).
 */
export function setCarConfigOf(world: SimWorld, eid: number, cfg: CarConfig): void {
  configs.get(world)?.set(eid, cfg);
}

/** The config a car entity was spawned with by `vehicleCarAdapter` (viewers, ghosts), or undefined. */
export function carConfigOf(world: SimWorld, eid: number): CarConfig | undefined {
  return configs.get(world)?.get(eid);
}

/** A run car for a car file: its full text and the texts of every file it extends, embedded. */
export function replayCarFromText(o: { id: string; main: string; text: string; read: (name: string) => string; pose: CarPose; role?: 'player' | 'ai'; damage?: CarDamage }): RunCar {
  const car: RunCar = { id: o.id, role: o.role ?? 'player', main: o.main, files: embedCarFiles(o.main, o.text, o.read), pose: { ...o.pose } };
  if (o.damage) car.damage = { ...o.damage };
  return car;
}
