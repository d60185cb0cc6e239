/**
 * A race room's live standings (docs/multiplayer.md "Live standings"): the JSON `standings` message the room sends
 * while a race runs (at most STANDINGS_HZ, only when the order or a number changed). The room ranks the cars from
 * its own lap timing of their state packets: finished cars by their time, then the cars still racing by completed
 * laps, then by distance along the circuit, then the retired. A client takes the message as untrusted input:
 * `parseStandings` refuses anything malformed with a StandingsError naming the key path, expected and found.
 */
import type { ResultStatus } from './results';
import { describeValue } from '../validate/errors';

/** Standings messages per second at most (the room's send interval is 1000 / STANDINGS_HZ ms). */
export const STANDINGS_HZ = 2;
/** Rows in one message at most: a room's seats (server/rooms/race-room.ts MAX_CARS_PER_ROOM). */
export const MAX_STANDINGS_ROWS = 32;
/** Longest name a row carries (the room cuts names to this on join). */
export const MAX_STANDINGS_NAME = 32;
/** Distance along the circuit is sent rounded to this, m (finer changes are no news for a tower). */
export const STANDINGS_PROGRESS_STEP_M = 1;

export interface StandingsRow {
  slot: number;
  name: string;
  status: ResultStatus;
  /** Completed laps. */
  laps: number;
  /** Distance driven along the circuit since the start line, m (laps included), rounded to STANDINGS_PROGRESS_STEP_M. */
  progressM: number;
  /** The room's race time with penalties, s; null unless finished. */
  timeS: number | null;
}

export interface Standings {
  /** In race order: position n is rows[n − 1]. */
  rows: StandingsRow[];
}

/** A standings message that is not what the room sends. */
export class StandingsError extends Error {
  constructor(readonly path: string, expected: string, found: unknown) {
    super(`standings message: ${path}: expected ${expected}, found ${describeValue(found)}`);
    this.name = 'StandingsError';
  }
}

const STATUS_ORDER: Record<ResultStatus, number> = { finished: 0, racing: 1, dnf: 2 };

/** The rows in race order: finished by time, racing by laps then distance (most first), retired; then by slot. */
export function rankStandings(rows: readonly StandingsRow[]): StandingsRow[] {
  return [...rows].sort(
    (a, b) =>
      STATUS_ORDER[a.status] - STATUS_ORDER[b.status] ||
      (a.status === 'finished' ? (a.timeS ?? 0) - (b.timeS ?? 0) : 0) ||
      b.laps - a.laps ||
      b.progressM - a.progressM ||
      a.slot - b.slot,
  );
}

function field<T>(o: Record<string, unknown>, path: string, key: string, ok: (v: unknown) => v is T, expected: string): T {
  const v = o[key];
  if (!ok(v)) throw new StandingsError(`${path}.${key}`, expected, v);
  return v;
}

const isSlot = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) < MAX_STANDINGS_ROWS;
const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;
const isFinite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isName = (v: unknown): v is string => typeof v === 'string' && v.length <= MAX_STANDINGS_NAME;
const isStatus = (v: unknown): v is ResultStatus => v === 'racing' || v === 'finished' || v === 'dnf';
const isTime = (v: unknown): v is number | null => v === null || (isFinite(v) && v >= 0);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseRow(v: unknown, path: string): StandingsRow {
  if (!isRecord(v)) throw new StandingsError(path, 'an object', v);
  const row: StandingsRow = {
    slot: field(v, path, 'slot', isSlot, `an integer slot 0..${MAX_STANDINGS_ROWS - 1}`),
    name: field(v, path, 'name', isName, `a string of at most ${MAX_STANDINGS_NAME} characters`),
    status: field(v, path, 'status', isStatus, '"racing", "finished" or "dnf"'),
    laps: field(v, path, 'laps', isCount, 'a whole number of laps ≥ 0'),
    progressM: field(v, path, 'progressM', isFinite, 'a finite distance, m'),
    timeS: field(v, path, 'timeS', isTime, 'null or a time ≥ 0, s'),
  };
  if ((row.status === 'finished') !== (row.timeS !== null)) {
    throw new StandingsError(`${path}.timeS`, row.status === 'finished' ? 'a time for a finished car' : 'null for a car that has not finished', row.timeS);
  }
  return row;
}

/** The room's standings from an untrusted message; throws StandingsError when anything is malformed. */
export function parseStandings(msg: unknown): Standings {
  if (!isRecord(msg)) throw new StandingsError('(top level)', 'an object', msg);
  const rows = msg.rows;
  if (!Array.isArray(rows) || rows.length > MAX_STANDINGS_ROWS) throw new StandingsError('rows', `an array of at most ${MAX_STANDINGS_ROWS} rows`, rows);
  const parsed = rows.map((r, i) => parseRow(r, `rows[${i}]`));
  const seen = new Set<number>();
  parsed.forEach((r, i) => {
    if (seen.has(r.slot)) throw new StandingsError(`rows[${i}].slot`, 'a slot not listed before', r.slot);
    seen.add(r.slot);
  });
  return { rows: parsed };
}

/** The player's position "P2/4", or null when the slot is not in the standings. */
export function positionText(s: Standings, slot: number): string | null {
  const i = s.rows.findIndex((r) => r.slot === slot);
  return i < 0 ? null : `P${i + 1}/${s.rows.length}`;
}

/**
 * What a tower row shows right of the name: the leader's lap (or its time once finished); for the others the gap
 * to the leader: "+4.2 s" between finished cars, "+1 lap" / "+2 laps" laps down, else "+35 m" along the circuit;
 * its own lap once the leader has finished; "DNF" for retired cars.
 */
export function gapText(row: StandingsRow, leader: StandingsRow): string {
  if (row.status === 'dnf') return 'DNF';
  if (row === leader) return row.status === 'finished' ? `${row.timeS!.toFixed(1)} s` : `Lap ${row.laps + 1}`;
  if (row.status === 'finished') return `+${(row.timeS! - (leader.timeS ?? row.timeS!)).toFixed(1)} s`;
  if (leader.status === 'finished') return `Lap ${row.laps + 1}`;
  const lapsDown = leader.laps - row.laps;
  if (lapsDown > 0) return `+${lapsDown} lap${lapsDown > 1 ? 's' : ''}`;
  return `+${Math.max(0, Math.round(leader.progressM - row.progressM))} m`;
}
