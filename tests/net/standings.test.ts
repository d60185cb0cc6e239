/**
 * The race room's live standings on the client (src/net/standings.ts, src/app/multiplayer/standings-tower.ts):
 * the order rule (finished by time, racing by laps then distance, retired last), the untrusted message's parse
 * (every malformed message refused with a StandingsError naming the key path, expected and found; a client fed
 * one keeps going), the position "P2/4" and the tower's gaps.
 */
import { describe, expect, it } from 'vitest';
import {
  gapText, MAX_STANDINGS_NAME, MAX_STANDINGS_ROWS, parseStandings, positionText, rankStandings, StandingsError,
  type StandingsRow,
} from '../../src/net/standings';
import { standingsTowerHtml, TOWER_ROWS } from '../../src/app/multiplayer/standings-tower';

const row = (slot: number, o: Partial<StandingsRow> = {}): StandingsRow => ({ slot, name: `p${slot}`, status: 'racing', laps: 0, progressM: 0, timeS: null, ...o });

describe('live standings', () => {
  it('ranks finished cars by time, then racing cars by laps and distance, then the retired; ties by slot', () => {
    const rows = [
      row(0, { status: 'dnf', laps: 3, progressM: 2900 }),
      row(1, { laps: 2, progressM: 1900 }),
      row(2, { status: 'finished', laps: 3, progressM: 2710, timeS: 95.5 }),
      row(3, { laps: 2, progressM: 1950 }),
      // a lap up but less distance (a joker's shortcut measured along the main path): laps decide first
      row(4, { laps: 3, progressM: 1940 }),
      row(5, { status: 'finished', laps: 3, progressM: 2705, timeS: 93.25 }),
      row(6, { laps: 2, progressM: 1900 }),
    ];
    expect(rankStandings(rows).map((r) => r.slot)).toEqual([5, 2, 4, 3, 1, 6, 0]);
  });

  it('parses what the room sends and refuses malformed messages with the key path, expected and found', () => {
    const good = { rows: [row(1, { status: 'finished', laps: 2, progressM: 1800, timeS: 61.5 }), row(0, { laps: 1, progressM: 1000.5 })] };
    expect(parseStandings(JSON.parse(JSON.stringify(good)))).toEqual(good);
    const refused = (m: unknown): string => {
      try {
        parseStandings(m);
      } catch (e) {
        expect(e).toBeInstanceOf(StandingsError);
        return (e as Error).message;
      }
      throw new Error('accepted a malformed message');
    };
    expect(refused(null)).toBe('standings message: (top level): expected an object, found null');
    expect(refused('rows')).toBe('standings message: (top level): expected an object, found "rows"');
    expect(refused({})).toBe(`standings message: rows: expected an array of at most ${MAX_STANDINGS_ROWS} rows, found nothing (missing)`);
    expect(refused({ rows: Array.from({ length: MAX_STANDINGS_ROWS + 1 }, (_, i) => row(i % MAX_STANDINGS_ROWS)) })).toBe(
      `standings message: rows: expected an array of at most ${MAX_STANDINGS_ROWS} rows, found array of ${MAX_STANDINGS_ROWS + 1}`,
    );
    expect(refused({ rows: [7] })).toBe('standings message: rows[0]: expected an object, found number 7');
    expect(refused({ rows: [row(0), { ...row(1), slot: -1 }] })).toMatch(/^standings message: rows\[1\]\.slot: expected an integer slot 0\.\.31, found number -1$/);
    expect(refused({ rows: [{ ...row(0), slot: 1.5 }] })).toContain('rows[0].slot: expected an integer slot');
    expect(refused({ rows: [{ ...row(0), name: 'x'.repeat(MAX_STANDINGS_NAME + 1) }] })).toContain(`rows[0].name: expected a string of at most ${MAX_STANDINGS_NAME} characters`);
    expect(refused({ rows: [{ ...row(0), status: 'winning' }] })).toBe('standings message: rows[0].status: expected "racing", "finished" or "dnf", found "winning"');
    expect(refused({ rows: [{ ...row(0), laps: -1 }] })).toContain('rows[0].laps: expected a whole number of laps ≥ 0, found number -1');
    expect(refused({ rows: [{ ...row(0), progressM: 'far' }] })).toContain('rows[0].progressM: expected a finite distance, m, found "far"');
    expect(refused({ rows: [{ ...row(0), progressM: null }] })).toContain('rows[0].progressM: expected a finite distance, m, found null');
    expect(refused({ rows: [{ ...row(0), timeS: -3 }] })).toContain('rows[0].timeS: expected null or a time ≥ 0, s, found number -3');
    // status and time must agree: a finished car has a time, the others none
    expect(refused({ rows: [row(0, { status: 'finished' })] })).toBe('standings message: rows[0].timeS: expected a time for a finished car, found null');
    expect(refused({ rows: [row(0, { timeS: 12 })] })).toBe('standings message: rows[0].timeS: expected null for a car that has not finished, found number 12');
    expect(refused({ rows: [row(3), row(3)] })).toBe('standings message: rows[1].slot: expected a slot not listed before, found number 3');
  });

  it('shows the position P n/N and the gap to the leader in time, laps or metres', () => {
    const s = { rows: rankStandings([row(0, { laps: 1, progressM: 1234.4 }), row(1, { laps: 1, progressM: 1190 }), row(2, { laps: 0, progressM: 800 }), row(3, { status: 'dnf' })]) };
    expect([0, 1, 2, 3, 9].map((slot) => positionText(s, slot))).toEqual(['P1/4', 'P2/4', 'P3/4', 'P4/4', null]);
    const leader = s.rows[0]!;
    // the leader drives its second lap; 1234.4 − 1190 = 44.4 m → 44 m; one lap down; retired
    expect(s.rows.map((r) => gapText(r, leader))).toEqual(['Lap 2', '+44 m', '+1 lap', 'DNF']);
    const fin = { rows: rankStandings([row(0, { status: 'finished', laps: 2, timeS: 80.25 }), row(1, { status: 'finished', laps: 2, timeS: 84.5 }), row(2, { laps: 1, progressM: 1500 })]) };
    // 84.5 − 80.25 = 4.25 s shown to 0.1 s; a car still racing once the leader finished shows its own lap
    expect(fin.rows.map((r) => gapText(r, fin.rows[0]!))).toEqual(['80.3 s', '+4.3 s', 'Lap 2']);
    expect(gapText(row(5, { laps: 0 }), row(4, { laps: 3 }))).toBe('+3 laps');
  });

  it("the tower lists the leaders and always the player's row, marked; names escaped", () => {
    const rows = rankStandings(Array.from({ length: 12 }, (_, i) => row(i, { name: i === 10 ? '<b>x</b>' : `p${i}`, progressM: 1000 - 10 * i })));
    const slotsShown = (html: string): number[] => [...html.matchAll(/data-slot="(\d+)"/g)].map((m) => Number(m[1]));
    // the player 11th: the first TOWER_ROWS − 1, then its own row
    const far = standingsTowerHtml({ rows }, 10);
    expect(slotsShown(far)).toEqual([0, 1, 2, 3, 4, 5, 6, 10]);
    expect(far).toContain('P11/12');
    expect(far).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(far.match(/mp-me/g)).toHaveLength(1);
    // the player among the leaders: the first TOWER_ROWS
    expect(slotsShown(standingsTowerHtml({ rows }, 2))).toEqual([...Array(TOWER_ROWS).keys()]);
    expect(standingsTowerHtml({ rows: [] }, 0)).toBe('');
  });
});
