/**
 * Plausibility of a car's state packet against its previous one (issue #22 item 5): the tick only moves forward
 * on the packet ticks and by at most MAX_PACKET_GAP packets, the forward axis is a unit vector, the speed is one a car can reach, the CG moved
 * no farther than that speed allows over the ticks between, and the yaw inertia is positive.
 */
import type { CarState } from '../../src/net/packets';

/** Fastest a car may go, m/s (400 km/h = 111 m/s, with margin). */
export const MAX_CAR_SPEED_MS = 120;
/** Fastest yaw rate, rad/s (a spinning car stays well below 10 rev/s). */
export const MAX_YAW_RATE_RADS = 60;
/** Most packets a car may skip (1 s at 60 Hz: a client that stalls longer resyncs). */
export const MAX_PACKET_GAP = 60;
/** Slack on the position change, m: rounding and the car's own acceleration within one tick. */
export const POSITION_SLACK_M = 0.5;
/** Tolerance on |forward| = 1. */
const UNIT_TOLERANCE = 1e-6;

export type StateVerdict = 'ok' | 'tick' | 'forward' | 'speed' | 'jump' | 'inertia' | 'start';

/**
 * Why `next` is refused after `prev` (null prev: the car's first packet), or 'ok'. `dt`: the sim step, s; packets
 * come every `ticksPerPacket` sim ticks, on multiples of it.
 */
export function checkState(prev: CarState | null, next: CarState, dt: number, ticksPerPacket: number): StateVerdict {
  if (Math.abs(Math.hypot(next.fx, next.fz) - 1) > UNIT_TOLERANCE) return 'forward';
  if (Math.hypot(next.vx, next.vz) > MAX_CAR_SPEED_MS || Math.abs(next.wy) > MAX_YAW_RATE_RADS) return 'speed';
  if (!(next.invIyy > 0)) return 'inertia';
  if (next.tick % ticksPerPacket !== 0) return 'tick';
  if (!prev) return 'ok';
  const gap = next.tick - prev.tick;
  if (gap <= 0 || gap > MAX_PACKET_GAP * ticksPerPacket) return 'tick';
  return movedTooFar(prev, next, dt) ? 'jump' : 'ok';
}

/** The CG moved farther from `prev` to `next` (a later tick) than MAX_CAR_SPEED_MS allows over the ticks between. */
export function movedTooFar(prev: Pick<CarState, 'tick' | 'px' | 'py' | 'pz'>, next: CarState, dt: number): boolean {
  const moved = Math.hypot(next.px - prev.px, next.py - prev.py, next.pz - prev.pz);
  return moved > MAX_CAR_SPEED_MS * (next.tick - prev.tick) * dt + POSITION_SLACK_M;
}

/**
 * A car's first state against where the room started it (its grid pose at tick 0, at rest): 'start' when it is
 * farther (horizontally) than MAX_CAR_SPEED_MS allows since 'go' — a client claiming to be down the road at once.
 */
export function checkStart(start: { x: number; z: number }, next: CarState, dt: number): StateVerdict {
  const moved = Math.hypot(next.px - start.x, next.pz - start.z);
  return moved > MAX_CAR_SPEED_MS * next.tick * dt + POSITION_SLACK_M ? 'start' : 'ok';
}
