/** A small HTTP client for the server tests (all traffic to 127.0.0.1). */
import { createHash, randomBytes } from 'node:crypto';

export interface Player {
  key: string;
  id: string;
  name: string;
}

export function newPlayer(name: string): Player {
  const key = randomBytes(32).toString('base64url');
  return { key, id: createHash('sha256').update(key).digest('hex'), name };
}

export class TestClient {
  constructor(readonly base: string) {}

  async json(method: string, path: string, body?: unknown, key?: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const headers: Record<string, string> = {};
    if (key) headers.authorization = `Bearer ${key}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const r = await fetch(this.base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  }

  /** A GET with an optional If-None-Match: the status, the ETag header and the body text ('' for a 304). */
  async getWithEtag(path: string, ifNoneMatch?: string): Promise<{ status: number; etag: string | null; text: string }> {
    const r = await fetch(this.base + path, { headers: ifNoneMatch === undefined ? {} : { 'if-none-match': ifNoneMatch } });
    return { status: r.status, etag: r.headers.get('etag'), text: await r.text() };
  }

  register(p: Player): Promise<{ status: number; body: Record<string, unknown> }> {
    return this.json('PUT', '/api/players/me', { name: p.name }, p.key);
  }

  async submit(p: Player, bytes: Uint8Array): Promise<{ status: number; body: Record<string, unknown> }> {
    const r = await fetch(this.base + '/api/submissions', { method: 'POST', headers: { authorization: `Bearer ${p.key}`, 'content-type': 'application/octet-stream' }, body: new Uint8Array(bytes) });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  }

  /** Polls a submission until it is no longer pending (bounded: `timeoutMs`). */
  async settled(id: number, timeoutMs = 60_000): Promise<Record<string, unknown>> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const r = await this.json('GET', `/api/submissions/${id}`);
      if (r.body.status !== 'pending') return r.body;
      if (Date.now() > end) throw new Error(`submission ${id} still pending after ${timeoutMs} ms`);
      await new Promise((res) => setTimeout(res, 100));
    }
  }
}
