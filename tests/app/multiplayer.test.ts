/**
 * The game's multiplayer pieces that run without a page: the join code entry (gamepad cycling, typing, the
 * server's alphabet), the server clock offset and countdown, the rooms' WebSocket URL, the room-timeline pacer
 * (no dropped backlog), the collision log panel (escaped names) and the room list's items (escaped, full and
 * started rooms disabled).
 */
import { describe, expect, it } from 'vitest';
import { CodeEntry } from '../../src/app/multiplayer/code-entry';
import { roomServerUrl, ServerClock } from '../../src/app/multiplayer/server-clock';
import { MAX_CATCH_UP_PACKETS, MAX_SEND_STRIDE, RoomPacer, SEND_BURST_PACKETS, SendThrottle } from '../../src/app/multiplayer/pacer';
import { FLOOD_MARGIN } from '../../server/rooms/race-room';
import { CollisionLog, LOG_PANEL_ROWS } from '../../src/app/multiplayer/collision-log';
import { normaliseRoomCode, ROOM_CODE_ALPHABET, ROOM_CODE_LENGTH } from '../../src/net/room-code';
import type { ImpulsePacket } from '../../src/net/packets';
import { seatsHtml } from '../../src/app/multiplayer/lobby-screen';
import { roomItemHtml } from '../../src/app/multiplayer/room-list-view';
import type { RoomListEntry } from '../../src/net/room-list';

describe('join code entry', () => {
  it('cycles the character under the cursor through the alphabet both ways, wrapping', () => {
    const c = new CodeEntry();
    c.cycle(1);
    expect(c.text()).toBe('A____');
    c.cycle(-1);
    expect(c.text()).toBe(`${ROOM_CODE_ALPHABET.at(-1)}____`);
    c.cycle(1);
    expect(c.text()).toBe('A____'); // wrapped from the last character to the first
    c.advance();
    c.cycle(-1); // an empty character starts at the alphabet's end going left
    expect(c.text()).toBe(`A${ROOM_CODE_ALPHABET.at(-1)}___`);
  });

  it('types letters and digits of the alphabet, refuses look-alikes, erases with Backspace', () => {
    const c = new CodeEntry();
    for (const k of ['k', '7', 'O', '0', 'I', '1', 'x', 'Shift']) c.type(k);
    expect(c.text()).toBe('K7X__'); // O, 0, I, 1 and named keys are refused
    expect(c.code()).toBeNull();
    c.type('2');
    c.type('z');
    expect(c.code()).toBe('K7X2Z');
    c.type('A'); // the cursor stays on the last character
    expect(c.code()).toBe('K7X2A');
    c.erase();
    expect(c.text()).toBe('K7X2_');
    c.erase();
    expect(c.text()).toBe('K7X__');
  });

  it('every code of the alphabet and length is well formed; others are not', () => {
    expect(ROOM_CODE_LENGTH).toBe(5);
    expect(normaliseRoomCode(' ab2cd ')).toBe('AB2CD');
    expect(normaliseRoomCode('AB2C')).toBeNull();
    expect(normaliseRoomCode('AB2CO')).toBeNull();
  });
});

describe('server clock', () => {
  it('keeps the newest offset and counts down whole seconds to startsAt', () => {
    const clk = new ServerClock();
    expect(clk.countdownS(5000, 0)).toBeNull();
    clk.sample(10_000, 400); // server 10 000 ms at local 400 ms: offset 9 600
    expect(clk.serverTime(1000)).toBe(10_600);
    expect(clk.countdownS(13_000, 400)).toBe(3);
    expect(clk.countdownS(13_000, 1401)).toBe(2); // 1 999 ms left: 2 s shown
    expect(clk.countdownS(13_000, 3400)).toBe(0);
    expect(clk.countdownS(13_000, 9000)).toBe(0);
    expect(clk.countdownS(null, 400)).toBeNull();
    clk.sample(20_000, 400);
    expect(clk.serverTime(400)).toBe(20_000);
  });

  it('derives the rooms\' WebSocket URL from the server URL', () => {
    expect(roomServerUrl('http://127.0.0.1:8787/')).toBe('ws://127.0.0.1:8787');
    expect(roomServerUrl('https://rally.example.org')).toBe('wss://rally.example.org');
    expect(roomServerUrl('ftp://x')).toBeNull();
    expect(roomServerUrl('')).toBeNull();
  });
});

describe('room pacer', () => {
  it('steps every packet due since go, keeping (never dropping) a slow frame\'s backlog', () => {
    const p = new RoomPacer(0.016);
    expect(p.take(1000)).toBe(0); // before go
    p.start(1000);
    p.start(5000); // a repeated go keeps the first
    expect(p.take(1000 + 160)).toBe(10);
    // a 5 s stall: 312 packets due, stepped over three frames at MAX_CATCH_UP_PACKETS each
    const t = 1000 + 5000;
    const due = Math.floor(5 / 0.016);
    expect(p.take(t)).toBe(MAX_CATCH_UP_PACKETS);
    expect(p.backlog(t)).toBe(due - 10 - MAX_CATCH_UP_PACKETS);
    expect(p.take(t) + p.take(t)).toBe(due - 10 - MAX_CATCH_UP_PACKETS);
    expect(p.stepped).toBe(due);
    expect(p.backlog(t)).toBe(0);
  });
});

