/**
 * Leaderboards, per (stage content hash, car class, simulation version):
 *   GET /api/boards                                             the boards with runs
 *   GET /api/boards/:stageHash/:carClass/:simVersion?limit&offset  the best rows
 *   GET /api/boards/:stageHash/:carClass/:simVersion/around/:playerId?span   rows around a player
 *   GET /api/players/:id/history?limit                           a player's submissions, newest first
 *   GET /api/ghosts/:submissionId                                the replay of an accepted run (race it)
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Board, BoardRow, Store } from '../store';
import { EVERY_BOARD, type BoardCache } from '../board-cache';
import { PLAYER_ID_PATTERN } from './players';
import { submissionJson } from './submissions';
import { sendCachedJson } from '../cached-response';

export const MAX_BOARD_ROWS = 100;
export const DEFAULT_BOARD_ROWS = 20;
export const MAX_AROUND_SPAN = 25;
export const DEFAULT_AROUND_SPAN = 5;
/**
 * Boards up to this many players are read whole into the cache (~200 B a row: ≤ 10 MB) and answered from
 * memory until the next verdict; bigger boards are answered by their SQL queries (cached per request).
 */
export const MAX_RANKING_ROWS = 50_000;

type BoardParams = { stageHash: string; carClass: string; simVersion: string };
const HASH = /^[0-9a-f]{16}$/;
const NAME = /^[A-Za-z0-9._-]{1,64}$/;

/** A query integer in [min, max] (default when absent), or null when it is something else. */
export function intParam(v: unknown, def: number, min: number, max: number): number | null {
  if (v === undefined) return def;
  const n = Number(v);
  return Number.isInteger(n) && n >= min && n <= max ? n : null;
}

function boardOf(p: BoardParams, reply: FastifyReply): Board | null {
  if (HASH.test(p.stageHash) && NAME.test(p.carClass) && NAME.test(p.simVersion)) return { stageHash: p.stageHash, carClass: p.carClass, simVersion: p.simVersion };
  void reply.code(400).send({ error: 'bad-board', message: 'expected /api/boards/<stage hash: 16 hex digits>/<car class>/<sim version>' });
  return null;
}

export const badQuery = (reply: FastifyReply, what: string): FastifyReply => reply.code(400).send({ error: 'bad-query', message: what });

/** A board's cache key and scope (server/board-cache.ts). */
export const boardKey = (b: Board): string => `${b.stageHash} ${b.carClass} ${b.simVersion}`;

/** The whole ranking of a board from the cache, or null when the board is too big to hold. */
async function rankingOf(store: Store, cache: BoardCache, b: Board): Promise<BoardRow[] | null> {
  const rows = await cache.get(`ranking ${boardKey(b)}`, () => store.top(b, MAX_RANKING_ROWS + 1), boardKey(b));
  return rows.length > MAX_RANKING_ROWS ? null : rows;
}

async function topRows(store: Store, cache: BoardCache, b: Board, limit: number, offset: number): Promise<BoardRow[]> {
  const all = await rankingOf(store, cache, b);
  return all ? all.slice(offset, offset + limit) : cache.get(`top ${boardKey(b)} ${limit} ${offset}`, () => store.top(b, limit, offset), boardKey(b));
}

async function aroundRows(store: Store, cache: BoardCache, b: Board, playerId: string, span: number): Promise<BoardRow[]> {
  const all = await rankingOf(store, cache, b);
  if (!all) return cache.get(`around ${boardKey(b)} ${playerId} ${span}`, () => store.around(b, playerId, span), boardKey(b));
  const at = all.findIndex((r) => r.playerId === playerId);
  return at < 0 ? [] : all.slice(Math.max(0, at - span), at + span + 1);
}

export function registerBoardRoutes(app: FastifyInstance, store: Store, cache: BoardCache): void {
  app.get('/api/boards', (req, reply) => sendCachedJson(req, reply, cache, 'json boards', EVERY_BOARD, () => store.boards()));

  app.get<{ Params: BoardParams; Querystring: { limit?: string; offset?: string } }>('/api/boards/:stageHash/:carClass/:simVersion', async (req, reply) => {
    const b = boardOf(req.params, reply);
    if (!b) return reply;
    const limit = intParam(req.query.limit, DEFAULT_BOARD_ROWS, 1, MAX_BOARD_ROWS);
    const offset = intParam(req.query.offset, 0, 0, 1_000_000);
    if (limit === null || offset === null) return badQuery(reply, `limit: 1–${MAX_BOARD_ROWS}, offset: ≥ 0`);
    return sendCachedJson(req, reply, cache, `json top ${boardKey(b)} ${limit} ${offset}`, boardKey(b), async () => ({ board: b, rows: await topRows(store, cache, b, limit, offset) }));
  });

  app.get<{ Params: BoardParams & { playerId: string }; Querystring: { span?: string } }>('/api/boards/:stageHash/:carClass/:simVersion/around/:playerId', async (req, reply) => {
    const b = boardOf(req.params, reply);
    if (!b) return reply;
    const span = intParam(req.query.span, DEFAULT_AROUND_SPAN, 0, MAX_AROUND_SPAN);
    if (span === null || !PLAYER_ID_PATTERN.test(req.params.playerId)) return badQuery(reply, `span: 0–${MAX_AROUND_SPAN}; playerId: 64 hex digits`);
    return sendCachedJson(req, reply, cache, `json around ${boardKey(b)} ${req.params.playerId} ${span}`, boardKey(b), async () => ({ board: b, rows: await aroundRows(store, cache, b, req.params.playerId, span) }));
  });

  app.get<{ Params: { id: string }; Querystring: { limit?: string } }>('/api/players/:id/history', async (req, reply) => {
    const limit = intParam(req.query.limit, DEFAULT_BOARD_ROWS, 1, MAX_BOARD_ROWS);
    if (limit === null || !PLAYER_ID_PATTERN.test(req.params.id)) return badQuery(reply, `limit: 1–${MAX_BOARD_ROWS}; id: 64 hex digits`);
    const rows = await store.history(req.params.id, limit);
    return { playerId: req.params.id, submissions: rows.map(submissionJson) };
  });

  app.get<{ Params: { id: string } }>('/api/ghosts/:id', async (req, reply) => {
    const id = Number(req.params.id);
    if (!Number.isSafeInteger(id) || id < 1) return badQuery(reply, 'expected a submission id');
    const bytes = await store.submissionBytes(id, true);
    if (!bytes) return reply.code(404).send({ error: 'not-found', message: 'no accepted run with this id' });
    return reply
      .header('content-type', 'application/octet-stream')
      .header('content-disposition', `attachment; filename="ghost-${id}.bitrally"`)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });
}
