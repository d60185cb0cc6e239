/** PUT /api/players/me (register or rename), GET /api/players/:id (the public name). */
import type { FastifyInstance } from 'fastify';
import { validateName } from '../players';
import type { Store } from '../store';
import { requirePlayerId } from './auth';
import type { BoardCache } from '../board-cache';

export const PLAYER_ID_PATTERN = /^[0-9a-f]{64}$/;

export function registerPlayerRoutes(app: FastifyInstance, store: Store, cache: BoardCache): void {
  app.put<{ Body: { name?: unknown } }>('/api/players/me', async (req, reply) => {
    const id = requirePlayerId(req, reply);
    if (!id) return reply;
    const v = validateName(req.body?.name);
    if (!v.ok) return reply.code(400).send({ error: 'bad-name', message: v.reason });
    await store.upsertPlayer(id, v.name);
    // cached board rows carry names
    cache.clear();
    return { id, name: v.name };
  });

  app.get<{ Params: { id: string } }>('/api/players/:id', async (req, reply) => {
    if (!PLAYER_ID_PATTERN.test(req.params.id)) return reply.code(400).send({ error: 'bad-id', message: 'expected a player id (64 hex digits)' });
    const p = await store.player(req.params.id);
    return p ?? reply.code(404).send({ error: 'not-found', message: 'no such player' });
  });
}
