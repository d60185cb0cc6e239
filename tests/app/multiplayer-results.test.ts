/**
 * The multiplayer finish screen's table (src/app/multiplayer/results-view.ts): rows in the room's order, the
 * server's times formatted, the gap to the winner, DNF with its reason, names escaped, this player's row marked;
 * and when the drive hands over to it.
 */
import { describe, expect, it } from 'vitest';
import { raceOverFor, resultsHeadHtml, resultsRowsHtml } from '../../src/app/multiplayer/results-view';
import { RECOVER_PENALTY_S } from '../../src/systems/sim/vehicle/recovery';
import { rankResults, type RoomResults } from '../../src/net/results';
import { formatDelta, formatTime } from '../../src/run/stage-run';

const DT = 0.002;
const results = (final: boolean): RoomResults => ({
  final,
  rows: rankResults([
    { slot: 2, name: '<img src=x onerror=alert(1)>', car: 'rally-awd', status: 'dnf', finishTick: null, timeS: null, penaltyS: null, retired: 'disconnect', laps: null },
    { slot: 0, name: 'Ann & Bo', car: 'rally-awd', status: 'finished', finishTick: 20_000, timeS: 20_000 * DT, penaltyS: 0, retired: null, laps: null },
    { slot: 1, name: 'Cy', car: 'no-such-car', status: 'finished', finishTick: 18_861, timeS: 18_861 * DT, penaltyS: 0, retired: null, laps: null },
    { slot: 3, name: 'Di', car: 'rally-awd', status: 'racing', finishTick: null, timeS: null, penaltyS: null, retired: null, laps: null },
  ]),
});

describe('multiplayer results view', () => {
  it('lists finished cars by time with the gap, then racing, then DNF; escapes names; marks my row', () => {
    const html = resultsRowsHtml(results(false), 0);
    expect([...html.matchAll(/data-slot="(\d)" data-status="(\w+)"/g)].map((m) => [m[1], m[2]])).toEqual([['1', 'finished'], ['0', 'finished'], ['3', 'racing'], ['2', 'dnf']]);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('Ann &amp; Bo');
    // the server's times (ticks × dt), the second one's gap to the winner: (20000 − 18861) ticks × 2 ms = 2.278 s
    expect(html).toContain(formatTime(18_861 * DT));
    expect(html).toContain(formatTime(20_000 * DT));
    expect(html).toContain('+2.278');
    expect(html).toContain('DNF · connection lost');
    expect(html).toContain('racing…');
    // exactly my row is marked
    expect(html.match(/mp-me/g)).toHaveLength(1);
    expect(html).toMatch(/<tr class="mp-me mp-finished" data-slot="0"/);
    // an unknown car id is shown as given (escaped)
    expect(html).toContain('<td>no-such-car</td>');
  });

  it("a race room's table adds the laps and the penalties the room counted, on the row it counted them for", () => {
    const LAPS = 3;
    // the room's time already includes the penalty: one recovery (RECOVER_PENALTY_S = 5 s) on slot 1's row
    const race: RoomResults = {
      final: true,
      rows: rankResults([
        { slot: 0, name: 'A', car: 'rally-awd', status: 'finished', finishTick: 30_000, timeS: 30_000 * DT, penaltyS: 0, retired: null, laps: LAPS },
        { slot: 1, name: 'B', car: 'rally-awd', status: 'finished', finishTick: 29_000, timeS: 29_000 * DT + RECOVER_PENALTY_S, penaltyS: RECOVER_PENALTY_S, retired: null, laps: LAPS },
        { slot: 2, name: 'C', car: 'rally-awd', status: 'dnf', finishTick: null, timeS: null, penaltyS: null, retired: 'retired', laps: 1 },
      ]),
    };
    const html = resultsRowsHtml(race, 1, LAPS);
    const cells = [...html.matchAll(/data-slot="(\d)".*?<td data-laps>([^<]*)<\/td><td class="mp-pen" data-penalty>([^<]*)<\/td>/g)].map((m) => [m[1], m[2], m[3]]);
    // the retired car's laps are the ones the room counted before it retired
    // 58 s + 5 s = 63 s against 60 s: slot 0 wins although slot 1 was first on the road
    expect(cells).toEqual([['0', '3/3', ''], ['1', '3/3', `+${RECOVER_PENALTY_S} s`], ['2', '1/3', '']]);
    expect(html).toContain(formatDelta(29_000 * DT + RECOVER_PENALTY_S - 30_000 * DT));
    expect(resultsHeadHtml(LAPS)).toContain('<th>Laps</th><th>Penalty</th>');
    // a stage room's table has neither column
    expect(resultsHeadHtml(null)).not.toContain('Laps');
    expect(resultsRowsHtml(race, 1)).not.toContain('data-laps');
  });

  it('the drive hands over when my car finished or retired, or the results are final', () => {
    expect(raceOverFor(null, 0)).toBe(false);
    expect(raceOverFor(results(false), 3)).toBe(false); // still racing
    expect(raceOverFor(results(false), 0)).toBe(true);
    expect(raceOverFor(results(false), 2)).toBe(true);
    expect(raceOverFor(results(true), 3)).toBe(true);
    expect(raceOverFor(results(true), undefined)).toBe(false);
  });
});