describe('send throttle', () => {
  const PACKET_S = 0.016;
  /** Sends of one frame stepping packets first..first+n−1 at local time `ms`. */
  const frame = (t: SendThrottle, ms: number, first: number, n: number): number[] => {
    t.beginFrame(ms, n);
    return Array.from({ length: n }, (_, k) => first + k).filter((p) => t.send(p));
  };

  it('sends every packet at one packet per frame', () => {
    const t = new SendThrottle(PACKET_S);
    const sent = Array.from({ length: 200 }, (_, k) => frame(t, k * 16, k + 1, 1)).flat();
    expect(sent.length).toBe(200);
  });

  it('thins a backlog to a power-of-two grid, keeps the room\'s flood limit in every second, never skips 60', () => {
    const t = new SendThrottle(PACKET_S);
    // frames of 2 s (0.5 fps): 125 packets each
    const sent: { p: number; ms: number }[] = [];
    for (let f = 0; f < 10; f++) for (const p of frame(t, f * 2000, f * 125 + 1, 125)) sent.push({ p, ms: f * 2000 });
    const strides = new Set(sent.slice(1).map((s, i) => s.p - sent[i]!.p));
    for (const d of strides) expect(Number.isInteger(Math.log2(d)) && d <= MAX_SEND_STRIDE).toBe(true);
    expect(sent.every((s) => s.p % 8 === 0)).toBe(true); // 125 packets on 30 tokens: every 8th (16 sends)
    // the room allows FLOOD_MARGIN × its rate in any 1 s window
    const limit = Math.ceil(FLOOD_MARGIN / PACKET_S);
    for (const s of sent) expect(sent.filter((x) => x.ms >= s.ms && x.ms < s.ms + 1000).length).toBeLessThanOrEqual(limit);
    expect(SEND_BURST_PACKETS + 1 / PACKET_S).toBeLessThan(limit);
  });
});

describe('collision log', () => {
  const imp = (seq: number, jx: number): ImpulsePacket => ({ seq, tick: 800 + seq * 8, other: 1, jx, jz: -2 * jx, x: 0, y: 0, z: 0 });

  it('keeps every entry and shows the newest LOG_PANEL_ROWS, with escaped names', () => {
    const log = new CollisionLog();
    for (let k = 1; k <= LOG_PANEL_ROWS + 2; k++) log.add(imp(k, 100 * k), k % 2 ? 'rewound' : 'applied', 800 + k * 8 + 24);
    expect(log.entries.length).toBe(LOG_PANEL_ROWS + 2);
    expect(log.entries[0]).toEqual({ seq: 1, tick: 808, other: 1, jx: 100, jz: -200, outcome: 'rewound', receivedAtTick: 832 });
    const html = log.panelHtml(() => '<b>Eve</b>');
    const seqs = [...html.matchAll(/data-seq="(\d+)"/g)].map((m) => Number(m[1]));
    expect(seqs).toEqual(Array.from({ length: LOG_PANEL_ROWS }, (_, i) => LOG_PANEL_ROWS + 2 - i));
    expect(html).not.toContain('<b>');
    expect(html).toContain('&lt;b&gt;Eve&lt;/b&gt;');
    expect(html).toContain('rewound 24 ticks');
  });
});

describe('lobby seats', () => {
  it('lists the seats by slot with escaped names, marks this player\'s row', () => {
    const html = seatsHtml({ code: 'AB2CD', startsAt: null, now: 0, seats: [
      { slot: 1, name: '<img src=x onerror=alert(1)>', car: 'rally-awd', ready: true },
      { slot: 0, name: 'Ann & Bo', car: 'no-such-car', ready: false },
    ] }, 1);
    expect([...html.matchAll(/data-slot="(\d)"/g)].map((m) => m[1])).toEqual(['0', '1']);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('Ann &amp; Bo');
    expect(html).toContain('no-such-car'); // an unknown car id is shown as it is
    expect(html).toMatch(/<tr class="mp-me" data-slot="1">/);
  });
});

describe('room list items', () => {
  const room: RoomListEntry = { code: 'ABCDE', kind: 'race', stage: 'rallycross-bitring', seats: 3, maxSeats: 32, started: false, joinable: true };
  it('show code, kind, stage name (escaped), seats and state; only joinable rooms are enabled', () => {
    const open = roomItemHtml(room, () => '<img src=x onerror=alert(1)>');
    expect(open).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(open).not.toContain('<img');
    expect(open).toContain('data-room="ABCDE"');
    expect(open).toContain('Rallycross');
    expect(open).toContain('3/32 · open');
    expect(open).not.toContain('disabled');
    const started = roomItemHtml({ ...room, kind: 'stage', started: true, joinable: false }, (id) => id);
    expect(started).toContain('Stage together');
    expect(started).toContain('racing');
    expect(started).toMatch(/ disabled>/);
    expect(roomItemHtml({ ...room, seats: 32, joinable: false }, (id) => id)).toContain('32/32 · full');
  });
});
