/**
 * The two kinds of room (issue #22 item 1): "race", a rallycross race on a closed circuit (the shipped stages whose
 * id starts with CIRCUIT_ID_PREFIX, as the game's rallycross screen lists them), and "stage", everyone on one
 * shipped stage. The server checks a created room's stage against these (server/rooms/stages.ts), the game offers
 * them (src/app/multiplayer).
 */
export type RoomKind = 'race' | 'stage';

export const ROOM_KINDS: readonly RoomKind[] = ['race', 'stage'];

/** Rallycross circuits' stage ids start with this. */
export const CIRCUIT_ID_PREFIX = 'rallycross-';

/** Whether a shipped stage id names a rallycross circuit (the stages a race room may be created on). */
export function isCircuitId(id: string): boolean {
  return id.startsWith(CIRCUIT_ID_PREFIX);
}

/** Laps a race room may be created with (the room checks them, the game's setup offers them). */
export const RACE_LAPS_RANGE = [1, 20] as const;
/** A race room's laps when its creator names none (the offline race's default). */
export const DEFAULT_RACE_LAPS = 3;
