/**
 * `npm run soak`: a field of AI bots (tests/net/field.ts: the real client code over WebSocket, AI-driven cars on a
 * shipped stage) in one "stage together" room of the real server process (`npm run server`, spawned on a free
 * loopback port) for a bounded simulated time. Passes (exit 0) when the server is still up at the end, every bot
 * ends where it should, and no collision was lost (every impulse the room numbered reached both cars of its contact
 * and both applied it). Reports the server process's CPU time and peak resident memory (Linux /proc).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCommand, type CommandSpec } from '../src/cli/args';
import { EXIT_FAILED, EXIT_OK, exitWith, runCommandAsync } from '../src/cli/errors';
import { spawnServer, rssOf } from '../tests/server/spawn';
import { checkImpulses, driveField, leaveField } from '../tests/net/field';
import { BUILTIN_CARS } from '../src/content/cars/index';

const SOAK = {
  usage: 'npm run soak --',
  summary: 'Drives a field of AI bots in one stage room of a spawned server; checks that no collision is lost.',
  details: ['Prints one JSON report (also written to --out). Exit 0: passed; 1: a lost collision, a crash or a missing state.'],
  options: {
    bots: { type: 'integer', value: 'n', min: 1, max: 32, default: 32, help: 'bot clients in the room' },
    seconds: { type: 'number', value: 's', above: 0, max: 600, default: 120, help: 'simulated driving time' },
    stage: { type: 'string', value: 'id', default: 'test-short', help: 'shipped stage the room drives' },
    out: { type: 'string', value: 'file.json', help: 'also write the report here' },
  },
  examples: ['npm run soak', 'npm run soak -- --bots 8 --seconds 20'],
} as const satisfies CommandSpec;

/** Wall ms per packet round: the room's default 16 ms (8 sim ticks of 2 ms). */
const PACE_MS = 16;
const TICKS_PER_PACKET = 8;
const SIM_DT_S = 0.002;
/** How often the server's resident memory is sampled, ms. */
const RSS_SAMPLE_MS = 500;

/** CPU seconds (user + system) a process has used so far (Linux /proc/<pid>/stat, fields 14 and 15). */
function cpuSecondsOf(pid: number, clockTicks: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / clockTicks;
}

async function soak(argv: string[]): Promise<number> {
  const { options: o } = parseCommand(SOAK, argv);
  const dir = mkdtempSync(join(tmpdir(), 'bitrally-soak-'));
  const server = await spawnServer(dir);
  const pid = server.child.pid!;
  const clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
  let exited = false;
  void server.exited.then(() => (exited = true));
  let peakRss = rssOf(pid);
  const sampler = setInterval(() => {
    if (!exited) peakRss = Math.max(peakRss, rssOf(pid));
  }, RSS_SAMPLE_MS);
  try {
    const cpu0 = cpuSecondsOf(pid, clockTicks);
    const packets = Math.ceil(o.seconds / (TICKS_PER_PACKET * SIM_DT_S));
    const f = await driveField({ url: server.url.replace('http', 'ws'), bots: o.bots, packets, paceMs: PACE_MS, stage: o.stage, cars: BUILTIN_CARS.map((b) => b.id) });
    const check = checkImpulses(f.cars, f.clients.map((c) => c.seat.slot));
    const cpuS = exited ? NaN : cpuSecondsOf(pid, clockTicks) - cpu0;
    const allStepped = f.cars.every((c) => c.tick === packets * TICKS_PER_PACKET);
    await leaveField(f);
    const report = {
      bots: o.bots, stage: f.clients[0]!.seat.stage, simulatedS: packets * TICKS_PER_PACKET * SIM_DT_S, wallS: f.wallMs / 1000,
      serverAlive: !exited, impulses: check.sent, lostImpulses: check.lost, allStepped,
      serverCpuS: cpuS, serverCpuPercent: (100 * cpuS) / (f.wallMs / 1000), serverPeakRssMiB: peakRss / 2 ** 20,
      bytesSentPerClient: f.clients[0]!.bytesSent,
    };
    console.log(JSON.stringify(report, null, 2));
    if (o.out) writeFileSync(o.out, JSON.stringify(report, null, 2) + '\n');
    return report.serverAlive && allStepped && check.lost.length === 0 ? EXIT_OK : EXIT_FAILED;
  } finally {
    clearInterval(sampler);
    server.child.kill('SIGTERM');
    await server.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

exitWith(runCommandAsync(() => soak(process.argv.slice(2))));
