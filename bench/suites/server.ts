/**
 * The server (server/, docs/server.md): verification throughput of the piscina worker pool (one thread) on real AI
 * runs recorded like the game's, counted in 3-minute replays (re-simulation costs in proportion to the ticks) per
 * CPU-minute of the verification thread (per core), with the wall-clock figure beside it; and leaderboard read
 * latency under 50 concurrent keep-alive clients over loopback HTTP against a board of 1000 players on the embedded
 * database, the clients a lean load client in a separate process, while no verification runs and during a
 * verification burst, each beside the server-side time and the CPU per GET of the server's main thread and of the
 * client. Bounded: a fixed number of files and requests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
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
import { LoadClient, quantile, watchServer, type ServerSideStats } from '../server-load';

const SETUP = { dt: DEFAULT_DT, integrator: 'midpoint' as const, seed: 1, gravity_m_s2: STANDARD_GRAVITY_M_S2 };
const REPLAY_MINUTES = 3;
const CLIENTS = 50;
const BOARD_PLAYERS = 1000;

/** An AI run to the finish of a shipped stage (rally-awd, the default driver). */
function recordStage(stageId: string): { bytes: Uint8Array; simS: number; stageId: string } {
  const dir = join(CONTENT_DIR, 'stages', stageId);
  const files = readStageFiles(dir);
  const stage = loadStage(files, join(dir, 'stage.toml'));
  const pose = { x: stage.start.x, y: stage.start.y, z: stage.start.z, heading: stage.start.heading };
  const car = replayCarFromText({ id: 'rally-awd', main: 'rally-awd.toml', text: readCarFile('rally-awd'), read: readCarFile, pose });
  const rec = recordAiStageRun({ setup: SETUP, stage, files, car, maxSeconds: 600 });
  if (!rec.timing?.finishTimeS) throw new Error(`bench: the AI did not finish ${stageId}`);
  return { bytes: rec.bytes, simS: rec.run.world.tick * rec.run.world.dt, stageId };
}

/**
 * Why the latency goal cannot be judged here, or undefined: the 1-minute load average when the suite starts
 * (before it runs anything) above the core count means other jobs hold the cores, and 50 clients, the server and
 * a verification thread then wait for one (tens of ms a turn) whatever the server does.
 */
function otherWorkOnCores(): string | undefined {
  const load = loadavg()[0]!;
  const cores = availableParallelism();
  return load > cores ? `machine load ${load.toFixed(1)} on ${cores} cores when the suite started: other jobs hold the cores, the p99 is their scheduling (the note has the server's own time and its wait for a core)` : undefined;
}

/** Replays per minute of `ms` (ms of wall or CPU time). */
const perMinute = (replays: number, ms: number): number => replays / (ms / 60_000);

async function verificationThroughput(quick: boolean, { bytes, simS, stageId }: { bytes: Uint8Array; simS: number; stageId: string }): Promise<BenchResult> {
  const pool = new VerifierPool({ threads: 1 });
  try {
    const warm = await pool.verify(bytes);
    if (warm.status !== 'accepted') throw new Error(`bench: the recorded run was refused: ${warm.reason}`);
    const n = quick ? 4 : 3;
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    let workerMs = 0;
    let threadCpuMs: number | null = 0;
    let threadWaitMs = 0;
    let ticks = 0;
    for (let i = 0; i < n; i++) {
      const v = await pool.verify(bytes);
      if (v.status !== 'accepted') throw new Error('bench: refused');
      workerMs += v.wallMs;
      threadCpuMs = threadCpuMs === null || v.cpuMs === null ? null : threadCpuMs + v.cpuMs;
      threadWaitMs += v.cpuWaitMs ?? 0;
      ticks += v.ticks;
    }
    const cpu = process.cpuUsage(cpu0);
    const wallMs = performance.now() - t0;
    const processCpuMs = (cpu.user + cpu.system) / 1000;
    const replays = (n * simS) / (REPLAY_MINUTES * 60);
    // the worker thread's own CPU time (server/thread-cpu.ts); the whole process's where the kernel has no per-thread figure
    const cpuMs = threadCpuMs ?? processCpuMs;
    const cpuSource = threadCpuMs === null ? 'CPU time of the whole process (no per-thread figure on this kernel)' : 'CPU time of the verification thread';
    return {
      suite: 'server',
      name: `verification throughput per core (one worker thread), accepted ${REPLAY_MINUTES}-minute replays per CPU-minute`,
      value: perMinute(replays, cpuMs),
      unit: 'replays/min/core',
      target: 20,
      lowerIsBetter: false,
      note: `${n} × a ${simS.toFixed(0)} s AI run on ${stageId} (rally-awd) through the piscina pool after one warm-up file, counted as ${replays.toFixed(2)} × ${REPLAY_MINUTES} min of driving, divided by the ${cpuSource} (${cpuMs.toFixed(0)} ms, ${((cpuMs * 1000) / ticks).toFixed(1)} µs per re-simulated tick); wall clock: ${perMinute(replays, wallMs).toFixed(1)} replays/min (${wallMs.toFixed(0)} ms, of which the thread waited ${threadWaitMs.toFixed(0)} ms for a core and ${(wallMs - workerMs).toFixed(0)} ms were outside the worker: transfer, queueing); whole process ${perMinute(replays, processCpuMs).toFixed(1)} per CPU-minute; machine load ${loadavg()[0]!.toFixed(2)} on ${availableParallelism()} cores`,
    };
  } finally {
    await pool.close();
  }
}

