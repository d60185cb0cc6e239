/**
 * The room's collider (server/rooms/collider.ts) on synthetic state streams: two cars driven head-on along x at
 * constant speed get ONE impulse, equal and opposite, whose size is Wu's eq 5-38 for a central impact
 * (jn = (1 + e)·m1m2/(m1 + m2)·v_rel, e = wuE(0)); later unacknowledged states do not collide again; malformed and
 * implausible packets are dropped and counted.
 */
import { describe, expect, it } from 'vitest';
import { Collider, type CarShape } from '../../server/rooms/collider';
import { encodeState, packetHeaderProblem, PACKET_VERSION, STATE_PACKET_BYTES, STATE_PACKET_TYPE, type CarState } from '../../src/net/packets';
import { wuE } from '../../src/systems/sim/collision/coefficients';
import { MAX_CAR_SPEED_MS } from '../../server/rooms/state-check';

const DT = 1 / 60;
const SHAPE: CarShape = { front: 2, rear: 2, halfWidth: 0.9, massKg: 1200 };
const HEAVY: CarShape = { front: 2.2, rear: 2.2, halfWidth: 0.95, massKg: 1800 };
const INV_I = 1 / 2000;

/** State of a car moving along x at `v` from `x0`, heading ±x, after `tick` ticks. */
function stateAt(tick: number, x0: number, v: number, ack = 0): CarState {
  return { tick, ackImpulse: ack, recoveries: 0, px: x0 + v * tick * DT, py: 0.5, pz: 0, fx: Math.sign(v), fz: 0, vx: v, vz: 0, wy: 0, invIyy: INV_I };
}

function headOn(c: Collider, ticks: number, va: number, vb: number) {
  const sent = [];
  for (let t = 1; t <= ticks; t++) {
    sent.push(...c.receive(0, encodeState(stateAt(t, -20, va))));
    sent.push(...c.receive(1, encodeState(stateAt(t, 20, vb))));
  }
  return sent;
}

describe('collider: head-on pair', () => {
  it('one impulse, equal and opposite, of Wu eq 5-38 size for a central impact', () => {
    const c = new Collider(DT, 1);
    c.addCar(0, SHAPE);
    c.addCar(1, HEAVY);
    const va = 15, vb = -12;
    const sent = headOn(c, 120, va, vb);
    expect(sent).toHaveLength(2);
    const [a, b] = sent;
    expect(a!.to).toBe(0);
    expect(b!.to).toBe(1);
    expect(a!.packet.seq).toBe(b!.packet.seq);
    expect(a!.packet.tick).toBe(b!.packet.tick);
    expect(Math.abs(a!.packet.jx + b!.packet.jx)).toBeLessThanOrEqual(1e-9 * Math.abs(a!.packet.jx));
    expect(a!.packet.jz + b!.packet.jz).toBe(0);
    const m1 = SHAPE.massKg, m2 = HEAVY.massKg;
    const jn = ((1 + wuE(0)) * m1 * m2 * (va - vb)) / (m1 + m2);
    // central impact, no tangential velocity: J along −x on car A (pushed back), no friction component
    expect(a!.packet.jx).toBeCloseTo(-jn, 6);
    expect(Math.abs(a!.packet.jz)).toBeLessThan(1e-9 * jn);
    // contact tick: the first tick whose sweep over the next dt reaches the gap (fronts 2 m and 2.2 m)
    const gapAt = (t: number) => 40 + (vb - va) * t * DT - (SHAPE.front + HEAVY.front);
    const tc = a!.packet.tick;
    expect(gapAt(tc)).toBeLessThanOrEqual((va - vb) * DT + 1e-9);
    expect(gapAt(tc - 1)).toBeGreaterThan((va - vb) * DT);
    expect(c.counters.contacts).toBe(1);
    expect(c.counters.stale).toBeGreaterThan(0);
  });

  it('after the clients acknowledge and separate, no second collision', () => {
    const c = new Collider(DT, 1);
    c.addCar(0, SHAPE);
    c.addCar(1, SHAPE);
    const sent = headOn(c, 150, 10, -10);
    expect(sent).toHaveLength(2);
    const { tick, seq, jx } = sent[0]!.packet;
    // both cars apply the impulse at the contact tick (Δv = J/m) and re-simulate: separating states from tick+1
    const vA = 10 + jx / SHAPE.massKg, vB = -10 - jx / SHAPE.massKg;
    expect(vA).toBeLessThan(vB);
    const xA = -20 + 10 * tick * DT, xB = 20 - 10 * tick * DT;
    const more = [];
    for (let t = tick + 1; t <= tick + 60; t++) {
      const k = t - tick;
      more.push(...c.receive(0, encodeState({ ...stateAt(t, 0, vA, seq), px: xA + vA * k * DT })));
      more.push(...c.receive(1, encodeState({ ...stateAt(t, 0, vB, seq), px: xB + vB * k * DT })));
    }
    expect(more).toHaveLength(0);
    expect(c.counters.contacts).toBe(1);
    expect(c.counters.impulses).toBe(1);
  });
});

describe('collider: validation', () => {
  const fresh = () => {
    const c = new Collider(DT, 1);
    c.addCar(0, SHAPE);
    c.receive(0, encodeState(stateAt(1, 0, 10)));
    return c;
  };
  it('drops wrong sizes, types, versions and non-finite numbers', () => {
    const c = fresh();
    const good = encodeState(stateAt(2, 0, 10));
    c.receive(0, good.subarray(0, STATE_PACKET_BYTES - 1));
    c.receive(0, new Uint8Array(1 << 20));
    const badType = good.slice();
    badType[0] = 9;
    c.receive(0, badType);
    c.receive(0, encodeState({ ...stateAt(2, 0, 10), vx: Number.NaN }));
    expect(c.counters.dropped.malformed).toBe(4);
    // a layout-1 client (84-byte state packets, no recovery counter) is told apart from garbage: 'version'
    const old = new Uint8Array(84);
    old.set([STATE_PACKET_TYPE, 1]);
    c.receive(0, old);
    expect(c.counters.dropped.version).toBe(1);
    expect(packetHeaderProblem(old, STATE_PACKET_TYPE, STATE_PACKET_BYTES)).toBe(`packet layout version 1, expected ${PACKET_VERSION} (client and server differ)`);
    expect(packetHeaderProblem(good, STATE_PACKET_TYPE, STATE_PACKET_BYTES)).toBeNull();
    expect(c.counters.accepted).toBe(1);
  });
  it('drops repeated or backward ticks, teleports, impossible speeds and unknown cars', () => {
    const c = fresh();
    c.receive(0, encodeState(stateAt(1, 0, 10)));
    expect(c.counters.dropped.tick).toBe(1);
    // 2 ticks later the car may have moved at most 2·dt·MAX speed + slack: 10 m is a teleport
    c.receive(0, encodeState({ ...stateAt(3, 0, 10), px: 10 }));
    expect(c.counters.dropped.jump).toBe(1);
    c.receive(0, encodeState({ ...stateAt(3, 0, 10), vx: MAX_CAR_SPEED_MS + 1 }));
    expect(c.counters.dropped.speed).toBe(1);
    c.receive(0, encodeState({ ...stateAt(3, 0, 10), fx: 0.5 }));
    expect(c.counters.dropped.forward).toBe(1);
    c.receive(7, encodeState(stateAt(3, 0, 10)));
    expect(c.counters.dropped['unknown-car']).toBe(1);
    // a good packet still goes through after all that
    c.receive(0, encodeState(stateAt(3, 0, 10)));
    expect(c.counters.accepted).toBe(2);
  });
});
