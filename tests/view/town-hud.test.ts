/** Town HUD formatting (issue 23): incident lines carry the closing speed and each party's |Δv|; the feed keeps recent ones. */
import { describe, expect, it } from 'vitest';
import { FEED_ENTRY_S, FEED_MAX, feedEntries, formatIncident, formatTownInfo, partyDeltaV } from '../../src/systems/view/town-hud';
import type { Accident } from '../../src/run/town-accidents';

const accident = (timeS: number, over: Partial<Accident> = {}): Accident => ({
  tick: Math.round(timeS * 500),
  timeS,
  kind: 'car-car',
  instructed: true,
  closingMS: 8.25,
  impulseNs: 9000,
  contacts: 1,
  x: 0,
  z: 0,
  parties: [
    { id: 'traffic 12', massKg: 1200, dvx: 3, dvz: 4, crushM: 0.1, end: 'front' },
    { id: 'traffic 40', massKg: 1500, dvx: -2.4, dvz: -3.2, crushM: 0.08, end: 'rear' },
  ],
  ...over,
});

describe('town HUD', () => {
  it('formats an incident: vehicles, closing speed, |Δv| of each moving party', () => {
    const a = accident(10);
    // |(3, 4)| = 5 and |(−2.4, −3.2)| = 4 (3-4-5 triangles); the momentum balance 1200·5 = 1500·4 holds
    expect(partyDeltaV(a.parties[0]!)).toBe(5);
    expect(partyDeltaV(a.parties[1]!)).toBeCloseTo(4, 12);
    expect(formatIncident(a)).toBe('Accident (instructed): car 12 → car 40 · closing 8.3 m/s · Δv car 12 5.0, car 40 4.0 m/s');
    const wall = accident(3, { instructed: false, kind: 'car-building', parties: [{ id: 'player', massKg: 1300, dvx: 0, dvz: -6, crushM: 0.2, end: 'front' }, { id: 'building 7', massKg: Infinity, dvx: 0, dvz: 0, crushM: 0, end: 'front' }] });
    expect(formatIncident(wall)).toBe('Accident: you → building 7 · closing 8.3 m/s · Δv you 6.0 m/s');
  });

  it('keeps an incident FEED_ENTRY_S, newest first, at most FEED_MAX', () => {
    const list = [accident(1), accident(2), accident(3), accident(4), accident(5), accident(6)];
    expect(feedEntries(list, 6).map((a) => a.timeS)).toEqual([6, 5, 4, 3].slice(0, FEED_MAX));
    expect(feedEntries(list, 1 + FEED_ENTRY_S).map((a) => a.timeS)).toEqual([6, 5, 4, 3]);
    expect(feedEntries(list, 6 + FEED_ENTRY_S + 0.01)).toEqual([]);
    expect(feedEntries([accident(1)], 1 + FEED_ENTRY_S + 0.01)).toEqual([]);
  });

  it('formats the town info line', () => {
    expect(formatTownInfo({ seed: 7, simulated: 200, promoted: 3, lights: [12, 2, 14], accidents: 1 })).toBe('Town 7 · 200 cars (3 full model) · lights 12 G 2 Y 14 R · 1 accident');
    expect(formatTownInfo({ seed: 1, simulated: 0, promoted: 0, lights: [0, 0, 0], accidents: 2 })).toMatch(/2 accidents$/);
  });
});
