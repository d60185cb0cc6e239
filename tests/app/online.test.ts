/**
 * The game's online client in Node against the real server process (tests/server/spawn.ts, PGlite in a temp
 * dir, loopback): identity, registration, submission with its verdict and rank, the board order of two
 * players, a ghost download byte-equal to the upload, and the offline queue (server down → kept → server back
 * → acknowledged once, idempotent on a second send).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { spawnServer, type ServerProcess } from '../server/spawn';
import { recordFinishedRun } from '../server/fixtures';
import { ApiError, normaliseServerUrl, OfflineError, OnlineApi } from '../../src/app/online/api';
import { generatePlayerKey, loadIdentity, playerIdOf, IDENTITY_KEY } from '../../src/app/online/identity';
import { MemoryQueueStore, SubmissionQueue } from '../../src/app/online/queue';
import { OnlineService } from '../../src/app/online/service';
import { describeSubmission, viewOfSubmission, type SubmissionView } from '../../src/app/online/status';
import { decodeReplay } from '../../src/replay/format';

/** A port nothing listens on (the discard port on loopback): every request fails to connect. */
const DEAD_URL = 'http://127.0.0.1:9';

function memoryStorage(): { getItem(k: string): string | null; setItem(k: string, v: string): void; map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v) };
}

function serviceFor(url: () => string | null) {
  const storage = memoryStorage();
  const store = new MemoryQueueStore();
  const svc = new OnlineService({ serverUrl: url, submitRuns: () => true, storage, now: () => '2026-01-01T00:00:00Z' }, store);
  return { svc, storage, store };
}

