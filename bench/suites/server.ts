/**
 * The server (server/, docs/server.md): verification throughput of the piscina worker pool (one thread, so the
 * figure is per core) on real AI runs recorded like the game's, counted in 3-minute replays (re-simulation
 * costs in proportion to the ticks); and leaderboard read latency under 50 concurrent clients over loopback
 * HTTP against a board of 1000 players on the embedded database. Bounded: a fixed number of files and requests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { loadStage } from '../../terrain/stage';
import { readStageFiles } from '../../terrain/node';
import { Prng } from '../../terrain/prng';
import { CONTENT_DIR, readCarFile } from '../../src/replay/node';
import { recordAiStageRun } from '../../src/replay/record-ai';
import { replayCarFromText } from '../../src/run/cars';
import { SIM_VERSION } from '../../src/replay/version';
import { DEFAULT_DT, STANDARD_GRAVITY_M_S2 } from '../../src/content/world-constants';
import { VerifierPool } from '../../server/verify/pool';
import { createBitRallyServer } from '../../server/server';
import type { BenchResult, BenchSuite } from '../types';

const SETUP = { dt: DEFAULT_DT, integrator: 'midpoint' as const, seed: 1, gravity_m_s2: STANDARD_GRAVITY_M_S2 };
const REPLAY_MINUTES = 3;
const CLIENTS = 50;
const BOARD_PLAYERS = 1000;
const LATENCY_NOISE = 'clients and server share the machine (2 cores shared by other jobs in CI): p99 is noise-bound in --quick';
const THROUGHPUT_NOISE = 'four short files on a shared 2-core machine: measured 18–54 replays/min at load 5–9, noise-bound in --quick';

/** An AI run to the finish of a shipped stage (rally-awd, the default driver). */
function recordStage(stageId: string): { bytes: Uint8Array; simS: number } {
  const dir = join(CONTENT_DIR, 'stages', stageId);
  const files = readStageFiles(dir);
  const stage = loadStage(files, join(dir, 'stage.toml'));
  const pose = { x: stage.start.x, y: stage.start.y, z: stage.start.z, heading: stage.start.heading };
  const car = replayCarFromText({ id: 'rally-awd', main: 'rally-awd.toml', text: readCarFile('rally-awd'), read: readCarFile, pose });
  const rec = recordAiStageRun({ setup: SETUP, stage, files, car, maxSeconds: 600 });
  if (!rec.timing?.finishTimeS) throw new Error(`bench: the AI did not finish ${stageId}`);
  return { bytes: rec.bytes, simS: rec.run.world.tick * rec.run.world.dt };
}

async function verificationThroughput(quick: boolean): Promise<BenchResult> {
  const stageId = quick ? 'test-short' : 'col-tarmac';
  const { bytes, simS } = recordStage(stageId);
  const pool = new VerifierPool({ threads: 1 });
  try {
    const warm = await pool.verify(bytes);
    if (warm.status !== 'accepted') throw new Error(`bench: the recorded run was refused: ${warm.reason}`);
    const n = quick ? 4 : 3;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) if ((await pool.verify(bytes)).status !== 'accepted') throw new Error('bench: refused');
    const wallMin = (performance.now() - t0) / 60_000;
    const replays = (n * simS) / (REPLAY_MINUTES * 60);
    return {
      suite: 'server',
      name: `verification throughput (one worker thread), accepted ${REPLAY_MINUTES}-minute replays`,
      value: replays / wallMin,
      unit: 'replays/min/core',
      target: 20,
      lowerIsBetter: false,
      quickReportOnly: THROUGHPUT_NOISE,
      note: `${n} × a ${simS.toFixed(0)} s AI run on ${stageId} (rally-awd) through the piscina pool, counted as ${replays.toFixed(2)} × ${REPLAY_MINUTES} min of driving; after one warm-up file`,
    };
  } finally {
    await pool.close();
  }
}

