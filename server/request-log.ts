/**
 * Request logging off the hot path: Fastify's two lines per request (pino, synchronous JSON on stdout) are
 * turned off (`disableRequestLogging`) and one line is written at the end of a request only when an operator
 * needs it: a server error, a refusal an operator watches for (413 too large, 429 rate-limited) or a slow answer
 * at `info`, every other request at `debug` (skipped, line and all, at the default level).
 */
import type { FastifyInstance } from 'fastify';

/** An answer slower than this is logged at info, ms. */
export const SLOW_REQUEST_MS = 250;

/** Refusals logged at info: uploads over the size limit and rate-limited clients (abuse shows up in the log). */
const WATCHED_REFUSALS = new Set([413, 429]);

/** Logger levels at which `debug` lines are written. */
const DEBUG_LEVELS = new Set(['debug', 'trace']);

export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', (req, reply, done) => {
    const ms = reply.elapsedTime;
    const watched = reply.statusCode >= 500 || WATCHED_REFUSALS.has(reply.statusCode) || ms > SLOW_REQUEST_MS;
    // the line object is built only when it is written: an ordinary request at level info allocates nothing here
    if (watched || DEBUG_LEVELS.has(req.log.level)) {
      const line = { method: req.method, url: req.url, status: reply.statusCode, ms: Math.round(ms * 10) / 10 };
      if (watched) req.log.info(line, 'request');
      else req.log.debug(line, 'request');
    }
    done();
  });
}
