/** GET /healthz: the database answers; queue depth and workers (for a load balancer and for people). */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database';
import type { VerificationQueue } from '../queue';
import type { VerifierPool } from '../verify/pool';
import { SIM_VERSION } from '../../src/replay/version';

export function registerHealthRoutes(app: FastifyInstance, d: { db: Database; queue: VerificationQueue; pool: VerifierPool }): void {
  app.get('/healthz', { config: { rateLimit: false } }, async (_req, reply) => {
    try {
      await d.db.query('SELECT 1');
    } catch (e) {
      return reply.code(503).send({ ok: false, database: d.db.kind, error: (e as Error).message });
    }
    return { ok: true, database: d.db.kind, simVersion: SIM_VERSION, queue: d.queue.depth, verifierThreads: d.pool.threads };
  });
}
