/**
 * Hostile uploads against the real server process: a 50 MB body (declared, and streamed without a length) is
 * refused at the size cap without being buffered, and zip bombs are refused before anything inflates past
 * the caps. The server's resident memory is measured before and after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newPlayer, TestClient } from './client';
import { rssOf, spawnServer, type ServerProcess } from './spawn';
import { zipBomb } from './fixtures';
import { DEFAULT_MAX_SUBMISSION_BYTES, MAX_SUBMISSION_PAYLOAD_BYTES } from '../../server/routes/submissions';

const MiB = 1 << 20;
const UPLOAD_BYTES = 50 * 1000 * 1000;
const CHUNK = new Uint8Array(MiB);
/**
 * Allowed growth of the server's RSS over all the hostile uploads: at most one body up to the cap
 * (DEFAULT_MAX_SUBMISSION_BYTES, 8 MiB) is buffered before a refusal, plus allocator and JIT slack. Buffering
 * one 50 MB upload would grow it by ≥ 47 MiB, several times this bound.
 */
const RSS_GROWTH_BOUND = DEFAULT_MAX_SUBMISSION_BYTES + 16 * MiB;

/**
 * POSTs `total` bytes in 1 MiB chunks (with or without Content-Length); the status, or the socket error when
 * the server's refusal closed the connection while the client was still writing (EPIPE, ECONNRESET).
 */
function upload(url: string, key: string, total: number, declareLength: boolean): Promise<number | string> {
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { authorization: `Bearer ${key}`, 'content-type': 'application/octet-stream' };
    if (declareLength) headers['content-length'] = total;
    const req = request(`${url}/api/submissions`, { method: 'POST', headers }, (res) => {
      res.resume();
      resolve(res.statusCode!);
      req.destroy();
    });
    req.on('error', (e) => resolve((e as NodeJS.ErrnoException).code ?? e.message));
    let sent = 0;
    const pump = (): void => {
      while (sent < total && !req.destroyed) {
        const n = Math.min(MiB, total - sent);
        sent += n;
        if (!req.write(n === MiB ? CHUNK : CHUNK.subarray(0, n))) return void req.once('drain', pump);
      }
      if (!req.destroyed) req.end();
    };
    pump();
  });
}

describe('hostile uploads (real server process)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bitrally-limits-'));
  let srv: ServerProcess;
  let api: TestClient;
  const p = newPlayer('Mallory');

  beforeAll(async () => {
    srv = await spawnServer(dir);
    api = new TestClient(srv.url);
    await api.register(p);
  }, 90_000);
  afterAll(async () => {
    srv.child.kill('SIGTERM');
    await srv.exited;
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('refuses 50 MB uploads and zip bombs without memory growth', async () => {
    // warm up: the routes, the parser and a verification worker (Havok, the stages) have run once
    const warm = await api.submit(p, zipBomb(4096, 64));
    expect(await api.settled(warm.body.id as number)).toMatchObject({ status: 'rejected', reasonCode: 'format' });
    const before = rssOf(srv.child.pid!);
    // server/request-log.ts writes one 'request' line per refusal over the size limit
    const refused413 = (): number => srv.logs.filter((l) => l.status === 413 && l.msg === 'request').length;
    const n413 = refused413();
    const REFUSED = [413, 'EPIPE', 'ECONNRESET'];
    for (let i = 0; i < 3; i++) {
      expect(REFUSED).toContain(await upload(srv.url, p.key, UPLOAD_BYTES, true));
      expect(REFUSED).toContain(await upload(srv.url, p.key, UPLOAD_BYTES, false));
      // honest header: a payload of 1 GiB is refused before inflating
      expect(await api.submit(p, zipBomb(MAX_SUBMISSION_PAYLOAD_BYTES + 1))).toMatchObject({ status: 422 });
    }
    // a header that lies: accepted for verification, the worker's inflate stops at the declared 4 KiB
    const lying = await api.submit(p, zipBomb(16 * MiB, 4096));
    expect(await api.settled(lying.body.id as number)).toMatchObject({ status: 'rejected', reasonCode: 'format' });
    const after = rssOf(srv.child.pid!);
    // the server's own log: every upload was answered 413 (whatever the client saw of it)
    expect(refused413() - n413).toBe(6);
    expect(after - before).toBeLessThan(RSS_GROWTH_BOUND);
    expect((await api.json('GET', '/healthz')).status).toBe(200);
  }, 120_000);
});
