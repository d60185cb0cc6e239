/**
 * The BitRally server: one Node http.Server carrying the HTTP API (Fastify) and the realtime rooms of the
 * multiplayer issue (#22: Colyseus 0.16's WebSocketTransport attaches to `httpServer`, the same port). The
 * database is PGlite in `dataDir` unless `databaseUrl` names a PostgreSQL server. docs/server.md has the API.
 */
import { createServer, type Server } from 'node:http';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import { openDatabase, type Database } from './db/database';
import { runMigrations } from './db/migrations';
import { Store } from './store';
import { VerificationQueue } from './queue';
import { VerifierPool, type PoolOptions } from './verify/pool';
import { BoardCache } from './board-cache';
import { registerHealthRoutes } from './routes/health';
import { registerPlayerRoutes } from './routes/players';
import { registerSubmissionRoutes, DEFAULT_MAX_SUBMISSION_BYTES, DEFAULT_MAX_PENDING } from './routes/submissions';
import { boardKey, registerBoardRoutes } from './routes/boards';
import { registerRallyRoutes } from './routes/rallies';
import { attachRooms } from './rooms/attach';
import { registerRequestLog } from './request-log';
import { registerRoomListRoutes } from './routes/rooms';
import type { RoomTiming } from './rooms/race-room';

/** Origins of the game allowed by CORS by default: Vite's dev server and its preview. */
export const DEFAULT_CORS_ORIGINS = ['http://localhost:5173', 'http://127.0.0.1:5173', 'http://localhost:4173', 'http://127.0.0.1:4173'];
/** Requests per minute per IP (all routes) and submissions per minute per player key. */
export const DEFAULT_RATE_LIMITS = { perIpPerMinute: 600, submissionsPerKeyPerMinute: 30 };
/** How long an idle keep-alive connection stays open, ms (longer than common proxies' and clients' 60 s). */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** How long a shutdown waits for verifications in flight before leaving them pending, ms. */
export const SHUTDOWN_GRACE_MS = 10_000;

export interface ServerOptions {
  /** Embedded database and other files (default `.bitrally-server/` in the CLI). */
  dataDir: string;
  /** postgres://… : a real PostgreSQL server instead of PGlite. */
  databaseUrl?: string;
  corsOrigins?: readonly string[];
  rateLimits?: Partial<typeof DEFAULT_RATE_LIMITS>;
  maxSubmissionBytes?: number;
  /** Refuse new submissions (503) while this many wait for verification. */
  maxPending?: number;
  verifier?: PoolOptions;
  /** Fastify's logger option: true = JSON lines on stdout (pino), false = silent, or pino options (a level, a stream). */
  logger?: boolean | { level: string; stream?: NodeJS.WritableStream };
  /**
   * Realtime rooms (Colyseus, server/rooms/attach.ts) on the same port. Colyseus keeps one matchmaker per
   * process, so only one server per process may have them (the CLI does; API tests leave them off).
   */
  rooms?: boolean;
  /** With rooms: redis://… shares the rooms with other server processes on that Redis (Colyseus presence + driver). */
  redisUrl?: string;
  /** With rooms and Redis: host:port where clients reach this process (default: the address it listens on). */
  publicAddress?: string;
  /** With rooms: the rooms' time rules (server/rooms/race-room.ts DEFAULT_ROOM_TIMING where absent). */
  roomTiming?: Partial<RoomTiming>;
}

/** Logged once the rooms accept clients (after the Redis connections are ready): what a supervisor waits for. */
export const ROOMS_READY_LOG = 'rooms ready';

export interface BitRallyServer {
  /** The http.Server the API runs on; #22 attaches Colyseus' WebSocketTransport to it (same port). */
  httpServer: Server;
  app: FastifyInstance;
  db: Database;
  store: Store;
  queue: VerificationQueue;
  /** Starts listening; resolves to the base URL once the API (and the rooms, when on) accept clients. */
  listen(port: number, host: string): Promise<string>;
  /** Graceful stop: no new requests, in-flight verifications finish (or stay pending), database closed. */
  close(graceMs?: number): Promise<void>;
}

export async function createBitRallyServer(o: ServerOptions): Promise<BitRallyServer> {
  const db = await openDatabase({ url: o.databaseUrl, dataDir: o.dataDir });
  await runMigrations(db);
  const store = new Store(db);
  const httpServer = createServer();
  const app = Fastify({
    logger: o.logger ?? true,
    serverFactory: (handler) => httpServer.on('request', handler),
    // the API's largest body is a replay (its own route limit); everything else is small JSON
    bodyLimit: 16 * 1024,
    // one line per request only when it matters (server/request-log.ts)
    logController: new LogController({ disableRequestLogging: true }),
  });
  // idle keep-alive connections outlive the clients' (undici drops its own 1 s before the server's hint), so a
  // request never races the server closing an idle socket (ECONNRESET under load)
  httpServer.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  httpServer.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000;
  registerRequestLog(app);
  const pool = new VerifierPool(o.verifier);
  const queue = new VerificationQueue(store, pool, app.log);
  const cache = new BoardCache();
  // an accepted run changes its own board (and the lists and rally totals over every board); a refusal changes none
  queue.onVerified = (_id, v) => {
    if (v.status === 'accepted') cache.clearBoard(boardKey(v));
  };
  await app.register(cors, { origin: [...(o.corsOrigins ?? DEFAULT_CORS_ORIGINS)], methods: ['GET', 'POST', 'PUT'], allowedHeaders: ['Authorization', 'Content-Type'] });
  const limits = { ...DEFAULT_RATE_LIMITS, ...o.rateLimits };
  await app.register(rateLimit, { max: limits.perIpPerMinute, timeWindow: '1 minute', keyGenerator: (req) => req.ip });
  registerHealthRoutes(app, { db, queue, pool });
  registerPlayerRoutes(app, store, cache);
  registerSubmissionRoutes(app, { store, queue, maxBytes: o.maxSubmissionBytes ?? DEFAULT_MAX_SUBMISSION_BYTES, maxPending: o.maxPending ?? DEFAULT_MAX_PENDING, perKeyPerMinute: limits.submissionsPerKeyPerMinute, perIpPerMinute: limits.perIpPerMinute });
  registerBoardRoutes(app, store, cache);
  registerRallyRoutes(app, store, cache);
  // the rooms attach once the port is known: with Redis, other processes send clients to this process's address
  let game: Awaited<ReturnType<typeof attachRooms>> | null = null;
  if (o.rooms) registerRoomListRoutes(app, () => game !== null);
  await app.ready();
  const resumed = await queue.resume();
  if (resumed) app.log.info({ pending: resumed }, 're-queued pending submissions');
  return {
    httpServer,
    app,
    db,
    store,
    queue,
    async listen(port, host) {
      const url = await app.listen({ port, host });
      if (o.rooms) {
        game = await attachRooms(httpServer, { redisUrl: o.redisUrl, publicAddress: o.publicAddress ?? new URL(url).host, timing: o.roomTiming });
        // the line tests/server/spawn.ts waits for: from here on a client on any process can join this one's rooms
        app.log.info({ redis: Boolean(o.redisUrl) }, ROOMS_READY_LOG);
      }
      return url;
    },
    async close(graceMs = SHUTDOWN_GRACE_MS) {
      await game?.gracefullyShutdown(false);
      await app.close();
      const drained = await queue.drain(graceMs);
      app.log.info(drained, 'verification queue drained');
      await pool.close();
      await db.close();
    },
  };
}
