/**
 * NetCar's rewind (src/net/net-car.ts): an impulse stamped with a past packet tick, applied late, leaves the car in
 * exactly the state (every number Object.is-equal) it reaches when the same impulse is applied at that tick,
 * because the simulation is deterministic and the recorded input is replayed. Impulses older than the snapshot
 * window are acknowledged but not applied; a repeated seq is ignored.
 */
import { describe, expect, it } from 'vitest';
import { REWIND_PACKETS } from '../../src/net/net-car';
import type { ImpulsePacket } from '../../src/net/packets';
import { TICKS_PER_PACKET } from '../../server/rooms/race-room';
import { headOnCars, plan } from './bots';

const CONTACT_PACKET = 40;
const LATE_PACKETS = 9; // 150 ms RTT at 62.5 Hz

function impulseAt(tick: number, seq = 1): ImpulsePacket {
  // a 6 kN·s push backwards and slightly sideways, at CG height near car A's start (the first test moves the point)
  return { seq, tick, other: 1, jx: -6000, jz: 800, x: -6, y: 0.5, z: 0.2 };
}

describe('NetCar rewind', () => {
  it('a late impulse gives the same state as one applied on time', () => {
    const [onTime] = headOnCars();
    const [late] = headOnCars();
    const tick = CONTACT_PACKET * TICKS_PER_PACKET;
    for (let k = 0; k < CONTACT_PACKET; k++) {
      onTime.step(plan(k));
      late.step(plan(k));
    }
    // the impulse's point is set relative to where the car is at the contact tick
    const s = onTime.state();
    const p = { ...impulseAt(tick), x: s.px + 2, z: s.pz + 0.2 };
    expect(onTime.applyImpulse(p)).toBe('applied');
    for (let k = CONTACT_PACKET; k < CONTACT_PACKET + LATE_PACKETS; k++) {
      onTime.step(plan(k));
      late.step(plan(k));
    }
    expect(late.applyImpulse(p)).toBe('rewound');
    expect(late.tick).toBe(onTime.tick);
    const a = onTime.state(), b = late.state();
    for (const key of Object.keys(a) as (keyof typeof a)[]) expect(Object.is(a[key], b[key]), key).toBe(true);
    // the impulse did something: the same car without it is elsewhere
    const [none] = headOnCars();
    for (let k = 0; k < CONTACT_PACKET + LATE_PACKETS; k++) none.step(plan(k));
    expect(Math.abs(none.state().vx - a.vx)).toBeGreaterThan(1);
  });

  it('too old: acknowledged, not applied; a repeated seq is ignored', () => {
    const [car] = headOnCars();
    for (let k = 0; k < REWIND_PACKETS + 5; k++) car.step(plan(k));
    const before = car.state();
    expect(car.applyImpulse(impulseAt(TICKS_PER_PACKET, 3))).toBe('too-old');
    expect(car.state().ackImpulse).toBe(3);
    expect(car.state().vx).toBe(before.vx);
    expect(car.applyImpulse(impulseAt(car.tick, 3))).toBe('duplicate');
    expect(car.state().vx).toBe(before.vx);
  });
});
