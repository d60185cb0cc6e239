/**
 * Daily-rally boards (server/daily-rally.ts), answered from the board cache like the stage boards:
 *   GET /api/rallies/daily/:date?limit&offset                the rally (stages, car class) and its best totals
 *   GET /api/rallies/daily/:date/around/:playerId?span        the rows around a player's total
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Store } from '../store';
import { EVERY_BOARD, type BoardCache } from '../board-cache';
import { SIM_VERSION } from '../../src/replay/version';
import { rankRallyTotals, serverDailyRally, type RallyTotalRow } from '../daily-rally';
import type { DailyRallyDefinition } from '../../src/run/rally/daily';
import { PLAYER_ID_PATTERN } from './players';
import { badQuery, DEFAULT_AROUND_SPAN, DEFAULT_BOARD_ROWS, intParam, MAX_AROUND_SPAN, MAX_BOARD_ROWS } from './boards';
import { sendCachedJson } from '../cached-response';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The day's rally, or null (and a 400) for a string that is not a UTC date. */
function rallyOf(date: string, reply: FastifyReply): DailyRallyDefinition | null {
  try {
    if (DATE.test(date)) return serverDailyRally(date);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
  }
  void badQuery(reply, 'expected /api/rallies/daily/<UTC date YYYY-MM-DD>');
  return null;
}

const rallyJson = (d: DailyRallyDefinition, players: number): Record<string, unknown> => ({
  date: d.date,
  carClass: d.carId,
  simVersion: SIM_VERSION,
  stages: d.stageIds.map((stageId, index) => ({ index, stageId })),
  players,
});

/** The whole classification of the day, cached until the next verdict or rename. */
function classification(store: Store, cache: BoardCache, d: DailyRallyDefinition): Promise<RallyTotalRow[]> {
  return cache.get(`daily ${d.date}`, async () => rankRallyTotals(await store.rallyStageRuns(d.stageIds, d.carId, SIM_VERSION), d.stageIds));
}

export function registerRallyRoutes(app: FastifyInstance, store: Store, cache: BoardCache): void {
  app.get<{ Params: { date: string }; Querystring: { limit?: string; offset?: string } }>('/api/rallies/daily/:date', async (req, reply) => {
    const d = rallyOf(req.params.date, reply);
    if (!d) return reply;
    const limit = intParam(req.query.limit, DEFAULT_BOARD_ROWS, 1, MAX_BOARD_ROWS);
    const offset = intParam(req.query.offset, 0, 0, 1_000_000);
    if (limit === null || offset === null) return badQuery(reply, `limit: 1–${MAX_BOARD_ROWS}, offset: ≥ 0`);
    return sendCachedJson(req, reply, cache, `json daily top ${d.date} ${limit} ${offset}`, EVERY_BOARD, async () => {
      const all = await classification(store, cache, d);
      return { rally: rallyJson(d, all.length), rows: all.slice(offset, offset + limit) };
    });
  });

  app.get<{ Params: { date: string; playerId: string }; Querystring: { span?: string } }>('/api/rallies/daily/:date/around/:playerId', async (req, reply) => {
    const d = rallyOf(req.params.date, reply);
    if (!d) return reply;
    const span = intParam(req.query.span, DEFAULT_AROUND_SPAN, 0, MAX_AROUND_SPAN);
    if (span === null || !PLAYER_ID_PATTERN.test(req.params.playerId)) return badQuery(reply, `span: 0–${MAX_AROUND_SPAN}; playerId: 64 hex digits`);
    return sendCachedJson(req, reply, cache, `json daily around ${d.date} ${req.params.playerId} ${span}`, EVERY_BOARD, async () => {
      const all = await classification(store, cache, d);
      const at = all.findIndex((r) => r.playerId === req.params.playerId);
      return { rally: rallyJson(d, all.length), rows: at < 0 ? [] : all.slice(Math.max(0, at - span), at + span + 1) };
    });
  });
}
