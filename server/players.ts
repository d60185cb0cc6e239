/**
 * Players: a display name and a secret key the game generates on first use and keeps in the browser (no
 * passwords). The server stores only the key's SHA-256, which is also the player's public id: a key cannot be
 * recovered from the id, and whoever holds the key is that player.
 */
import { createHash } from 'node:crypto';

/** A key is 32–128 URL-safe base64 characters (the game makes 32 random bytes → 43 characters). */
export const PLAYER_KEY_PATTERN = /^[A-Za-z0-9_-]{32,128}$/;
export const NAME_MIN_CHARS = 2;
export const NAME_MAX_CHARS = 24;
/**
 * Letters and digits of any script, space, and `_ - .`: no markup characters (`< > & " '`), no control or
 * invisible characters, so a name is safe in any text context; the game still renders it as text, never HTML.
 */
const NAME_CHARS = /^[\p{L}\p{N} _.-]+$/u;

export function playerIdOf(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The key from `Authorization: Bearer <key>`, or null when absent or malformed. */
export function keyFromAuthorization(header: string | undefined): string | null {
  const m = /^Bearer ([^\s]+)$/.exec(header ?? '');
  return m && PLAYER_KEY_PATTERN.test(m[1]!) ? m[1]! : null;
}

/** The normalised name (NFC, trimmed, inner runs of spaces collapsed) or why it is refused. */
export function validateName(raw: unknown): { ok: true; name: string } | { ok: false; reason: string } {
  if (typeof raw !== 'string') return { ok: false, reason: 'name: expected a string' };
  const name = raw.normalize('NFC').trim().replace(/ {2,}/g, ' ');
  const chars = [...name].length;
  if (chars < NAME_MIN_CHARS || chars > NAME_MAX_CHARS) return { ok: false, reason: `name: expected ${NAME_MIN_CHARS}–${NAME_MAX_CHARS} characters, found ${chars}` };
  if (!NAME_CHARS.test(name)) return { ok: false, reason: 'name: expected letters, digits, spaces, "_", "-" or "." only' };
  return { ok: true, name };
}

