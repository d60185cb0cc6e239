/** The player a request acts for: `Authorization: Bearer <key>` (the key never leaves the request). */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { keyFromAuthorization, playerIdOf } from '../players';

/** The player id of the request's key, or null after sending 401. */
export function requirePlayerId(req: FastifyRequest, reply: FastifyReply): string | null {
  const key = keyFromAuthorization(req.headers.authorization);
  if (key) return playerIdOf(key);
  void reply.code(401).send({ error: 'unauthorized', message: 'expected Authorization: Bearer <player key> (32–128 characters A–Z a–z 0–9 _ -)' });
  return null;
}