describe('identity', () => {
  it('makes a 256-bit base64url key once and keeps it', () => {
    const storage = memoryStorage();
    const a = loadIdentity(storage);
    // 32 bytes → ceil(32·4/3) = 43 base64url characters, no padding
    expect(a.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(loadIdentity(storage).key).toBe(a.key);
    expect(generatePlayerKey()).not.toBe(a.key);
    storage.setItem(IDENTITY_KEY, '{"key":"<script>","name":1}');
    expect(loadIdentity(storage).key).not.toBe('<script>');
  });

  it('player id is the SHA-256 of the key, as the server computes it', async () => {
    const key = generatePlayerKey();
    expect(await playerIdOf(key)).toBe(createHash('sha256').update(key, 'utf8').digest('hex'));
  });

  it('server URLs: http(s) only, no trailing slash', () => {
    expect(normaliseServerUrl(' http://127.0.0.1:8787/ ')).toBe('http://127.0.0.1:8787');
    expect(normaliseServerUrl('javascript:alert(1)')).toBeNull();
    expect(normaliseServerUrl('')).toBeNull();
  });
});

describe('status line', () => {
  const row = { id: 7, reasonCode: null, reason: null, stageTimeS: 61.5, board: null, submittedAt: '', verifiedAt: null };
  it('says each state of a server row', () => {
    expect(describeSubmission(viewOfSubmission({ ...row, status: 'pending' }))).toBe('Online: verifying on the server…');
    expect(describeSubmission(viewOfSubmission({ ...row, status: 'accepted' }, 3))).toBe('Online: accepted — rank 3');
    expect(describeSubmission(viewOfSubmission({ ...row, status: 'rejected', reasonCode: 'checksum-mismatch', reason: 'tick 12: state differs' }))).toBe('Online: refused — tick 12: state differs');
  });
});

describe('offline', () => {
  it('an unreachable server is OfflineError and the run stays queued', async () => {
    await expect(new OnlineApi(DEAD_URL, generatePlayerKey()).boards()).rejects.toBeInstanceOf(OfflineError);
    const { svc, store } = serviceFor(() => DEAD_URL);
    const views: SubmissionView[] = [];
    expect(await svc.submitRun(new Uint8Array([1, 2, 3]), 'test-short', (v) => views.push(v))).toBe(true);
    expect(views.map((v) => v.state)).toEqual(['queued', 'offline']);
    expect(describeSubmission(views[1]!)).toBe('Online: offline, queued for later');
    expect((await store.all()).length).toBe(1);
  });

  it('no server configured: nothing is submitted or queued', async () => {
    const { svc, store } = serviceFor(() => null);
    expect(await svc.submitRun(new Uint8Array([1]), null, () => undefined)).toBe(false);
    expect(await store.all()).toEqual([]);
  });
});

describe('against the real server', () => {
  let dir: string;
  let server: ServerProcess;
  let fast: Uint8Array;
  let slow: Uint8Array;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bitrally-online-'));
    server = await spawnServer(dir);
    // two AI drivers of different skill: two different drives, two times
    fast = recordFinishedRun('rally-awd', 1);
    slow = recordFinishedRun('rally-awd', 0.7);
  }, 240_000);

  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    rmSync(dir, { recursive: true, force: true });
  });

  it('registration: a bad name is refused with the server reason', async () => {
    const api = new OnlineApi(server.url, generatePlayerKey());
    await expect(api.register('<b>x</b>')).rejects.toBeInstanceOf(ApiError);
    expect((await api.register('Ана Rally')).name).toBe('Ана Rally');
  });

  it('two players: accepted with ranks in time order, ghost bytes equal the upload', async () => {
    const a = serviceFor(() => server.url);
    const b = serviceFor(() => server.url);
    const verdicts: SubmissionView[] = [];
    for (const [s, bytes] of [
      [a.svc, slow],
      [b.svc, fast],
    ] as const) {
      const done = new Promise<SubmissionView>((res) =>
        s.submitRun(bytes, 'test-short', (v) => {
          if (v.state === 'accepted' || v.state === 'refused') res(v);
        }),
      );
      verdicts.push(await done);
    }
    expect(verdicts.map((v) => v.state)).toEqual(['accepted', 'accepted']);
    const timeOf = (bytes: Uint8Array) => decodeReplay(bytes).header.result!.stageTimeS!;
    expect(timeOf(fast)).toBeLessThan(timeOf(slow));
    // the faster run is first once both are on the board, whatever the order of submission
    const api = b.svc.api()!;
    const board = (await api.boards()).find((x) => x.stageId === 'test-short')!;
    const rows = (await api.top(board, 10)).rows;
    expect(rows.map((r) => r.playerId)).toEqual([await b.svc.playerId(), await a.svc.playerId()]);
    expect(rows.map((r) => r.stageTimeS)).toEqual([timeOf(fast), timeOf(slow)]);
    expect((verdicts[1] as { rank: number }).rank).toBe(1);
    expect(await api.ghost(rows[1]!.submissionId)).toEqual(slow);
    const hist = await api.history(await a.svc.playerId(), 5);
    expect(hist.submissions[0]!.status).toBe('accepted');
  });

  it('offline queue: kept while the server is away, sent once it is back, idempotent', async () => {
    const third = recordFinishedRun('rally-awd', 0.85);
    let url = DEAD_URL;
    const { svc, store } = serviceFor(() => url);
    const views: SubmissionView[] = [];
    await svc.submitRun(third, 'test-short', (v) => views.push(v));
    expect(views.at(-1)!.state).toBe('offline');
    const kept = (await store.all())[0]!;
    expect(kept.bytes).toEqual(third);
    // the server is back (at its test address: the queued run keeps the server it was made for, so point it there)
    url = server.url;
    await store.put({ ...kept, serverUrl: server.url });
    await svc.queue.flush();
    // a kept run names why in the last view (offline: the reason of the failed send)
    expect((await store.all()).length, JSON.stringify(views.at(-1))).toBe(0);
    const verdict = await new Promise<SubmissionView>((res) => {
      const check = (): void => {
        const v = views.at(-1)!;
        if (v.state === 'accepted' || v.state === 'refused') res(v);
        else setTimeout(check, 200);
      };
      check();
    });
    expect(verdict.state, JSON.stringify(views)).toBe('accepted');
    // the same file from the same key again: the server answers with the same row (no second row)
    const ids: (number | string)[] = [];
    for (const key of [svc.identity.key, a2key()]) {
      const again = new SubmissionQueue(new MemoryQueueStore(), async () => new OnlineApi(server.url, key));
      again.onOutcome = (_r, o) => ids.push(o.kind === 'sent' ? o.info.id : o.kind);
      await again.add(third, server.url, key, 'test-short', 'now');
      await again.flush();
    }
    // another player's copy of the file is refused for good (409), not kept for retrying
    expect(ids).toEqual([(verdict as { id: number }).id, 'refused']);
  }, 40_000);

  /** A second registered player's key. */
  let second: string | null = null;
  function a2key(): string {
    return second!;
  }
  beforeAll(async () => {
    second = generatePlayerKey();
    await new OnlineApi(server.url, second).register('Second');
  });
});
