/**
 * Where edited car files meet the game (garage "apply", dev live reload), DOM-free.
 *
 * - `applyCarText(target, text, file)`: validate with the game loader; only a valid file reaches
 *   `reconfigureCar` (a running car) — an invalid one returns its problems and the old car keeps driving.
 * - Car overrides: the applied config of a car id (built-in or custom) that the game's car factory uses for
 *   the next session (`carOverride(id)`), so "apply" with no run in progress still takes effect.
 * - The live target: the car of the running session (`setLiveCar`), registered by the game loop.
 */
import type { SimWorld } from '../../ecs/world';
import type { CarConfig } from '../../content/car-schema';
import { checkCarDraft, type DraftProblem, type ReadExtends } from './car-draft';
import { reconfigureCar } from '../../systems/sim/vehicle/reconfigure';
import { carConfigSwapped } from '../../replay/car-swap';

export interface CarSwapTarget {
  world: SimWorld;
  eid: number;
  /** The car id the running car was built from (built-in id or "custom-…"). */
  carId: string;
  /** Called after the swap (views refresh what they derived from the config). */
  onSwapped?: (cfg: CarConfig) => void;
}

export type ApplyOutcome = { applied: true; config: CarConfig } | { applied: false; config: null; problems: DraftProblem[] };

/** The only path from car text to a running car. */
export function applyCarText(target: CarSwapTarget | null, text: string, file: string, readExtends?: ReadExtends): ApplyOutcome {
  const c = checkCarDraft(text, file, readExtends);
  if (!c.ok) return { applied: false, config: null, problems: c.problems };
  if (target) {
    reconfigureCar(target.world, target.eid, c.config);
    carConfigSwapped(target.world, target.eid, c.config, file, text, readExtends); // replays record the swap (issue 7)
    target.onSwapped?.(c.config);
  }
  return { applied: true, config: c.config };
}

export interface CarOverride {
  config: CarConfig;
  text: string;
  file: string;
}

const overrides = new Map<string, CarOverride>();
let live: CarSwapTarget | null = null;
type Listener = (carId: string, o: CarOverride | null) => void;
const listeners = new Set<Listener>();

export function setCarOverride(carId: string, o: CarOverride | null): void {
  if (o) overrides.set(carId, o);
  else overrides.delete(carId);
  for (const l of listeners) l(carId, o);
}

/** The applied config for `carId`, if the garage or a live reload replaced the file's version. */
export function carOverride(carId: string): CarOverride | undefined {
  return overrides.get(carId);
}

export function onCarOverride(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function setLiveCar(t: CarSwapTarget | null): void {
  live = t;
}

/**
 * Apply edited text for car `carId`: remembered as the override for new sessions and swapped into the
 * running car when the running car is that car. Invalid text changes nothing.
 */
export function applyToGame(carId: string, text: string, file: string, readExtends?: ReadExtends): ApplyOutcome & { swappedLive: boolean } {
  const target = live && live.carId === carId ? live : null;
  const r = applyCarText(target, text, file, readExtends);
  if (r.applied) setCarOverride(carId, { config: r.config, text, file });
  return { ...r, swappedLive: r.applied && target !== null };
}
