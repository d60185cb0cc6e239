/**
 * The vehicle car adapter for replays (and the live game): a replay car is spawned from its embedded car
 * file text (`loadCarConfig` with `extends` resolved from the embedded files, never from disk), so editing a
 * car file after recording changes nothing in the replay. `place` (recovery) re-runs `spawnCar` in a scratch
 * world on the same ground and copies the fresh car state over, so a placed car is exactly a spawned car.
 */
import { hasComponent } from 'bitecs';
import { spawnCar } from '../ecs/prefab-car';
import type { SimWorld } from '../ecs/world';
import { placeCarAtRest } from '../systems/sim/vehicle/recovery';
import { loadCarConfig } from '../content/car-load';
import { attachCarColliderFromConfig } from '../systems/sim/collision/car-collider';
import type { CarConfig } from '../content/car-schema';
import type { CarFilesSource, ReplayCar, ReplayPose } from './format';
import { reconfigureCar } from '../app/garage/reconfigure';
import { carRuntime, openSplit } from '../systems/sim/vehicle/registry';
import { recorderOf } from './recorder';
import { setDefaultCarAdapter, type CarAdapter } from './run-world';

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
    let m = configs.get(world);
    if (!m) configs.set(world, (m = new Map()));
    m.set(eid, cfg);
    return eid;
  },
  place(world, eid, pose: ReplayPose) {
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

setDefaultCarAdapter(vehicleCarAdapter);

/**
 * THE hook of a mid-run car swap in the game (garage "apply", dev live reload: src/app/garage/live-car.ts
 * calls it right after `reconfigureCar`): later recoveries place the car with the new configuration, and the
 * recorder attached to the world (if any) records a config edit with the new file text and every file it
 * extends, at this tick, in order with the other edits.
 */
export function carConfigSwapped(world: SimWorld, eid: number, cfg: CarConfig, file: string, text: string, read?: (name: string) => string): void {
  configs.get(world)?.set(eid, cfg);
  const files = embedCarFiles(file, text, read ?? ((name) => { throw new Error(`car swap: ${file} extends "${name}" but no file reader was given`); }));
  recorderOf(world)?.configEdit(eid, { main: file, files });
}

/** The config a car entity was spawned with by `vehicleCarAdapter` (viewers, ghosts), or undefined. */
export function carConfigOf(world: SimWorld, eid: number): CarConfig | undefined {
  return configs.get(world)?.get(eid);
}

/** A header car for a car file: its full text and the texts of every file it extends, embedded. */
export function replayCarFromText(o: { id: string; main: string; text: string; read: (name: string) => string; pose: ReplayPose; role?: 'player' | 'ai' }): ReplayCar {
  return { id: o.id, role: o.role ?? 'player', main: o.main, files: embedCarFiles(o.main, o.text, o.read), pose: { ...o.pose } };
}
