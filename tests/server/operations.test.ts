/** Operations: rate limits per player key and per IP on submissions, per IP on every other route but /healthz; CORS. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBitRallyServer, type BitRallyServer } from '../../server/server';
import { newPlayer, TestClient } from './client';

const PER_KEY = 2;
const PER_IP = 12;
const GAME_ORIGIN = 'https://rally.example';

describe('operations', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bitrally-ops-'));
  let server: BitRallyServer;
  let api: TestClient;
  beforeAll(async () => {
    server = await createBitRallyServer({ dataDir: dir, logger: false, verifier: { threads: 1 }, corsOrigins: [GAME_ORIGIN], rateLimits: { submissionsPerKeyPerMinute: PER_KEY, perIpPerMinute: PER_IP } });
    api = new TestClient(await server.listen(0, '127.0.0.1'));
  }, 60_000);
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('limits submissions per key, then every request per IP; /healthz stays open', async () => {
    const a = newPlayer('Alpha');
    const b = newPlayer('Bravo');
    await api.register(a);
    await api.register(b);
    const junk = new TextEncoder().encode('not a replay');
    const statuses = [];
    for (let i = 0; i < PER_KEY + 1; i++) statuses.push((await api.submit(a, junk)).status);
    // the per-key window is spent on the third; another key from the same IP still gets through
    expect(statuses).toEqual([422, 422, 429]);
    expect((await api.submit(b, junk)).status).toBe(422);
    // the API routes: 2 registrations so far from this IP; fill the window with reads
    const reads = [];
    for (let i = 0; i < PER_IP - 2 + 1; i++) reads.push((await api.json('GET', '/api/boards')).status);
    expect(reads.slice(0, -1).every((s) => s === 200)).toBe(true);
    expect(reads.at(-1)).toBe(429);
    expect((await api.json('GET', '/healthz')).status).toBe(200);
    // submissions have their own per-IP window: 4 used, a third key fills it
    const c = newPlayer('Charlie');
    const more = [];
    for (let i = 0; i < PER_IP - 4 + 1; i++) more.push((await api.submit(i % 2 ? b : c, junk)).status);
    expect(more.at(-1)).toBe(429);
  });

  it("answers CORS for the game's origin only", async () => {
    const pre = (origin: string): Promise<Response> => fetch(`${api.base}/api/submissions`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' } });
    const ok = await pre(GAME_ORIGIN);
    expect(ok.headers.get('access-control-allow-origin')).toBe(GAME_ORIGIN);
    expect(ok.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    expect((await pre('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
  });
});
