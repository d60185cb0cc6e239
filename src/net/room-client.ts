/**
 * The client side of the race room over WebSocket (colyseus.js 0.16, which uses the `ws` package in Node and the
 * browser's WebSocket in the game): join by code or create, ready, state packets out, impulse packets in. An
 * injected one-way delay (`delayMs`) holds every outgoing and incoming message that long, in order, so tests
 * measure behaviour at a chosen network latency on loopback.
 */
import { Client, type Room } from 'colyseus.js';
import { decodeImpulse, decodeRelayed, encodeState, type CarState, type ImpulsePacket } from './packets';
import { ROOM_KINDS, type RoomKind } from './room-kind';
import type { RoomResults } from './results';
import { parseStandings, StandingsError, type Standings } from './standings';

export interface RoomClientOptions {
  /** ws://host:port of the BitRally server. */
  url: string;
  car?: string;
  name?: string;
  /** Join this room code; without it a new room is created. */
  code?: string;
  /** When creating: sim ticks between two state packets (the room's packet rate; the room's default without it). */
  ticksPerPacket?: number;
  /** When creating: a rallycross "race" room (default) or a "stage" room (everyone on one stage). */
  kind?: RoomKind;
  /** When creating: the shipped stage id, a rallycross circuit for a race room (the server's default without it). */
  stage?: string;
  /** When creating a race room: laps to the flag (the server's default without it; it checks the range). */
  laps?: number;
  /** Simulated one-way network delay, ms (0: none). */
  delayMs?: number;
}

export type { RoomKind };

/** One seat as the room's 'lobby' message lists it. */
export interface LobbySeat {
  slot: number;
  name: string;
  car: string;
  ready: boolean;
}

/** The room's 'lobby' message: sent to everyone on every join, leave and ready. */
export interface Lobby {
  code: string;
  /** Server clock (ms) when the countdown ends, null before everyone is ready. */
  startsAt: number | null;
  /** Server clock (ms) when the message was sent: the client's offset to the server clock. */
  now: number;
  seats: LobbySeat[];
}

/** What the room told this client when it sat down. */
export interface Seat {
  slot: number;
  code: string;
  car: string;
  /** The sim step and the sim ticks between two state packets. */
  simDtS: number;
  ticksPerPacket: number;
  /** The shipped stage everyone drives (a rallycross circuit in a race room); start on `gridPose(stage, slot)`. */
  stage: string | null;
  /** A race room's laps (NetCar's `laps` option), null in a stage room. */
  laps: number | null;
}

export class RoomClient {
  onImpulse: (p: ImpulsePacket) => void = () => undefined;
  onGo: () => void = () => undefined;
  onLobby: (l: Lobby) => void = () => undefined;
  /** Another car's accepted state, relayed by the room (draw it with RemoteCarView). */
  onRemote: (slot: number, s: CarState) => void = () => undefined;
  /** The room's results (src/net/results.ts): after each finish or retirement from 'go' on, `final` at the end. */
  onResults: (r: RoomResults) => void = () => undefined;
  /** A race room's live standings (src/net/standings.ts), checked: at most STANDINGS_HZ, when they changed. */
  onStandings: (s: Standings) => void = () => undefined;
  /** The last standings message refused as malformed (StandingsError's message), null when none was. */
  standingsProblem: string | null = null;
  /** The room drops this client's states: their layout version is not the room's (the room's sentence). */
  onRefused: (reason: string) => void = () => undefined;
  /** Impulse frames that did not decode (should stay 0). */
  badImpulses = 0;
  bytesSent = 0;
  /** The room closed this client's connection (or it left): nothing more will arrive. */
  closed = false;

  private constructor(
    readonly room: Room,
    readonly seat: Seat,
    private readonly delayMs: number,
  ) {
    room.onMessage('impulse', (bytes: Uint8Array) =>
      this.later(() => {
        const p = decodeImpulse(bytes);
        if (p) this.onImpulse(p);
        else this.badImpulses++;
      }),
    );
    room.onMessage('go', () => this.later(() => this.onGo()));
    room.onMessage('lobby', (l: Lobby) => this.later(() => this.onLobby(l)));
    room.onMessage('results', (r: RoomResults) => this.later(() => this.onResults(r)));
    room.onMessage('standings', (m: unknown) => this.later(() => this.takeStandings(m)));
    room.onMessage('refused', (m: { reason: string }) => this.later(() => this.onRefused(String(m.reason))));
    room.onLeave(() => (this.closed = true));
    room.onMessage('car', (bytes: Uint8Array) =>
      this.later(() => {
        const r = decodeRelayed(bytes);
        if (r) this.onRemote(r.slot, r.state);
      }),
    );
  }

  /** Joins (or creates) a race room and waits for the seat message. */
  static async connect(o: RoomClientOptions): Promise<RoomClient> {
    const client = new Client(o.url);
    const options = { car: o.car, name: o.name };
    const create = { ...options, ticksPerPacket: o.ticksPerPacket, stage: o.stage, laps: o.laps };
    const room = o.code ? await client.joinById(o.code, options) : await client.create(o.kind ?? 'race', create);
    room.onMessage('lobby', () => undefined); // lobby messages before the client is set up (the next one follows)
    room.onMessage('car', () => undefined); // states relayed before the client is set up
    const seat = await new Promise<Seat>((resolve) => room.onMessage('seat', (s: Seat) => resolve(s)));
    return new RoomClient(room, seat, o.delayMs ?? 0);
  }

  /** Back into the same seat after a dropped connection (within the room's RECONNECT_S). */
  static async resume(url: string, previous: RoomClient): Promise<RoomClient> {
    const room = await new Client(url).reconnect(previous.room.reconnectionToken);
    room.onMessage('lobby', () => undefined);
    room.onMessage('seat', () => undefined);
    room.onMessage('car', () => undefined);
    return new RoomClient(room, previous.seat, previous.delayMs);
  }

  /** An untrusted standings message: handed on when it parses, else refused (kept in standingsProblem). */
  private takeStandings(m: unknown): void {
    let s: Standings;
    try {
      s = parseStandings(m);
    } catch (e) {
      if (!(e instanceof StandingsError)) throw e;
      this.standingsProblem = e.message;
      return;
    }
    this.onStandings(s);
  }

  private later(fn: () => void): void {
    if (this.delayMs > 0) setTimeout(fn, this.delayMs);
    else fn();
  }

  sendState(s: CarState): void {
    const bytes = encodeState(s);
    this.bytesSent += bytes.byteLength;
    this.later(() => this.room.sendBytes('state', bytes));
  }

  /** The room's kind (its Colyseus room name). */
  get kind(): RoomKind {
    return ROOM_KINDS.find((k) => k === this.room.name) ?? 'race';
  }

  /** Raw bytes as 'state' (fault tests: garbage, huge packets). */
  sendRaw(bytes: Uint8Array): void {
    this.later(() => this.room.sendBytes('state', bytes));
  }

  ready(): void {
    this.later(() => this.room.send('ready'));
  }

  /** Gives up the race (after 'go'): DNF, still in the room for the results. */
  retire(): void {
    this.later(() => this.room.send('retire'));
  }

  /** Leaves the room; at once when the room has already closed the connection (colyseus.js would wait forever). */
  async leave(): Promise<void> {
    if (this.closed) return;
    await this.room.leave(true);
  }
}
