/**
 * The suspension spring law, shared by the simulation and the car loader (static travel); kept apart from the
 * car schema so the simulation (and the car-test worker) do not load zod.
 */
import type { SuspensionConfig } from './car-schema';

/** Spring force at compression s (without anti-roll): progressive spring + bump stop. */
export function springForce(s: SuspensionConfig, x: number): number {
  let f = s.springRate * x + s.progression * x * x;
  const bs = s.travel - s.bumpStopGap;
  if (x > bs) f += s.bumpStopRate * (x - bs) * (1 + (x - bs) / Math.max(s.bumpStopGap, 1e-3));
  return f;
}
