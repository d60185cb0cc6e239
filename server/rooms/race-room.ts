/**
 * The "race" room (issue #22 items 1–2): a lobby (join by the room's short code, car choice, ready, a countdown on
 * the server's clock) and, during the race, Wu's collider (collider.ts) fed by the clients' binary state packets
 * ('state' bytes in, 'impulse' bytes out). Lobby messages are small JSON; docs/multiplayer.md lists them.
 */
import { Room, updateLobby, type Client } from '@colyseus/core';
import { loadBuiltinCar, BUILTIN_CARS } from '../../src/content/cars/index';
import { colliderParamsFromConfig } from '../../src/systems/sim/collision/car-collider';
import { encodeImpulse, packetHeaderProblem, RELAY_SLOT_OFFSET, STATE_PACKET_BYTES, STATE_PACKET_TYPE } from '../../src/net/packets';
import { Collider, type CarShape } from './collider';
import { WindowLimiter } from '../window-limiter';
import { DEFAULT_DT } from '../../src/content/world-constants';
import { roomCircuitFrom, roomStage, roomStageFrom } from './stages';
import type { RetireReason } from '../../src/net/results';
import type { CarState } from '../../src/net/packets';
import { FinishWatch, type CarFinishWatch } from './finish-watch';
import { RaceFinishWatch } from './race-finish-watch';
import { RaceResults } from './race-results';
import { STANDINGS_HZ } from '../../src/net/standings';
import { DEFAULT_RACE_LAPS, RACE_LAPS_RANGE } from '../../src/net/room-kind';
import { ROOM_CODE_ALPHABET as CODE_ALPHABET, ROOM_CODE_LENGTH as CODE_LENGTH } from '../../src/net/room-code';

/** Clients' fixed sim step, s (the game's: src/content/world-constants.ts). */
export const NET_SIM_DT_S = DEFAULT_DT;
/** Sim ticks between two state packets by default: 8 × 2 ms = 16 ms, 62.5 Hz. */
export const TICKS_PER_PACKET = 8;
/** Packet rates a room may be created with: every sim tick (500 Hz) down to every 50th (10 Hz). */
export const TICKS_PER_PACKET_RANGE = [1, 50] as const;
export const MAX_CARS_PER_ROOM = 32;
/** Countdown from "everyone ready" to the start, ms of server clock. */
export const COUNTDOWN_MS = 3000;
/** State packets allowed per car per second: the room's packet rate × FLOOD_MARGIN; more are dropped as a flood. */
export const FLOOD_MARGIN = 1.5;
export const packetLimitPerSecond = (ticksPerPacket: number, margin = FLOOD_MARGIN): number => Math.ceil(margin / (NET_SIM_DT_S * ticksPerPacket));
/** How long a dropped client may take to reconnect and resume its car, s. */
export const RECONNECT_S = 20;
/** Longest race after 'go', s of server clock: then every car still racing is DNF and the room ends. */
export const RACE_CAP_S = 30 * 60;
/** From the final results to the room closing its connections, ms: the message reaches the clients first. */
export const END_GRACE_MS = 1000;

/** Laps a race room may be created with, and its laps when the creator names none (src/net/room-kind.ts, shared with the game). */
export const LAPS_RANGE = RACE_LAPS_RANGE;
export { DEFAULT_RACE_LAPS };

/** The room's time rules; the server sets them (attachRooms `timing`, tests shorten them), never a client. */
export interface RoomTiming {
  reconnectS: number;
  raceCapS: number;
  /** State packets allowed per second = the packet rate × this. */
  floodMargin: number;
}

export const DEFAULT_ROOM_TIMING: RoomTiming = { reconnectS: RECONNECT_S, raceCapS: RACE_CAP_S, floodMargin: FLOOD_MARGIN };

export interface RaceCreateOptions {
  /** Sim ticks between two state packets (the packet rate), TICKS_PER_PACKET_RANGE; default TICKS_PER_PACKET. */
  ticksPerPacket?: number;
  /**
   * The shipped stage everyone drives: "stage" rooms any (stages.ts DEFAULT_ROOM_STAGE when absent or unknown),
   * "race" rooms a rallycross circuit (DEFAULT_RACE_CIRCUIT).
   */
  stage?: string;
  /** Race rooms: laps to the flag, an integer in LAPS_RANGE (default DEFAULT_RACE_LAPS); stage rooms ignore it. */
  laps?: number;
  /** Set by the server's room definition (attach.ts), which overrides whatever a client sends under this key. */
  timing?: RoomTiming;
}