/** 1000 players with one accepted run each on one board (written directly, as recordVerdict leaves them: reads are measured). */
async function seedBoard(server: Awaited<ReturnType<typeof createBitRallyServer>>): Promise<{ stageHash: string; players: string[] }> {
  const stageHash = 'be0c0ffee0ddba11';
  const players = Array.from({ length: BOARD_PLAYERS }, (_, i) => i.toString(16).padStart(64, '0'));
  await server.db.transaction(async (tx) => {
    for (let i = 0; i < players.length; i++) {
      await tx.query('INSERT INTO players (id, name) VALUES ($1, $2)', [players[i], `Driver ${i}`]);
      const timeS = 180 + ((i * 7919) % 1000) / 100;
      const [row] = await tx.query<{ id: number }>(
        `INSERT INTO submissions (content_hash, player_id, bytes, status, stage_id, stage_hash, car_class, sim_version, stage_time_s)
         VALUES ($1, $2, $3, 'accepted', 'bench', $4, 'rally-awd', $5, $6) RETURNING id`,
        [`h${i}`, players[i], new Uint8Array(8), stageHash, SIM_VERSION, timeS],
      );
      await tx.query(
        `INSERT INTO best_runs (stage_hash, car_class, sim_version, player_id, submission_id, stage_id, stage_time_s) VALUES ($1, 'rally-awd', $2, $3, $4, 'bench', $5)`,
        [stageHash, SIM_VERSION, players[i], row!.id, timeS],
      );
    }
  });
  return { stageHash, players };
}

/**
 * `perClient` sequential GETs from each of CLIENTS concurrent clients (top 20 and around a random player,
 * alternating), run in a worker thread (bench/server-load-client.mjs); the latencies sorted, ms.
 */
async function readLatencies(base: string, board: { stageHash: string; players: string[] }, perClient: number): Promise<number[]> {
  const path = `${base}/api/boards/${board.stageHash}/rally-awd/${SIM_VERSION}`;
  const urls = Array.from({ length: CLIENTS }, (_, c) => {
    const rng = new Prng(c + 1);
    return Array.from({ length: perClient }, (_, i) => (i % 2 === 0 ? path : `${path}/around/${board.players[Math.floor(rng.next() * board.players.length)]}`));
  });
  const worker = new Worker(new URL('../server-load-client.mjs', import.meta.url), { workerData: { perClient: urls } });
  const times = await new Promise<number[]>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  return times.sort((a, b) => a - b);
}

async function leaderboardLatency(quick: boolean): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bitrally-bench-'));
  const server = await createBitRallyServer({ dataDir: dir, logger: false, verifier: { threads: 1 }, rateLimits: { perIpPerMinute: 1_000_000 } });
  try {
    const board = await seedBoard(server);
    const base = await server.listen(0, '127.0.0.1');
    await readLatencies(base, board, 2);
    // the server's share of the run: its event loop's busy fraction, and the process's CPU time per request
    const elu0 = performance.eventLoopUtilization();
    const cpu0 = process.cpuUsage();
    const times = await readLatencies(base, board, quick ? 20 : 100);
    const cpu = process.cpuUsage(cpu0);
    const elu = performance.eventLoopUtilization(elu0);
    const at = (q: number): number => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
    const cpuMsPerGet = (cpu.user + cpu.system) / 1000 / times.length;
    const load = `machine load ${loadavg()[0]!.toFixed(2)} on ${availableParallelism()} cores`;
    const note = `${times.length} GETs (top 20 / around a random player, alternating) from ${CLIENTS} concurrent keep-alive clients in a worker thread, ${BOARD_PLAYERS}-player board, PGlite, loopback; server event loop ${(elu.utilization * 100).toFixed(0)} % busy (${(elu.active / times.length).toFixed(3)} ms a GET), ${cpuMsPerGet.toFixed(2)} ms CPU per GET (server and clients), ${load}`;
    return [
      { suite: 'server', name: `leaderboard read latency p50, ${CLIENTS} clients`, value: at(0.5), unit: 'ms', lowerIsBetter: true, note },
      { suite: 'server', name: `leaderboard read latency p99, ${CLIENTS} clients`, value: at(0.99), unit: 'ms', target: 20, lowerIsBetter: true, quickReportOnly: LATENCY_NOISE, note },
    ];
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const suite: BenchSuite = {
  name: 'server',
  run: async ({ quick }) => [await verificationThroughput(quick), ...(await leaderboardLatency(quick))],
};
