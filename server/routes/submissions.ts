/**
 * POST /api/submissions: the `.bitrally` bytes of a finished run (Content-Type application/octet-stream,
 * Authorization: Bearer <player key>). Refused before the body is read: no key, an unregistered player, over the
 * per-key rate limit, a queue too long, a declared size over the cap. Then the container header is looked at (a
 * replay? a payload that inflates past the cap = a zip bomb?), and the file is stored as pending, once per
 * content hash, before the 202 answer. GET /api/submissions/:id: its status, reason and stage time.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { REPLAY_FORMAT, REPLAY_MAGIC } from '../../src/replay/format';
import type { Store, SubmissionRow } from '../store';
import type { VerificationQueue } from '../queue';
import { keyFromAuthorization, playerIdOf } from '../players';
import { requirePlayerId } from './auth';
import { WindowLimiter } from '../window-limiter';

const MINUTE_MS = 60_000;

/** Largest upload, bytes: a 30-minute run is ~0.3 MB; a replay with an embedded stage carries its PNGs too. */
export const DEFAULT_MAX_SUBMISSION_BYTES = 8 * 1024 * 1024;
/** Submissions waiting for verification before new ones are refused with 503 (retry later). */
export const DEFAULT_MAX_PENDING = 1000;
/**
 * Largest inflated payload the server verifies, bytes (a zip-bomb guard before any inflating: the decoder stops
 * at the declared length). A 30-minute run with keyframes every 5 s is ~5 MB; the format allows 128 MiB.
 */
export const MAX_SUBMISSION_PAYLOAD_BYTES = 48 * 1024 * 1024;
/** The .bitrally container header (src/replay/format.ts): magic, u16 version, u16 flags, u32 inflated length. */
const CONTAINER_BYTES = 24;

export interface SubmissionDeps {
  store: Store;
  queue: VerificationQueue;
  maxBytes: number;
  maxPending: number;
  perKeyPerMinute: number;
  perIpPerMinute: number;
}

/** Why the container header alone refuses the file (null: worth verifying). */
export function containerProblem(b: Uint8Array): string | null {
  if (b.length < CONTAINER_BYTES) return `expected a .bitrally file of at least ${CONTAINER_BYTES} bytes, found ${b.length}`;
  if (new TextDecoder().decode(b.subarray(0, 8)) !== REPLAY_MAGIC) return `expected the magic "${REPLAY_MAGIC}" (a BitRally replay)`;
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (dv.getUint16(8, true) !== REPLAY_FORMAT) return `expected replay format ${REPLAY_FORMAT}, found ${dv.getUint16(8, true)}`;
  const inflated = dv.getUint32(12, true);
  if (inflated > MAX_SUBMISSION_PAYLOAD_BYTES) return `payload inflates to ${inflated} bytes, more than the ${MAX_SUBMISSION_PAYLOAD_BYTES} allowed`;
  return null;
}

export function submissionJson(s: SubmissionRow): Record<string, unknown> {
  const board = s.stageHash ? { stageId: s.stageId, stageHash: s.stageHash, carClass: s.carClass, simVersion: s.simVersion } : null;
  return { id: s.id, status: s.status, reasonCode: s.reasonCode, reason: s.reason, stageTimeS: s.stageTimeS, board, submittedAt: s.submittedAt, verifiedAt: s.verifiedAt };
}

/** onRequest, before the body is read: the reply when the request is refused (Fastify stops there). */
async function admit(req: FastifyRequest, reply: FastifyReply, d: SubmissionDeps, perKey: WindowLimiter): Promise<FastifyReply | undefined> {
  const id = requirePlayerId(req, reply);
  if (!id) return reply;
  const wait = perKey.take(id);
  if (wait !== null) return reply.code(429).header('retry-after', String(wait)).send({ error: 'rate-limited', message: `at most ${perKey.max} submissions per minute per player; retry in ${wait} s` });
  if (!(await d.store.player(id))) return reply.code(403).send({ error: 'unregistered', message: 'register a name first: PUT /api/players/me' });
  if (d.queue.depth >= d.maxPending) return reply.code(503).header('retry-after', '60').send({ error: 'busy', message: 'too many submissions waiting for verification; retry later' });
  return undefined;
}

async function submit(req: FastifyRequest<{ Body: Buffer }>, reply: FastifyReply, d: SubmissionDeps): Promise<unknown> {
  const bytes = new Uint8Array(req.body.buffer, req.body.byteOffset, req.body.byteLength);
  const problem = containerProblem(bytes);
  if (problem) return reply.code(422).send({ error: 'format', message: problem });
  const playerId = playerIdOf(keyFromAuthorization(req.headers.authorization)!);
  const hash = createHash('sha256').update(bytes).digest('hex');
  const { created, row } = await d.store.insertSubmission(hash, playerId, bytes);
  if (!created && row.playerId !== playerId) return reply.code(409).send({ error: 'duplicate', message: 'this file was submitted by another player' });
  if (created) d.queue.enqueue(row.id);
  req.log.info({ submission: row.id, created, bytes: bytes.length }, 'submission stored');
  return reply.code(created ? 202 : 200).send(submissionJson(row));
}

export function registerSubmissionRoutes(app: FastifyInstance, d: SubmissionDeps): void {
  void app.register(async (scope) => {
    scope.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: d.maxBytes }, (_req, body, done) => done(null, body));
    // the route's own per-IP limit (the global one does not reach into this scope), then admit (per key)
    const perIp = scope.rateLimit({ max: d.perIpPerMinute, timeWindow: '1 minute', keyGenerator: (req) => `ip:${req.ip}` });
    const perKey = new WindowLimiter(d.perKeyPerMinute, MINUTE_MS);
    scope.post<{ Body: Buffer }>('/api/submissions', { bodyLimit: d.maxBytes, onRequest: [perIp, (req, reply) => admit(req, reply, d, perKey)] }, (req, reply) => submit(req, reply, d));
  });

  app.get<{ Params: { id: string } }>('/api/submissions/:id', async (req, reply) => {
    const id = Number(req.params.id);
    if (!Number.isSafeInteger(id) || id < 1) return reply.code(400).send({ error: 'bad-id', message: 'expected a submission id (a positive integer)' });
    const s = await d.store.submission(id);
    return s ? submissionJson(s) : reply.code(404).send({ error: 'not-found', message: 'no such submission' });
  });
}
