/**
 * `npm run server`: the BitRally server (HTTP API + verification workers; docs/server.md).
 * Embedded PostgreSQL (PGlite) in --data-dir by default; DATABASE_URL=postgres://… uses a PostgreSQL server.
 * Stops gracefully on SIGTERM / SIGINT (requests and verifications in flight finish or stay pending).
 */
import { parseCommand, type CommandSpec } from '../src/cli/args';
import { EXIT_OK, exitWith, runCommandAsync, UserError } from '../src/cli/errors';
import { createBitRallyServer, DEFAULT_CORS_ORIGINS, DEFAULT_RATE_LIMITS } from './server';
import { RACE_CAP_S } from './rooms/race-room';

const SERVER = {
  usage: 'npm run server --',
  summary: 'Runs the BitRally server: leaderboards, replay verification, ghosts.',
  details: [
    'Database: PGlite in --data-dir, or the PostgreSQL server named by the DATABASE_URL environment variable.',
    'Rooms: this process only, or shared with every server process on the Redis named by REDIS_URL.',
    'Logs: one JSON object per line on stdout.',
  ],
  options: {
    port: { type: 'integer', value: 'n', min: 0, max: 65535, default: 8787, help: 'TCP port (0: any free port, printed in the log)' },
    host: { type: 'string', value: 'addr', default: '127.0.0.1', help: 'address to listen on (0.0.0.0 to serve other machines)' },
    'data-dir': { type: 'string', value: 'dir', default: '.bitrally-server', help: 'directory of the embedded database (ignored with DATABASE_URL)' },
    'cors-origin': { type: 'list', value: 'url,url', default: DEFAULT_CORS_ORIGINS, help: "the game's origins allowed to call the API" },
    workers: { type: 'integer', value: 'n', min: 1, max: 64, help: 'verification threads (default: CPU cores − 1, at least 1)' },
    'rate-ip': { type: 'integer', value: 'n', min: 1, default: DEFAULT_RATE_LIMITS.perIpPerMinute, help: 'requests per minute per IP address' },
    'rate-key': { type: 'integer', value: 'n', min: 1, default: DEFAULT_RATE_LIMITS.submissionsPerKeyPerMinute, help: 'submissions per minute per player key' },
    'public-address': { type: 'string', value: 'host:port', help: 'with REDIS_URL: where clients reach this process (default: the listen address)' },
    'race-cap-s': { type: 'integer', value: 's', min: 10, default: RACE_CAP_S, help: 'longest race after the start: then every car still racing is DNF and the room ends' },
    'log-level': { type: 'string', value: 'level', choices: ['fatal', 'error', 'warn', 'info', 'debug'], default: 'info', help: 'log level' },
  },
  examples: ['npm run server', 'npm run server -- --port 9000 --data-dir /var/lib/bitrally', 'DATABASE_URL=postgres://rally@localhost/rally npm run server', 'REDIS_URL=redis://127.0.0.1:6379 npm run server -- --port 9001'],
} as const satisfies CommandSpec;

export async function main(argv: string[]): Promise<number> {
  return runCommandAsync(async () => {
    const { options: o } = parseCommand(SERVER, argv);
    const databaseUrl = process.env.DATABASE_URL || undefined;
    const server = await createBitRallyServer({
      dataDir: o['data-dir'],
      databaseUrl,
      corsOrigins: o['cors-origin'],
      rateLimits: { perIpPerMinute: o['rate-ip'], submissionsPerKeyPerMinute: o['rate-key'] },
      verifier: { threads: o.workers },
      logger: { level: o['log-level'] },
      rooms: true,
      redisUrl: process.env.REDIS_URL || undefined,
      publicAddress: o['public-address'],
      roomTiming: { raceCapS: o['race-cap-s'] },
    }).catch((e: NodeJS.ErrnoException) => {
      // an unreachable or refusing database is the operator's setting, not a bug: one line, exit 2
      if (databaseUrl && (e.code || /password|database|connect/i.test(e.message))) throw new UserError(`DATABASE_URL: cannot use the database (${e.code ?? ''} ${e.message})`.trim());
      throw e;
    });
    await server.listen(o.port, o.host);
    await new Promise<void>((resolve) => {
      const stop = (signal: string): void => {
        server.app.log.info({ signal }, 'shutting down');
        void server.close().then(resolve);
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });
    return EXIT_OK;
  });
}

exitWith(main(process.argv.slice(2)));
