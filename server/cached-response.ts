/**
 * Board responses prebuilt once per cache generation (server/board-cache.ts): the JSON text serialised into a
 * Buffer with its ETag when the entry is built, so a read that hits the cache does no query, no serialisation and
 * no hashing; it writes the same bytes again. The ETag is a hash of the bytes, so a client that sends it back in
 * If-None-Match gets a bodiless 304 while the board is unchanged, also across cache drops that left it the same.
 * `Cache-Control: no-cache` lets clients keep a copy but makes them ask again (a board changes with every
 * accepted run).
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BoardCache } from './board-cache';

export interface PrebuiltResponse {
  body: Buffer;
  /** Strong validator: `"<sha1 of body, base64url>"`. */
  etag: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const REVALIDATE = 'no-cache';

/** Serialises `value` once: its bytes and their ETag. */
export function prebuildJson(value: unknown): PrebuiltResponse {
  const body = Buffer.from(JSON.stringify(value), 'utf8');
  return { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
}

/** Whether an If-None-Match header names `etag` (a list, weak forms and `*` allowed: RFC 9110 §13.1.2). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header === etag || header === '*') return true;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return (tag.startsWith('W/') ? tag.slice(2) : tag) === etag;
  });
}

/** Answers with the cached response of `key` (built by `build` on a miss), or a 304 when the client has it. */
export async function sendCachedJson(req: FastifyRequest, reply: FastifyReply, cache: BoardCache, key: string, scope: string, build: () => Promise<unknown>): Promise<FastifyReply> {
  const r = cache.peek<PrebuiltResponse>(key) ?? (await cache.get(key, async () => prebuildJson(await build()), scope));
  reply.header('etag', r.etag).header('cache-control', REVALIDATE);
  if (matchesEtag(req.headers['if-none-match'], r.etag)) return reply.code(304).send();
  return reply.header('content-type', JSON_TYPE).send(r.body);
}
