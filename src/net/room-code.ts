/**
 * A room's join code (issue #22 item 1): ROOM_CODE_LENGTH characters from an alphabet without look-alikes (no I,
 * O, 0, 1), so a player can read it off another screen and enter it with a gamepad. The server makes the codes
 * (server/rooms/race-room.ts); the game's code entry offers exactly these characters.
 */
export const ROOM_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const ROOM_CODE_LENGTH = 5;

/** `text` upper-cased when it is a complete, well-formed room code; null otherwise. */
export function normaliseRoomCode(text: string): string | null {
  const c = text.trim().toUpperCase();
  if (c.length !== ROOM_CODE_LENGTH) return null;
  for (const ch of c) if (!ROOM_CODE_ALPHABET.includes(ch)) return null;
  return c;
}
