/**
 * `npm run server` (the real process, server/main.ts) has the race rooms on its port: two clients meet in a room by
 * its code, and the process stops on SIGTERM with a room open.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnServer, type ServerProcess } from '../server/spawn';
import { RoomClient } from '../../src/net/room-client';

const dir = mkdtempSync(join(tmpdir(), 'bitrally-rooms-proc-'));
let srv: ServerProcess | null = null;

afterAll(() => {
  if (srv && srv.child.exitCode === null) srv.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run server', () => {
  it('serves race rooms on its port and stops on SIGTERM with a room open', async () => {
    srv = await spawnServer(dir);
    const url = srv.url.replace(/^http/, 'ws');
    const a = await RoomClient.connect({ url, car: 'hatch-gti' });
    const b = await RoomClient.connect({ url, car: 'rally-awd', code: a.seat.code });
    expect(b.seat.code).toBe(a.seat.code);
    expect(b.seat.slot).toBe(1);
    srv.child.kill('SIGTERM');
    expect(await srv.exited).toBe(0);
  }, 90_000);
});
