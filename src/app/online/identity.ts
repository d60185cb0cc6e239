/**
 * The player's online identity: a secret key made on first use (32 random bytes, base64url; docs/server.md
 * "Players") and a display name, kept in the browser's localStorage. The server knows the player by the
 * key's SHA-256 (the public player id); the key itself never leaves this browser except as the Bearer token.
 */
import type { KeyValueStore } from '../settings';

export const IDENTITY_KEY = 'bitrally.identity.v1';
/** Random bytes in a key (256 bits: unguessable). */
const KEY_BYTES = 32;
/** What the server accepts as a key (server/players.ts PLAYER_KEY_PATTERN). */
const KEY_PATTERN = /^[A-Za-z0-9_-]{32,128}$/;

export interface Identity {
  key: string;
  name: string;
  /** The name the server has on record for this key (null: not registered yet). */
  registeredName: string | null;
}

function base64url(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A fresh player key from the platform's cryptographic random source. */
export function generatePlayerKey(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(KEY_BYTES)));
}

/** The public player id: SHA-256 of the key's UTF-8 bytes, 64 hex digits (as the server computes it). */
export async function playerIdOf(key: string): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key)));
  return [...d].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A first name for a new player: "Driver" and four characters of the key (letters and digits only). */
function defaultName(key: string): string {
  return `Driver ${key.replace(/[^A-Za-z0-9]/g, '').slice(0, 4)}`;
}

/** The stored identity, or a new one (saved at once) when there is none or it is malformed. */
export function loadIdentity(store: KeyValueStore | undefined): Identity {
  try {
    const text = store?.getItem(IDENTITY_KEY);
    if (text) {
      const o = JSON.parse(text) as Partial<Identity>;
      if (typeof o.key === 'string' && KEY_PATTERN.test(o.key) && typeof o.name === 'string') {
        return { key: o.key, name: o.name, registeredName: typeof o.registeredName === 'string' ? o.registeredName : null };
      }
      console.warn(`${IDENTITY_KEY}: expected {key, name}, found a malformed value; a new identity is made`);
    }
  } catch {
    /* storage unavailable or bad JSON: a new identity for this session */
  }
  const key = generatePlayerKey();
  const id: Identity = { key, name: defaultName(key), registeredName: null };
  saveIdentity(store, id);
  return id;
}

export function saveIdentity(store: KeyValueStore | undefined, id: Identity): void {
  try {
    store?.setItem(IDENTITY_KEY, JSON.stringify(id));
  } catch {
    /* storage full or disabled: the identity lives for this session */
  }
}