/** The room's packet interval from untrusted create options (out of range or not an integer: the default). */
export function ticksPerPacketFrom(options: RaceCreateOptions | undefined): number {
  const n = options?.ticksPerPacket;
  const [lo, hi] = TICKS_PER_PACKET_RANGE;
  return typeof n === 'number' && Number.isInteger(n) && n >= lo && n <= hi ? n : TICKS_PER_PACKET;
}

/** A race room's laps from untrusted create options (out of range or not an integer: the default). */
export function lapsFrom(options: RaceCreateOptions | undefined): number {
  const n = options?.laps;
  const [lo, hi] = LAPS_RANGE;
  return typeof n === 'number' && Number.isInteger(n) && n >= lo && n <= hi ? n : DEFAULT_RACE_LAPS;
}

export interface RaceJoinOptions {
  name?: string;
  car?: string;
}

interface Seat {
  slot: number;
  name: string;
  car: string;
  ready: boolean;
}

/** The car's collider rectangle and mass from its built-in car file. */
export function carShapeOf(carId: string): CarShape {
  const cfg = loadBuiltinCar(carId);
  const p = colliderParamsFromConfig(cfg);
  return { front: p.cgToFrontM, rear: p.cgToRearM, halfWidth: p.widthM / 2, massKg: cfg.body.massKg };
}

/** A short join code from the room's random id (letters and digits that read unambiguously). */
function codeFrom(seed: string): string {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619) >>> 0;
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++, h = Math.floor(h / CODE_ALPHABET.length)) code += CODE_ALPHABET[h % CODE_ALPHABET.length];
  return code;
}

export class RaceRoom extends Room {
  override maxClients = MAX_CARS_PER_ROOM;
  /** The shipped stage all cars drive: a rallycross circuit ("race") or any stage ("stage"). */
  stage: string | null = null;
  collider = new Collider(NET_SIM_DT_S, TICKS_PER_PACKET);
  private readonly seats = new Map<string, Seat>();
  private flood = new WindowLimiter(packetLimitPerSecond(TICKS_PER_PACKET), 1000);
  /** Server receive → impulses sent, ms, for each packet that produced impulses (bench and /health). */
  readonly responseMs: number[] = [];
  bytesIn = 0;
  floodDropped = 0;
  bytesOut = 0;
  startsAt: number | null = null;
  timing: RoomTiming = DEFAULT_ROOM_TIMING;
  /** From 'go' on: the race's rows (null before). */
  results: RaceResults | null = null;
  /** Race rooms: laps to the flag (null in a stage room). */
  laps: number | null = null;
  /** Each car's finish found in its own states: laps on the circuit (race rooms), the stage's finish (stage rooms). */
  finishes: CarFinishWatch | null = null;
  private ended = false;
  /** The last standings sent (JSON): the room sends them again only when they changed. */
  private lastStandings = '';
  /** Sessions already told their packet layout version is not the room's. */
  private readonly toldVersion = new Set<string>();

  override onCreate(options?: RaceCreateOptions): void {
    const tpp = ticksPerPacketFrom(options);
    this.timing = { ...DEFAULT_ROOM_TIMING, ...options?.timing };
    this.collider = new Collider(NET_SIM_DT_S, tpp);
    this.collider.onFresh = (slot, st) => this.followFinish(slot, st);
    this.collider.recoveryPose = (slot, last) => this.finishes?.recoveryPose(slot, last) ?? null;
    this.flood = new WindowLimiter(packetLimitPerSecond(tpp, this.timing.floodMargin), 1000);
    this.roomId = codeFrom(this.roomId);
    this.stage = this.stageFrom(options);
    this.laps = this.lapsFrom(options);
    this.finishes = this.finishWatchFor(this.stage);
    // what the room list shows (server/routes/rooms.ts); the seats and `locked` are Colyseus' own listing fields
    void this.setMetadata({ code: this.roomId, stage: this.stage, laps: this.laps, started: false });
    this.onMessage('ready', (client) => this.markReady(client));
    this.onMessage('retire', (client) => this.retireSeat(client));
    this.onMessage('state', (client, bytes: Uint8Array) => this.receiveState(client, bytes));
    this.onMessage('*', () => undefined); // unknown types are ignored, not fatal
  }

