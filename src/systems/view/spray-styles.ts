/**
 * How each surface throws material behind a car (issue 18 item 4): gravel a low, thin brown dust; snow a
 * heavier white spray that falls back quickly; grass a little green-brown debris; tarmac and ice only tyre smoke
 * while sliding. Opacity, size and rise are kept small enough that the chase camera, 5–7 m behind and ~2 m up,
 * sees the car through the cloud: the e2e spec tests/e2e/dressing.spec.mjs measures the share of the car's paint
 * still visible while it drives on gravel and snow.
 */
import type { SurfaceId } from '../../../terrain/surface';

export interface SprayStyle {
  /** Particles per second per m/s of speed on a loose surface (capped at SPRAY_FULL_SPEED_MS). */
  ratePerMS: number;
  /** Extra particles per second per unit of tyre slip (wheelspin, drifts). */
  ratePerSlip: number;
  /** Only slip above this emits (tyre smoke on sealed surfaces). */
  slipThreshold: number;
  /** Start opacity of a particle (it fades to 0 over its life). */
  alpha: number;
  minSizeM: number;
  maxSizeM: number;
  minLifeS: number;
  maxLifeS: number;
  /** Vertical launch speed range, m/s (low: the cloud stays under the camera's line of sight to the roof). */
  riseMS: readonly [number, number];
  /** Downward acceleration, m/s² (snow and grit fall back, fine dust floats). */
  gravityMS2: number;
}

/** Speed at which a loose surface's speed-driven emission stops growing, m/s. */
export const SPRAY_FULL_SPEED_MS = 25;

const GRAVEL: SprayStyle = { ratePerMS: 3.2, ratePerSlip: 60, slipThreshold: 0, alpha: 0.28, minSizeM: 0.4, maxSizeM: 1.1, minLifeS: 0.5, maxLifeS: 1.2, riseMS: [0.3, 1.0], gravityMS2: 0.4 };
const SNOW: SprayStyle = { ratePerMS: 3.6, ratePerSlip: 60, slipThreshold: 0, alpha: 0.4, minSizeM: 0.25, maxSizeM: 0.8, minLifeS: 0.35, maxLifeS: 0.8, riseMS: [0.8, 1.8], gravityMS2: 4 };
const GRASS: SprayStyle = { ratePerMS: 1.2, ratePerSlip: 40, slipThreshold: 0, alpha: 0.35, minSizeM: 0.2, maxSizeM: 0.5, minLifeS: 0.3, maxLifeS: 0.7, riseMS: [0.6, 1.4], gravityMS2: 6 };
const SMOKE: SprayStyle = { ratePerMS: 0, ratePerSlip: 120, slipThreshold: 0.3, alpha: 0.3, minSizeM: 0.5, maxSizeM: 1.4, minLifeS: 0.6, maxLifeS: 1.4, riseMS: [0.2, 0.8], gravityMS2: -0.2 };

export const SPRAY_STYLES: Record<SurfaceId, SprayStyle> = { gravel: GRAVEL, snow: SNOW, grass: GRASS, tarmac: SMOKE, ice: SMOKE };

/** Particles per second for a style at a speed, slip (0..1+) and wheel contact share (0..1). */
export function sprayRate(s: SprayStyle, speedMS: number, slip: number, contact: number): number {
  const bySpeed = s.ratePerMS * Math.min(speedMS, SPRAY_FULL_SPEED_MS);
  return contact * (bySpeed + s.ratePerSlip * Math.max(0, slip - s.slipThreshold));
}
