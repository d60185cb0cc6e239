/** The server's small rules: player names and keys, car classes, the container pre-check, the board cache and its prebuilt answers. */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { keyFromAuthorization, NAME_MAX_CHARS, playerIdOf, validateName } from '../../server/players';
import { carClassOf, shippedCarClasses } from '../../server/verify/car-classes';
import { containerProblem, MAX_SUBMISSION_PAYLOAD_BYTES } from '../../server/routes/submissions';
import { BoardCache, EVERY_BOARD } from '../../server/board-cache';
import { WindowLimiter } from '../../server/window-limiter';
import { matchesEtag, prebuildJson } from '../../server/cached-response';
import { BUILTIN_CARS } from '../../src/content/cars/index';
import { zipBomb } from './fixtures';

describe('player names and keys', () => {
  it('normalises and accepts names of letters, digits, space, _ - .', () => {
    expect(validateName('  Åsa   Öberg ')).toEqual({ ok: true, name: 'Åsa Öberg' });
    // NFC: "e" + combining acute is one character
    expect(validateName('Rene\u0301')).toEqual({ ok: true, name: 'René' });
    expect(validateName('x'.repeat(NAME_MAX_CHARS))).toMatchObject({ ok: true });
  });
  it('refuses markup, control and invisible characters, wrong lengths and non-strings', () => {
    for (const bad of ['<b>x</b>', 'a&b', `it's`, 'a"b', 'tab\tx', 'nul\0x', 'zw\u200bj', 'rtl\u202ex', 'x', 'x'.repeat(NAME_MAX_CHARS + 1), 42, null]) {
      expect(validateName(bad).ok).toBe(false);
    }
  });
  it('the player id is the SHA-256 of the key; malformed keys are not keys', () => {
    const key = 'k'.repeat(43);
    expect(playerIdOf(key)).toBe(createHash('sha256').update(key).digest('hex'));
    expect(keyFromAuthorization(`Bearer ${key}`)).toBe(key);
    for (const h of [undefined, key, `Bearer ${'k'.repeat(31)}`, `Bearer ${key}!`, `Basic ${key}`]) expect(keyFromAuthorization(h)).toBeNull();
  });
});

describe('car classes', () => {
  const classes = shippedCarClasses();
  it('every shipped car is its own class; one changed byte is no class', () => {
    expect(classes.map((c) => c.id).sort()).toEqual(BUILTIN_CARS.map((c) => c.id).sort());
    for (const c of classes) {
      expect(carClassOf({ main: c.main, files: { ...c.files } }, classes)?.id).toBe(c.id);
      const text = c.files[c.main]!;
      expect(carClassOf({ main: c.main, files: { ...c.files, [c.main]: text + ' ' } }, classes)).toBeNull();
      expect(carClassOf({ main: c.main, files: { ...c.files, 'extra.toml': '' } }, classes)).toBeNull();
    }
  });
});

describe('container pre-check', () => {
  it('passes a payload at the cap and refuses one byte more, short files and other magic', () => {
    expect(containerProblem(zipBomb(1024, MAX_SUBMISSION_PAYLOAD_BYTES))).toBeNull();
    expect(containerProblem(zipBomb(1024, MAX_SUBMISSION_PAYLOAD_BYTES + 1))).toMatch(/inflates to/);
    expect(containerProblem(new Uint8Array(10))).toMatch(/at least 24 bytes/);
    expect(containerProblem(new Uint8Array(24))).toMatch(/magic/);
  });
});

describe('board cache', () => {
  it('serves a cached answer until cleared; a load that straddles a clear is not cached', async () => {
    const cache = new BoardCache();
    let loads = 0;
    const load = async (): Promise<number> => ++loads;
    expect(await cache.get('a', load)).toBe(1);
    expect(await cache.get('a', load)).toBe(1);
    cache.clear();
    expect(await cache.get('a', load)).toBe(2);
    let release!: () => void;
    const slow = cache.get('b', () => new Promise<number>((res) => (release = () => res(-1))));
    cache.clear();
    release();
    expect(await slow).toBe(-1);
    expect(await cache.get('b', load)).toBe(3);
  });
});

describe('board cache loads', () => {
  it('concurrent misses of one key share one load; a miss after a clear does not join a load from before it', async () => {
    const cache = new BoardCache();
    let loads = 0;
    const releases: (() => void)[] = [];
    const load = (): Promise<number> => {
      const n = ++loads;
      return new Promise<number>((res) => releases.push(() => res(n)));
    };
    const before = [cache.get('top A', load, 'A'), cache.get('top A', load, 'A'), cache.get('top A', load, 'A')];
    expect(loads).toBe(1);
    cache.clearBoard('A');
    const after = [cache.get('top A', load, 'A'), cache.get('top A', load, 'A')];
    expect(loads).toBe(2);
    for (const r of releases) r();
    expect(await Promise.all([...before, ...after])).toEqual([1, 1, 1, 2, 2]);
    // the load from after the clear is the one cached
    expect(await cache.get('top A', load, 'A')).toBe(2);
    expect(loads).toBe(2);
  });
});

describe('board cache scopes', () => {
  it('an accepted run on one board drops that board and what spans every board, not the other boards', async () => {
    const cache = new BoardCache();
    let loads = 0;
    const load = async (): Promise<number> => ++loads;
    await cache.get('top A', load, 'A');
    await cache.get('top B', load, 'B');
    await cache.get('boards', load, EVERY_BOARD);
    expect(loads).toBe(3);
    cache.clearBoard('A');
    // B is still cached (no load), A and the list are loaded again
    expect([await cache.get('top B', load, 'B'), await cache.get('top A', load, 'A'), await cache.get('boards', load)]).toEqual([2, 4, 5]);
  });
});

describe('prebuilt board answers', () => {
  it('hold the JSON bytes once with a strong ETag that is the SHA-1 of those bytes', () => {
    const value = { board: { stageHash: 'feedfacecafebeef' }, rows: [{ rank: 1, name: 'Ann Ä. <b>V</b>', stageTimeS: 41.25 }] };
    const r = prebuildJson(value);
    expect(r.body.equals(Buffer.from(JSON.stringify(value), 'utf8'))).toBe(true);
    expect(r.etag).toBe(`"${createHash('sha1').update(JSON.stringify(value)).digest('base64url')}"`);
    // the same board gives the same tag (a client keeps its copy across cache drops); one changed row another
    expect(prebuildJson(structuredClone(value)).etag).toBe(r.etag);
    expect(prebuildJson({ ...value, rows: [{ ...value.rows[0], stageTimeS: 41.26 }] }).etag).not.toBe(r.etag);
  });

  it('match If-None-Match by RFC 9110 weak comparison: exact, in a list, W/ form, *; nothing else', () => {
    const tag = prebuildJson([1, 2]).etag;
    expect([tag, `"x", ${tag}`, `W/${tag}`, '*'].map((h) => matchesEtag(h, tag))).toEqual([true, true, true, true]);
    expect([undefined, '', tag.slice(1, -1), '"x"', `${tag}x`].map((h) => matchesEtag(h, tag))).toEqual([false, false, false, false, false]);
  });
});

describe('per-key window limiter', () => {
  it('allows `max` per window per key, tells the wait, and opens a new window when it ends', () => {
    let t = 0;
    const lim = new WindowLimiter(2, 60_000, () => t);
    expect([lim.take('a'), lim.take('a'), lim.take('b')]).toEqual([null, null, null]);
    t = 15_000;
    expect(lim.take('a')).toBe(45);
    t = 60_000;
    expect(lim.take('a')).toBeNull();
  });
});
