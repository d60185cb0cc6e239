/**
 * THE step of a run: one pipeline tick, then what the run's owner attached to watch it, in this order: the
 * replay recorder (checksums, keyframes), a replay player's checksum check, telemetry. Observers see the
 * completed tick (world.tick = ticks completed) and only read the world.
 */
import type { SimWorld } from '../ecs/world';
import { runTick } from './pipeline';

/** Reads the world after each tick. */
export interface TickObserver {
  afterTick(world: SimWorld): void;
}

/** What a run's owner (game session, recorder run, replay player) attaches; each is optional. */
export interface RunObservers {
  recorder?: TickObserver | null;
  checker?: TickObserver | null;
  telemetry?: TickObserver | null;
}

const NONE: RunObservers = {};

export function stepRun(world: SimWorld, observers: RunObservers = NONE): void {
  runTick(world);
  notifyObservers(world, observers);
}

/** The observers' turn after a tick (a runner with more to step after the pipeline, the town's traffic, calls it last). */
export function notifyObservers(world: SimWorld, observers: RunObservers): void {
  observers.recorder?.afterTick(world);
  observers.checker?.afterTick(world);
  observers.telemetry?.afterTick(world);
}
