/**
 * A field of bots in one "stage together" room (shared by the stage-room test and `npm run soak`): each bot is the
 * real client code (RoomClient over WebSocket) with an AI-driven car on the room's shipped stage (createStageBotCar).
 * The bots step one packet interval each in turn, paced to the wall clock (the room's flood limit is per wall
 * second), and every impulse is applied at its stamped tick. `checkImpulses` then checks that no collision was
 * lost: the room numbers its impulses 1, 2, 3… and sends each to both cars of the contact.
 */
import { join } from 'node:path';
import { loadStageFromDir } from '../../terrain/node';
import { RoomClient } from '../../src/net/room-client';
import { createStageBotCar } from '../../src/net/bot-car';
import type { NetCar } from '../../src/net/net-car';
import type { CarState } from '../../src/net/packets';

export interface FieldOptions {
  url: string;
  bots: number;
  /** Packets each bot sends (× ticks per packet × sim step = simulated time). */
  packets: number;
  stage?: string;
  /** Cars by bot, cycled (a mixed field: faster cars catch slower ones). */
  cars: readonly string[];
  /** Wall ms per packet round (the room's 16 ms at its default rate); slower when the machine cannot keep up. */
  paceMs: number;
}

export interface Field {
  clients: RoomClient[];
  cars: NetCar[];
  /** Each bot's last state. */
  last: CarState[];
  /** Wall time the drive took, ms. */
  wallMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Joins `bots` clients into a new stage room, readies them and waits for the room's `go`. */
async function seatField(o: FieldOptions): Promise<RoomClient[]> {
  const carOf = (i: number) => o.cars[i % o.cars.length];
  const first = await RoomClient.connect({ url: o.url, kind: 'stage', stage: o.stage, car: carOf(0), name: 'bot 0' });
  const clients = [first];
  for (let i = 1; i < o.bots; i++) clients.push(await RoomClient.connect({ url: o.url, code: first.seat.code, car: carOf(i), name: `bot ${i}` }));
  const go = Promise.all(clients.map((c) => new Promise<void>((r) => (c.onGo = r))));
  for (const c of clients) c.ready();
  await go;
  return clients;
}

export async function driveField(o: FieldOptions): Promise<Field> {
  const clients = await seatField(o);
  const seat = clients[0]!.seat;
  if (!seat.stage) throw new Error('field: the room has no stage');
  const stage = loadStageFromDir(join(import.meta.dirname, '../../src/content/stages', seat.stage));
  const cars = clients.map((c) => createStageBotCar(stage, c.seat.slot, c.seat.car, c.seat.simDtS, c.seat.ticksPerPacket));
  clients.forEach((c, i) => (c.onImpulse = (p) => void cars[i]!.applyImpulse(p)));
  const last: CarState[] = [];
  const t0 = Date.now();
  for (let k = 1; k <= o.packets; k++) {
    for (let i = 0; i < cars.length; i++) {
      last[i] = cars[i]!.step();
      clients[i]!.sendState(last[i]!);
    }
    await sleep(Math.max(0, t0 + k * o.paceMs - Date.now()));
  }
  const wallMs = Date.now() - t0;
  // impulses for the last packets are still on their way
  await sleep(300);
  return { clients, cars, last, wallMs };
}

export interface ImpulseCheck {
  /** Impulse pairs the room numbered (the highest seq any bot received; one per response, both cars get it). */
  sent: number;
  /** Seqs that did not reach exactly two bots of one contact, both applying it at its tick, J equal and opposite. */
  lost: number[];
}

/** Every impulse seq 1…max reached both cars of its contact, and both applied it (on time or by rewind). */
export function checkImpulses(cars: readonly NetCar[], slots: readonly number[]): ImpulseCheck {
  const bySeq = new Map<number, { slot: number; other: number; jx: number; ok: boolean }[]>();
  cars.forEach((car, i) => {
    for (const a of car.applied) {
      const list = bySeq.get(a.packet.seq) ?? [];
      list.push({ slot: slots[i]!, other: a.packet.other, jx: a.packet.jx, ok: a.outcome === 'applied' || a.outcome === 'rewound' });
      bySeq.set(a.packet.seq, list);
    }
  });
  const sent = Math.max(0, ...bySeq.keys());
  const lost: number[] = [];
  for (let s = 1; s <= sent; s++) {
    const l = bySeq.get(s) ?? [];
    const paired = l.length === 2 && l[0]!.other === l[1]!.slot && l[1]!.other === l[0]!.slot && l[0]!.jx === -l[1]!.jx;
    if (!paired || !l.every((e) => e.ok)) lost.push(s);
  }
  return { sent, lost };
}

export async function leaveField(f: Field): Promise<void> {
  await Promise.all(f.clients.map((c) => c.leave()));
}
