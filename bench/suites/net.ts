/**
 * Multiplayer (docs/multiplayer.md): the race room's response delay, server receive → impulses sent, i.e. the
 * collider's work on one state packet (decode, plausibility checks, tick alignment, detection and response
 * against every other car, impulse encoding), for 1, 2, 4, 8, 16 and 32 cars in one room, against Wu's Table
 * 7-2 (LAN, 1995 hardware: 0.4 ms with 1 car, 3.0 ms with 8). The cars drive in a 40 m square (a pack, so the
 * bounding circles meet) and bounce off its sides; every car sends every packet tick. Also the bytes per second
 * each client sends. Bounded: a fixed number of packet ticks.
 */
import { performance } from 'node:perf_hooks';
import { Prng } from '../../terrain/prng';
import { Collider } from '../../server/rooms/collider';
import { carShapeOf, NET_SIM_DT_S, TICKS_PER_PACKET } from '../../server/rooms/race-room';
import { encodeImpulse, encodeState, STATE_PACKET_BYTES, type CarState } from '../../src/net/packets';
import type { BenchResult, BenchSuite } from '../types';

const CAR_COUNTS = [1, 2, 4, 8, 16, 32];
const ARENA_HALF_M = 20;
const SPEED_MS = 15;
/** Wu Table 7-2, response delay measured on his LAN (ms), where he gives it. */
const WU_MS: Record<number, number> = { 1: 0.4, 8: 3.0 };
/** Goals of issue #22 on this machine, ms. */
const GOAL_MS: Record<number, number> = { 8: 1, 32: 3 };
/** Colyseus frame around a byte message ('state': protocol byte, type string) + a masked WebSocket header. */
const FRAMING_BYTES = 1 + 1 + 'state'.length + 2 + 4;

interface Mover {
  x: number;
  z: number;
  vx: number;
  vz: number;
}

function movers(n: number, rng: Prng): Mover[] {
  return Array.from({ length: n }, () => {
    const a = rng.range(0, 2 * Math.PI);
    return { x: rng.range(-ARENA_HALF_M, ARENA_HALF_M), z: rng.range(-ARENA_HALF_M, ARENA_HALF_M), vx: SPEED_MS * Math.cos(a), vz: SPEED_MS * Math.sin(a) };
  });
}

function advance(m: Mover, dt: number): void {
  m.x += m.vx * dt;
  m.z += m.vz * dt;
  if (Math.abs(m.x) > ARENA_HALF_M) m.vx = -m.vx;
  if (Math.abs(m.z) > ARENA_HALF_M) m.vz = -m.vz;
}

function stateOf(m: Mover, tick: number, ack: number): CarState {
  const s = Math.hypot(m.vx, m.vz);
  return { tick, ackImpulse: ack, recoveries: 0, px: m.x, py: 0.5, pz: m.z, fx: m.vx / s, fz: m.vz / s, vx: m.vx, vz: m.vz, wy: 0, invIyy: 1 / 2000 };
}

/** Mean and worst time per packet, ms, over `packets` packet ticks of n cars. */
function measure(n: number, packets: number): { meanMs: number; maxMs: number; impulses: number } {
  const collider = new Collider(NET_SIM_DT_S, TICKS_PER_PACKET);
  const shape = carShapeOf('hatch-gti');
  for (let i = 0; i < n; i++) collider.addCar(i, shape);
  const ms = movers(n, new Prng(n));
  const acks = new Array<number>(n).fill(0);
  const dt = NET_SIM_DT_S * TICKS_PER_PACKET;
  let total = 0, worst = 0, count = 0;
  for (let k = 1; k <= packets; k++) {
    const tick = k * TICKS_PER_PACKET;
    for (let i = 0; i < n; i++) {
      advance(ms[i]!, dt);
      const bytes = encodeState(stateOf(ms[i]!, tick, acks[i]!));
      const t0 = performance.now();
      const out = collider.receive(i, bytes);
      for (const imp of out) encodeImpulse(imp.packet);
      const t = performance.now() - t0;
      // the movers do not react; the client acknowledges at once (the collider's bookkeeping stays in play)
      for (const imp of out) acks[imp.to] = imp.packet.seq;
      total += t;
      worst = Math.max(worst, t);
      count++;
    }
  }
  return { meanMs: total / count, maxMs: worst, impulses: collider.counters.impulses };
}

export const suite: BenchSuite = {
  name: 'net',
  async run({ quick }) {
    const packets = quick ? 300 : 2000;
    const out: BenchResult[] = [];
    for (const n of CAR_COUNTS) {
      measure(n, 50); // warm-up (JIT)
      const r = measure(n, packets);
      const wu = WU_MS[n] !== undefined ? `; Wu Table 7-2: ${WU_MS[n]} ms` : '';
      out.push({
        suite: 'net',
        name: `response delay, ${n} car${n > 1 ? 's' : ''} in one room (server receive → impulses sent, mean per packet)`,
        value: r.meanMs,
        unit: 'ms',
        ...(GOAL_MS[n] !== undefined ? { target: GOAL_MS[n], lowerIsBetter: true } : {}),
        note: `${packets} packet ticks, worst packet ${r.maxMs.toFixed(3)} ms, ${r.impulses} impulses${wu}`,
      });
    }
    const hz = 1 / (NET_SIM_DT_S * TICKS_PER_PACKET);
    out.push({
      suite: 'net',
      name: 'bytes/s each client sends (state packets with Colyseus and WebSocket framing)',
      value: (STATE_PACKET_BYTES + FRAMING_BYTES) * hz,
      unit: 'B/s',
      note: `${STATE_PACKET_BYTES} B packet + ${FRAMING_BYTES} B framing at ${hz} Hz; impulses down are 56 B + framing per contact`,
    });
    return out;
  },
};
