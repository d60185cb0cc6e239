/**
 * Entering a room's join code with a gamepad or a keyboard: ROOM_CODE_LENGTH characters and a cursor. Left /
 * right on the focused code item cycles the character under the cursor through the code alphabet, confirm moves
 * the cursor on; a typed letter or digit of the alphabet is put at the cursor and moves it on, Backspace moves it
 * back. Characters outside the alphabet (I, O, 0, 1…) are refused, not mapped.
 */
import { normaliseRoomCode, ROOM_CODE_ALPHABET, ROOM_CODE_LENGTH } from '../../net/room-code';

export class CodeEntry {
  /** Index in ROOM_CODE_ALPHABET of each character, -1 = not entered yet. */
  private readonly chars: number[] = new Array<number>(ROOM_CODE_LENGTH).fill(-1);
  cursor = 0;

  /** Steps the character under the cursor by `d` through the alphabet (an empty one starts at A or at 9). */
  cycle(d: -1 | 1): void {
    const n = ROOM_CODE_ALPHABET.length;
    const c = this.chars[this.cursor]!;
    this.chars[this.cursor] = c < 0 ? (d > 0 ? 0 : n - 1) : (c + d + n) % n;
  }

  /** Moves the cursor on (it stays on the last character). */
  advance(): void {
    this.cursor = Math.min(ROOM_CODE_LENGTH - 1, this.cursor + 1);
  }

  /** A typed key: a character of the alphabet is set at the cursor (true); anything else is refused (false). */
  type(key: string): boolean {
    const i = key.length === 1 ? ROOM_CODE_ALPHABET.indexOf(key.toUpperCase()) : -1;
    if (i < 0) return false;
    this.chars[this.cursor] = i;
    this.advance();
    return true;
  }

  /** Backspace: clears the character under the cursor, or the one before it when that one is empty. */
  erase(): void {
    if (this.chars[this.cursor]! < 0 && this.cursor > 0) this.cursor--;
    this.chars[this.cursor] = -1;
  }

  /** The code as shown: entered characters, `_` for the others. */
  text(): string {
    return this.chars.map((c) => (c < 0 ? '_' : ROOM_CODE_ALPHABET[c]!)).join('');
  }

  /** The complete code, or null while a character is missing. */
  code(): string | null {
    return normaliseRoomCode(this.text());
  }
}