  override onJoin(client: Client, options: RaceJoinOptions = {}): void {
    const car = typeof options.car === 'string' && BUILTIN_CARS.some((b) => b.id === options.car) ? options.car : BUILTIN_CARS[0]!.id;
    const used = new Set([...this.seats.values()].map((s) => s.slot));
    let slot = 0;
    while (used.has(slot)) slot++;
    const name = typeof options.name === 'string' ? options.name.slice(0, 32) : `player ${slot + 1}`;
    this.seats.set(client.sessionId, { slot, name, car, ready: false });
    // in a stage room the car starts on its grid pose: its first state must be reachable from there
    this.collider.addCar(slot, carShapeOf(car), this.finishes?.startOf(slot) ?? null);
    this.finishes?.watch(slot);
    client.send('seat', { slot, code: this.roomId, car, simDtS: NET_SIM_DT_S, ticksPerPacket: this.collider.ticksPerPacket, stage: this.stage, laps: this.laps });
    this.broadcastLobby();
  }

  /** A dropped connection keeps its seat and car for RECONNECT_S; then, or on a consented leave, the car retires. */
  override async onLeave(client: Client, consented: boolean): Promise<void> {
    const seat = this.seats.get(client.sessionId);
    if (!seat) return;
    if (!consented) {
      try {
        await this.allowReconnection(client, this.timing.reconnectS);
        // the client simulated on while away: its next packet starts a fresh tick sequence
        this.collider.resync(seat.slot);
        return;
      } catch {
        // not back in time: retire the car below
      }
    }
    this.seats.delete(client.sessionId);
    this.collider.removeCar(seat.slot);
    this.finishes?.forget(seat.slot);
    this.broadcastLobby();
    this.retire(seat.slot, consented ? 'left' : 'disconnect');
  }

  /** Race rooms time each car's laps on the circuit (docs/multiplayer.md "Finish and results"); StageRoom overrides. */
  protected finishWatchFor(stage: string | null): CarFinishWatch | null {
    return stage ? new RaceFinishWatch(roomStage(stage), this.laps ?? DEFAULT_RACE_LAPS, NET_SIM_DT_S) : null;
  }

  /** Race rooms race `laps` laps; StageRoom overrides (no laps). */
  protected lapsFrom(options: RaceCreateOptions | undefined): number | null {
    return lapsFrom(options);
  }

  /** Race rooms drive a rallycross circuit; StageRoom overrides. */
  protected stageFrom(options: RaceCreateOptions | undefined): string | null {
    return roomCircuitFrom(options?.stage);
  }

  private broadcastLobby(): void {
    // `now`: the server clock when sent, so a client can show the countdown to `startsAt` on its own clock
    this.broadcast('lobby', { code: this.roomId, startsAt: this.startsAt, now: this.clock.currentTime, seats: [...this.seats.values()] });
  }

  private markReady(client: Client): void {
    const seat = this.seats.get(client.sessionId);
    if (!seat || this.startsAt !== null) return;
    seat.ready = true;
    if ([...this.seats.values()].every((s) => s.ready)) {
      this.startsAt = this.clock.currentTime + COUNTDOWN_MS;
      // a started race takes no one new: locked rooms refuse joins (a dropped player still reconnects) and the
      // room list shows it started
      void this.lock();
      // the metadata is no listing event of Colyseus' own: tell the lobby rooms (the live room list) once it is saved
      void this.setMetadata({ started: true }).then(() => updateLobby(this));
      this.clock.setTimeout(() => this.startRace(), COUNTDOWN_MS);
    }
    this.broadcastLobby();
  }

  /** 'go': every seated car is in the race (sim tick 0 now); the time cap starts. */
  private startRace(): void {
    this.results = new RaceResults();
    for (const s of this.seats.values()) {
      this.results.add(s.slot, s.name, s.car, this.laps === null ? null : 0);
      // the grid stands behind the start line: a car's distance starts below 0 until its first state
      const progress = this.finishes?.progressOf(s.slot) ?? null;
      if (progress !== null) this.results.noteProgress(s.slot, progress);
    }
    this.broadcast('go', { at: this.clock.currentTime });
    if (this.laps !== null) this.clock.setInterval(() => this.sendStandings(), 1000 / STANDINGS_HZ);
    this.clock.setTimeout(() => {
      this.results?.retireAll('time-limit');
      this.endRace();
    }, this.timing.raceCapS * 1000);
  }