/** 1000 players with one accepted run each on one board (written directly, as recordVerdict leaves them: reads are measured). */
async function seedBoard(server: Server): Promise<{ stageHash: string; players: string[] }> {
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

/** `perClient` URLs for each of CLIENTS clients: top 20 and around a random player, alternating. */
function readUrls(base: string, board: { stageHash: string; players: string[] }, perClient: number, seed: number): string[][] {
  const path = `${base}/api/boards/${board.stageHash}/rally-awd/${SIM_VERSION}`;
  return Array.from({ length: CLIENTS }, (_, c) => {
    const rng = new Prng(seed * CLIENTS + c + 1);
    return Array.from({ length: perClient }, (_, i) => (i % 2 === 0 ? path : `${path}/around/${board.players[Math.floor(rng.next() * board.players.length)]}`));
  });
}

type Server = Awaited<ReturnType<typeof createBitRallyServer>>;

/** Accepted runs stored on the read board by the bursts so far (each with its own player). */
let boardRuns = 0;

/**
 * A verification burst: `n` copies of `bytes` (content hashes `<tag>-<i>`) stored and queued as the POST handler
 * does (each is re-simulated in full; all but the first of the whole benchmark are then refused as the same
 * drive), and after each verdict an accepted run stored on the read board, so that its cached ranking is dropped
 * and built again as after a real accepted run. `done` resolves after the last one, with the queue's listener
 * restored.
 */
async function startBurst(server: Server, board: { stageHash: string }, bytes: Uint8Array, n: number, tag: string): Promise<{ done: Promise<void>; verified: () => number }> {
  const driver = 'b'.repeat(64);
  await server.store.upsertPlayer(driver, 'Burst driver');
  let verified = 0;
  const original = server.queue.onVerified;
  const done = new Promise<void>((resolve) => {
    server.queue.onVerified = (id, v) => {
      original?.(id, v);
      void (async () => {
        const k = boardRuns++;
        const player = `c${String(k).padStart(63, '0')}`;
        await server.store.upsertPlayer(player, `Burst ${k}`);
        const { row } = await server.store.insertSubmission(`board-${k}`, player, new Uint8Array(8));
        const accepted = { status: 'accepted' as const, stageId: 'bench', stageHash: board.stageHash, carClass: 'rally-awd', simVersion: SIM_VERSION, stageTimeS: 170 + k, finalHash: `board-${k}`, ticks: 1, canonicalStage: false };
        await server.store.recordVerdict(row.id, accepted, 0);
        original?.(row.id, accepted);
        if (++verified < n) return;
        server.queue.onVerified = original;
        resolve();
      })();
    };
  });
  for (let i = 0; i < n; i++) {
    const { row } = await server.store.insertSubmission(`${tag}-${i}`, driver, bytes);
    server.queue.enqueue(row.id);
  }
  return { done, verified: () => verified };
}

interface Window {
  client: number[];
  clientCpuMs: number;
  server: ServerSideStats;
}

/** Most read batches in the burst window (each `perClient` GETs a client); the burst normally ends first. */
const MAX_BURST_BATCHES = 30;

/** One window of reads: `batches()` URL lists sent one after another while `more()` says so (at least one). */
async function measureWindow(server: Server, client: LoadClient, batches: (i: number) => string[][], more: () => boolean = () => false): Promise<Window> {
  const stop = watchServer(server.httpServer);
  const times: number[] = [];
  let cpuMs = 0;
  for (let i = 0; i === 0 || (more() && i < MAX_BURST_BATCHES); i++) {
    const r = await client.run(batches(i));
    for (const t of r.times) times.push(t);
    cpuMs += r.cpuMs;
  }
  return { client: times.sort((a, b) => a - b), clientCpuMs: cpuMs, server: stop() };
}

/**
 * Why the burst window's p99 is report-only in --quick: each accepted run drops the read board's cached ranking and
 * the next reads wait for its rebuild (9–16 ms of the embedded database's thread), so with 50 requests in flight a
 * few rebuilds hold about 1 % of the window's reads and its p99 is a rebuild's time, 10.5–18.8 ms on a quiet
 * 2-core machine: inside the goal, by less than the run-to-run spread of one short window. The full run judges it.
 */
const BURST_QUICK_REPORT_ONLY = 'the burst window p99 is the cached ranking rebuilt after each accepted run (9–16 ms on the embedded database), measured 10.5–18.8 ms on a quiet machine: judged in the full run';

/**
 * The rows of one window: client-observed p50/p99 (p99 has the goal) and the server-side p99 beside them.
 * `sharedMachine`, when set, says why the goal is report-only in --quick: other work held the cores when the suite
 * started, so the p99 measures the wait for a core (the event loop's delay and wait are in the note).
 */
function latencyRows(label: string, w: Window, context: string, sharedMachine: string | undefined): BenchResult[] {
  const n = w.client.length;
  const s = w.server;
  const mainCpu = s.mainThreadCpuMs === null ? 'no per-thread figure on this kernel' : `${((s.mainThreadCpuMs * 1000) / n).toFixed(0)} µs per GET, waited for a core ${((100 * s.mainThreadWaitMs!) / s.wallMs).toFixed(0)} % of the window`;
  const note = `${n} GETs (top 20 / around a random player) from ${CLIENTS} concurrent keep-alive connections of a lean client in a separate process (closed loop, one request in flight each), ${context}; server side: p50 ${quantile(s.times, 0.5).toFixed(2)} ms, p99 ${quantile(s.times, 0.99).toFixed(2)} ms (request in → response written), event loop ${(s.busy * 100).toFixed(0)} % busy, its delay p99 ${s.loopDelayP99Ms.toFixed(1)} ms; CPU: server main thread ${mainCpu}, server process ${((s.cpuMs * 1000) / n).toFixed(0)} µs per GET (every thread, verification included), client process ${((w.clientCpuMs * 1000) / n).toFixed(0)} µs per GET; machine load ${loadavg()[0]!.toFixed(2)} on ${availableParallelism()} cores`;
  return [
    { suite: 'server', name: `leaderboard read latency p50, ${CLIENTS} clients, ${label}`, value: quantile(w.client, 0.5), unit: 'ms', lowerIsBetter: true, note },
    { suite: 'server', name: `leaderboard read latency p99, ${CLIENTS} clients, ${label}`, value: quantile(w.client, 0.99), unit: 'ms', target: 20, lowerIsBetter: true, ...(sharedMachine ? { quickReportOnly: sharedMachine } : {}), note },
    { suite: 'server', name: `leaderboard read, server-side time p99, ${label}`, value: quantile(s.times, 0.99), unit: 'ms', lowerIsBetter: true, note: 'from the request event to the response written, on the server (no client scheduling in it); the same window as the row above' },
  ];
}

async function leaderboardLatency(quick: boolean, replay: { bytes: Uint8Array; simS: number }, sharedMachine: string | undefined): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bitrally-bench-'));
  // the logger as the CLI runs it (level info), written nowhere: what logging costs is in the figures
  const logger = { level: 'info', stream: new Writable({ write: (_c, _e, cb) => cb() }) };
  const server = await createBitRallyServer({ dataDir: dir, logger, verifier: { threads: 1 }, rateLimits: { perIpPerMinute: 1_000_000 } });
  const client = new LoadClient();
  try {
    const board = await seedBoard(server);
    const base = await server.listen(0, '127.0.0.1');
    const perClient = quick ? 40 : 100;
    // one verification first: the worker thread's start (Havok, shipped stages) is not inside a window
    await (await startBurst(server, board, replay.bytes, 1, 'warm')).done;
    // a warm-up batch of a window's size (other players): the server's JIT and the client's sockets ready
    await client.run(readUrls(base, board, perClient, 0));
    const idle = await measureWindow(server, client, () => readUrls(base, board, perClient, 1));
    const files = quick ? 3 : 6;
    const burst = await startBurst(server, board, replay.bytes, files, 'burst');
    // reads until the burst's last verdict: every verification and cache drop falls inside the window
    const busy = await measureWindow(server, client, (i) => readUrls(base, board, perClient, 2 + i), () => burst.verified() < files);
    const during = burst.verified();
    await burst.done;
    return [
      ...latencyRows('no verification running', idle, `${BOARD_PLAYERS}-player board, PGlite, loopback, verification idle`, sharedMachine),
      ...latencyRows('during a verification burst', busy, `${files} × ${replay.simS.toFixed(0)} s replays queued on one verification thread just before (${during} verified during the reads), an accepted run stored on the read board after each (its cache dropped)`, sharedMachine ?? (quick ? BURST_QUICK_REPORT_ONLY : undefined)),
    ];
  } finally {
    client.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const suite: BenchSuite = {
  name: 'server',
  run: async ({ quick }) => {
    const sharedMachine = otherWorkOnCores();
    const replay = recordStage(quick ? 'test-short' : 'col-tarmac');
    return [await verificationThroughput(quick, replay), ...(await leaderboardLatency(quick, replay, sharedMachine))];
  },
};
