/**
 * The server's integration suite, run on each database (api-pglite.test.ts, api-postgres.test.ts): the same
 * requests, the same answers. Replays are recorded headlessly by the project's recorder (tests/server/fixtures.ts).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createBitRallyServer, type BitRallyServer, type ServerOptions } from '../../server/server';
import { runMigrations, MIGRATIONS } from '../../server/db/migrations';
import { openDatabase } from '../../server/db/database';
import { Store } from '../../server/store';
import { MAX_SUBMISSION_PAYLOAD_BYTES } from '../../server/routes/submissions';
import { decodeReplay } from '../../src/replay/format';
import { stageHash } from '../../src/replay/stage-check';
import { readStageFiles } from '../../terrain/node';
import { SIM_VERSION } from '../../src/replay/version';
import { CONTENT_DIR } from '../../src/replay/node';
import { newPlayer, TestClient } from './client';
import { serverDailyRally } from '../../server/daily-rally';
import { storeDailyRun } from './daily-fixtures';
import { recordFinishedRun, STAGE_DIR, withCarFile, withHeader, withFinalTimeEdited, withInputChanged, withUnknownStage, zipBomb } from './fixtures';

const TIMEOUT_MS = 90_000;

/** Defines the suite; `options()` gives the database of this file (a PGlite dir or a PostgreSQL URL). */
export function defineServerSuite(options: () => Pick<ServerOptions, 'dataDir' | 'databaseUrl'>): void {
  let server: BitRallyServer;
  let api: TestClient;
  const ann = newPlayer('Ann Ä. Virtanen');
  const bob = newPlayer('Bob_92');
  let fast: Uint8Array;
  let slow: Uint8Array;
  const board = { stageHash: stageHash(readStageFiles(STAGE_DIR)), carClass: 'rally-awd', simVersion: SIM_VERSION };
  const boardPath = `/api/boards/${board.stageHash}/${board.carClass}/${board.simVersion}`;
  /** The board's ETag while Ann's run is its only row (set by the first test, refused by the second). */
  let oneRowEtag = '';

  const start = async (): Promise<void> => {
    server = await createBitRallyServer({ ...options(), logger: false, verifier: { threads: 1 } });
    api = new TestClient(await server.listen(0, '127.0.0.1'));
  };

  beforeAll(async () => {
    fast = recordFinishedRun('rally-awd', 0.8);
    slow = recordFinishedRun('rally-awd', 0.6);
    await start();
  }, TIMEOUT_MS);
  afterAll(() => server?.close(), TIMEOUT_MS);

  it('runs the migrations once: a second run applies none', async () => {
    expect(await runMigrations(server.db)).toEqual([]);
    const rows = await server.db.query<{ id: number }>('SELECT id FROM schema_migrations ORDER BY id');
    expect(rows.map((r) => Number(r.id))).toEqual(MIGRATIONS.map((m) => m.id));
  });

  it('answers /healthz with the database kind', async () => {
    const r = await api.json('GET', '/healthz');
    expect(r).toMatchObject({ status: 200, body: { ok: true, database: server.db.kind, simVersion: SIM_VERSION } });
  });

  it('registers players by key; refuses bad names and missing keys', async () => {
    expect(await api.register(ann)).toEqual({ status: 200, body: { id: ann.id, name: ann.name } });
    expect((await api.register(bob)).status).toBe(200);
    for (const name of ['<script>x</script>', 'A', 'x'.repeat(25), 'tab\there', 'zero\u200bwidth']) {
      expect((await api.json('PUT', '/api/players/me', { name }, newPlayer('x').key)).status).toBe(400);
    }
    expect((await api.json('PUT', '/api/players/me', { name: 'Nobody' })).status).toBe(401);
    expect((await api.submit({ ...newPlayer('Unregistered') }, fast)).status).toBe(403);
  });

  it('verifies a recorded run and puts it on its board; a resubmission is the same row', async () => {
    const r = await api.submit(ann, fast);
    expect(r.status).toBe(202);
    const done = await api.settled(r.body.id as number);
    expect(done).toMatchObject({ status: 'accepted', stageTimeS: decodeReplay(fast).header.result!.stageTimeS, board: { ...board, stageId: 'test-short' } });
    const again = await api.submit(ann, fast);
    expect(again).toMatchObject({ status: 200, body: { id: r.body.id, status: 'accepted' } });
    const rows = await server.db.query<{ n: string }>('SELECT count(*) AS n FROM submissions');
    expect(Number(rows[0]!.n)).toBe(1);
    expect((await api.submit(bob, fast)).status).toBe(409);
    // read (and prebuilt as bytes with their ETag) before the next verdict: the next test's reads must see that verdict
    const one = await api.json('GET', boardPath);
    expect((one.body.rows as { name: string }[]).map((x) => x.name)).toEqual([ann.name]);
    expect((await api.json('GET', `${boardPath}/around/${ann.id}?span=1`)).body.rows).toHaveLength(1);
    const cached = await api.getWithEtag(boardPath);
    expect(cached.etag).toBe(`"${createHash('sha1').update(cached.text).digest('base64url')}"`);
    // the client's copy is current: a bodiless 304 with the same tag
    expect(await api.getWithEtag(boardPath, cached.etag!)).toEqual({ status: 304, etag: cached.etag, text: '' });
    oneRowEtag = cached.etag!;
  }, TIMEOUT_MS);

  it('ranks two players by time, rows around a player, history, ghost bytes', async () => {
    const b = await api.submit(bob, slow);
    expect((await api.settled(b.body.id as number)).status).toBe('accepted');
    // the accepted run dropped the prebuilt answer: the one-row tag no longer matches, the new bytes have both rows
    const fresh = await api.getWithEtag(boardPath, oneRowEtag);
    expect(fresh.status).toBe(200);
    expect(fresh.etag).not.toBe(oneRowEtag);
    expect((JSON.parse(fresh.text) as { rows: unknown[] }).rows).toHaveLength(2);
    const top = await api.json('GET', boardPath);
    const rows = top.body.rows as { rank: number; name: string; stageTimeS: number; submissionId: number }[];
    expect(rows.map((x) => [x.rank, x.name])).toEqual([
      [1, ann.name],
      [2, bob.name],
    ]);
    expect(rows[0]!.stageTimeS).toBeLessThan(rows[1]!.stageTimeS);
    const around = await api.json('GET', `${boardPath}/around/${bob.id}?span=1`);
    expect((around.body.rows as { name: string }[]).map((x) => x.name)).toEqual([ann.name, bob.name]);
    const hist = await api.json('GET', `/api/players/${bob.id}/history`);
    expect((hist.body.submissions as { id: number }[]).map((s) => s.id)).toEqual([b.body.id]);
    const ghost = await fetch(`${api.base}/api/ghosts/${rows[0]!.submissionId}`);
    expect(new Uint8Array(await ghost.arrayBuffer())).toEqual(fast);
    const boards = await api.json('GET', '/api/boards');
    expect(boards.body).toEqual([{ ...board, stageId: 'test-short', players: 2 }]);
    // a rename shows on the (cached) board at once
    await api.json('PUT', '/api/players/me', { name: 'Ann V' }, ann.key);
    expect(((await api.json('GET', boardPath)).body.rows as { name: string }[])[0]!.name).toBe('Ann V');
    await api.register(ann);
  }, TIMEOUT_MS);

  it('keeps each player\'s best run; rows around any player match the full ranking', async () => {
    const fake = { stageHash: 'feedfacecafebeef', carClass: 'hatch-gti', simVersion: SIM_VERSION };
    const players = Array.from({ length: 12 }, (_, i) => newPlayer(`Rank ${i}`));
    // two runs each, the second one better for even players: the board holds min(first, second)
    const best = new Map<string, number>();
    let n = 0;
    for (const [i, p] of players.entries()) {
      await server.store.upsertPlayer(p.id, p.name);
      for (const timeS of [100 + ((i * 37) % 12), i % 2 === 0 ? 95 + i / 10 : 130]) {
        const { row } = await server.store.insertSubmission(`fake-${String(n++).padStart(59, '0')}`, p.id, new Uint8Array([n]));
        await server.store.recordVerdict(row.id, { status: 'accepted', stageId: 'fake', ...fake, stageTimeS: timeS, finalHash: `run-${n}`, ticks: 1, canonicalStage: false }, 0);
        best.set(p.id, Math.min(best.get(p.id) ?? Infinity, timeS));
      }
    }
    const top = await server.store.top(fake, 100);
    expect(top.map((r) => [r.rank, r.playerId, r.stageTimeS])).toEqual(
      [...best.entries()].sort((a, b) => a[1] - b[1]).map(([id, t], i) => [i + 1, id, t]),
    );
    for (const p of players) {
      const at = top.findIndex((r) => r.playerId === p.id);
      expect(await server.store.around(fake, p.id, 2)).toEqual(top.slice(Math.max(0, at - 2), at + 3));
    }
    expect(await server.store.around(fake, newPlayer('absent').id, 2)).toEqual([]);
  });

  it('ranks daily-rally totals: every stage on the day\'s canonical stages in the day\'s car', async () => {
    const date = '2026-11-25';
    const day = serverDailyRally(date);
    const players = Array.from({ length: 5 }, (_, i) => newPlayer(`Daily ${i}`));
    const accept = (p: (typeof players)[number], k: number, timeS: number, o: { canonical?: boolean; carClass?: string } = {}): Promise<number> => storeDailyRun(server.store, day, p.id, k, timeS, o);
    for (const p of players) await server.store.upsertPlayer(p.id, p.name);
    const times = [[120, 130, 140, 150], [119, 131, 139, 152], [100, 100, 100]];
    for (const [i, ts] of times.entries()) for (const [k, t] of ts.entries()) await accept(players[i]!, k, t);
    // a faster run on stage 0 counts for player 1 (their best), a slower one does not replace it
    await accept(players[1]!, 0, 110);
    await accept(players[1]!, 0, 200);
    // player 3: stage 3 only on an easier stage under the same id (not canonical); player 4: stage 3 in another car
    for (let k = 0; k < 3; k++) await accept(players[3]!, k, 90);
    await accept(players[3]!, 3, 50, { canonical: false });
    for (let k = 0; k < 3; k++) await accept(players[4]!, k, 90);
    await accept(players[4]!, 3, 50, { carClass: day.carId === 'rally-awd' ? 'hatch-gti' : 'rally-awd' });
    const r = await api.json('GET', `/api/rallies/daily/${date}`);
    expect(r.status).toBe(200);
    expect(r.body.rally).toEqual({ date, carClass: day.carId, simVersion: SIM_VERSION, stages: day.stageIds.map((stageId, index) => ({ index, stageId })), players: 2 });
    const rows = r.body.rows as { rank: number; playerId: string; totalS: number; stageTimesS: number[] }[];
    expect(rows.map((x) => [x.rank, x.playerId, x.totalS, x.stageTimesS])).toEqual([
      [1, players[1]!.id, 110 + 131 + 139 + 152, [110, 131, 139, 152]],
      [2, players[0]!.id, 120 + 130 + 140 + 150, [120, 130, 140, 150]],
    ]);
    const around = await api.json('GET', `/api/rallies/daily/${date}/around/${players[0]!.id}?span=0`);
    expect((around.body.rows as { playerId: string }[]).map((x) => x.playerId)).toEqual([players[0]!.id]);
    expect((await api.json('GET', `/api/rallies/daily/${date}/around/${players[2]!.id}`)).body.rows).toEqual([]);
    // another day has other stages: nobody is classified there
    expect((await api.json('GET', '/api/rallies/daily/2026-11-26')).body).toMatchObject({ rows: [], rally: { players: 0 } });
    for (const bad of ['/api/rallies/daily/2026-13-01', '/api/rallies/daily/yesterday', `/api/rallies/daily/${date}?limit=0`]) expect((await api.json('GET', bad)).status).toBe(400);
  });

  it('refuses tampered runs with the reason', async () => {
    const tuned = readFileSync(join(CONTENT_DIR, 'cars', 'rally-awd.toml'), 'utf8').replace(/^(\s*mass_kg\s*=\s*)(\d+(\.\d+)?)/m, (_m, k: string, v: string) => `${k}${Number(v) - 200}`);
    expect(tuned).not.toBe(readFileSync(join(CONTENT_DIR, 'cars', 'rally-awd.toml'), 'utf8'));
    const cases: [Uint8Array, string][] = [
      [withInputChanged(fast, 4000), 'checksum-mismatch'],
      [withFinalTimeEdited(fast, 1), 'stage-time-mismatch'],
      [withCarFile(fast, tuned), 'car-not-allowed'],
      [withUnknownStage(fast), 'stage-unknown'],
      // a zip bomb that lies about its inflated size: the worker's inflate stops at the declared length
      [zipBomb(32 << 20, 4096), 'format'],
    ];
    for (const [bytes, code] of cases) {
      const r = await api.submit(ann, bytes);
      expect(r.status).toBe(202);
      expect(await api.settled(r.body.id as number)).toMatchObject({ status: 'rejected', reasonCode: code });
    }
    // Bob sends Ann's drive under another name: another file, the same run
    const copy = await api.submit(bob, withHeader(fast, (d) => ({ ...d.header, name: 'my own run, honest' })));
    expect(await api.settled(copy.body.id as number)).toMatchObject({ status: 'rejected', reasonCode: 'duplicate-run' });
    const top = await api.json('GET', boardPath);
    expect((top.body.rows as { name: string }[]).map((r) => r.name)).toEqual([ann.name, bob.name]);
  }, TIMEOUT_MS);

  it('refuses at once what the container header shows: not a replay, a payload over the cap', async () => {
    expect(await api.submit(ann, new TextEncoder().encode('GIF89a not a replay at all, sorry'))).toMatchObject({ status: 422, body: { error: 'format' } });
    expect(await api.submit(ann, zipBomb(MAX_SUBMISSION_PAYLOAD_BYTES + 1))).toMatchObject({ status: 422, body: { error: 'format' } });
  }, TIMEOUT_MS);

  it('re-queues pending submissions at start', async () => {
    const c = newPlayer('Cy');
    await api.register(c);
    await server.close();
    const parked = recordFinishedRun('rally-awd', 0.7);
    // stored as the POST handler stores it, as if the server had stopped before verifying it
    const db = await openDatabase({ url: options().databaseUrl, dataDir: options().dataDir });
    const { row } = await new Store(db).insertSubmission('f'.repeat(64), c.id, parked);
    await db.close();
    expect(row.status).toBe('pending');
    await start();
    expect(await api.settled(row.id)).toMatchObject({ status: 'accepted' });
  }, TIMEOUT_MS);
}