  /** A fresh state of the car in `slot`: the room's finish tracking, from 'go' on. */
  private followFinish(slot: number, st: CarState): void {
    if (!this.results || this.ended) return;
    const finish = this.finishes?.follow(slot, st) ?? null;
    const progress = this.finishes?.progressOf(slot) ?? null;
    if (progress !== null) this.results.noteProgress(slot, progress);
    if (finish !== null && this.results.finish(slot, finish)) this.sendResults();
  }

  /** The live standings to everyone (a race room, from 'go' to the final results), when they changed. */
  private sendStandings(): void {
    if (!this.results || this.ended) return;
    const standings = this.results.standings();
    const json = JSON.stringify(standings);
    if (json === this.lastStandings) return;
    this.lastStandings = json;
    this.broadcast('standings', standings);
  }

  /** The player gives up the race but stays for the results: its car leaves the collider, DNF. */
  private retireSeat(client: Client): void {
    const seat = this.seats.get(client.sessionId);
    if (!seat || !this.results) return;
    this.collider.removeCar(seat.slot);
    this.finishes?.forget(seat.slot);
    this.retire(seat.slot, 'retired');
  }

  /** A car left the race (after 'go'): DNF unless it had finished. */
  private retire(slot: number, why: RetireReason): void {
    if (this.results && !this.ended && this.results.retire(slot, why)) this.sendResults();
  }

  /** Results to everyone; the last ones when no car is racing any more. */
  private sendResults(): void {
    if (this.results?.done) this.endRace();
    else if (this.results) this.broadcast('results', this.results.message(false));
  }

  /** The final results, then the room closes (END_GRACE_MS later). */
  private endRace(): void {
    if (this.ended || !this.results) return;
    this.ended = true;
    this.broadcast('results', this.results.message(true));
    this.clock.setTimeout(() => void this.disconnect(), END_GRACE_MS);
  }

  /** An accepted state goes to the other clients as 'car' (the same layout, the sender's slot in bytes 2–3). */
  private relay(from: Client, slot: number, bytes: Uint8Array): void {
    const copy = Uint8Array.from(bytes);
    new DataView(copy.buffer).setUint16(RELAY_SLOT_OFFSET, slot, true);
    for (const c of this.clients) {
      if (c === from) continue;
      c.sendBytes('car', copy);
      this.bytesOut += copy.byteLength;
    }
  }

  /** An old (or newer) client's packet layout: told once per connection why its states are dropped. */
  private refuseVersion(client: Client, bytes: Uint8Array): void {
    if (this.toldVersion.has(client.sessionId)) return;
    this.toldVersion.add(client.sessionId);
    client.send('refused', { reason: packetHeaderProblem(bytes, STATE_PACKET_TYPE, STATE_PACKET_BYTES) });
  }

  private receiveState(client: Client, bytes: Uint8Array): void {
    const t0 = performance.now();
    const seat = this.seats.get(client.sessionId);
    if (!seat || !(bytes instanceof Uint8Array)) return;
    this.bytesIn += bytes.byteLength;
    if (this.flood.take(client.sessionId) !== null) {
      this.floodDropped++;
      return;
    }
    const accepted = this.collider.counters.accepted;
    const versionDrops = this.collider.counters.dropped.version ?? 0;
    const out = this.collider.receive(seat.slot, bytes);
    if ((this.collider.counters.dropped.version ?? 0) > versionDrops) this.refuseVersion(client, bytes);
    if (this.collider.counters.accepted > accepted) this.relay(client, seat.slot, bytes);
    if (out.length === 0) return;
    for (const imp of out) {
      const target = this.clients.find((c) => this.seats.get(c.sessionId)?.slot === imp.to);
      const packet = encodeImpulse(imp.packet);
      this.bytesOut += packet.byteLength;
      target?.sendBytes('impulse', packet);
    }
    this.responseMs.push(performance.now() - t0);
  }
}

/**
 * "Stage together": everyone on one shipped stage (the create option `stage`), collisions on, each car starting on
 * its slot's grid pose (src/net/grid.ts). The same lobby, collider and checks as the race room.
 */
export class StageRoom extends RaceRoom {
  protected override stageFrom(options: RaceCreateOptions | undefined): string {
    return roomStageFrom(options?.stage);
  }

  /** Each car's finish from its own states on the room's stage. */
  protected override finishWatchFor(stage: string | null): CarFinishWatch | null {
    return stage ? new FinishWatch(roomStage(stage), NET_SIM_DT_S) : null;
  }

  protected override lapsFrom(): null {
    return null;
  }
}
