/**
 * The suspension spring law, shared by the simulation and the car loader (static travel); kept apart from the
 * car schema so the simulation (and the car-test worker) do not load zod.
 */

/** The spring's parameters (SI; a car's SuspensionConfig has them). */
export interface SpringParams {
  /** N/m */
  springRate: number;
  /** N/m² */
  progression: number;
  /** m */
  travel: number;
  /** m: the bump stop engages at compression travel − bumpStopGap */
  bumpStopGap: number;
  /** N/m */
  bumpStopRate: number;
}

/** Spring force at compression s (without anti-roll): progressive spring + bump stop. */
export function springForce(s: SpringParams, x: number): number {
  let f = s.springRate * x + s.progression * x * x;
  const bs = s.travel - s.bumpStopGap;
  if (x > bs) f += s.bumpStopRate * (x - bs) * (1 + (x - bs) / Math.max(s.bumpStopGap, 1e-3));
  return f;
}
