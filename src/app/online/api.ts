/**
 * The game's client of the BitRally server's HTTP API (docs/server.md): players, submissions, boards, ghosts.
 * A request that cannot reach the server (network error, timeout, 5xx) throws `OfflineError` — the caller
 * keeps the work for later; an answer that refuses the request throws `ApiError` with the server's message.
 */
// the wire shapes are the server's own types (type-only: nothing of server/ enters the bundle)
import type { Board, BoardRow, RallyTotalRow } from '../../../server/board-types';
export type { Board, BoardRow, RallyTotalRow };

/** A request gives up after this long, ms (the server answers reads from memory; an upload is ≤ 8 MiB). */
const REQUEST_TIMEOUT_MS = 15_000;

export class OfflineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OfflineError';
  }
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type SubmissionStatus = 'pending' | 'accepted' | 'rejected';


export interface BoardSummary extends Board {
  stageId: string | null;
  players: number;
}

/** A daily rally as its board describes it (server/routes/rallies.ts). */
export interface DailyRallyInfo {
  date: string;
  carClass: string;
  simVersion: string;
  stages: { index: number; stageId: string }[];
  /** Players classified (a verified run on every stage). */
  players: number;
}

export interface SubmissionInfo {
  id: number;
  status: SubmissionStatus;
  reasonCode: string | null;
  reason: string | null;
  stageTimeS: number | null;
  board: (Board & { stageId: string | null }) | null;
  submittedAt: string;
  verifiedAt: string | null;
}

/** A server base URL as the player typed it, normalised (no trailing slash); null when it is not http(s). */
export function normaliseServerUrl(text: string): string | null {
  const t = text.trim();
  if (t === '') return null;
  try {
    const u = new URL(t);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    return u.href.replace(/\/+$/, '');
  } catch {
    return null;
  }
}

const boardPath = (b: Board): string => `${encodeURIComponent(b.stageHash)}/${encodeURIComponent(b.carClass)}/${encodeURIComponent(b.simVersion)}`;

export class OnlineApi {
  constructor(
    readonly baseUrl: string,
    private readonly key: string,
  ) {}

  /** One request; network failures, timeouts and 5xx answers are OfflineError, other non-2xx ApiError. */
  private async request(path: string, init: RequestInit = {}, auth = false): Promise<Response> {
    const headers = new Headers(init.headers);
    if (auth) headers.set('authorization', `Bearer ${this.key}`);
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${path}`, { ...init, headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    } catch (e) {
      throw new OfflineError(`server ${this.baseUrl} not reachable: ${(e as Error).message}`);
    }
    if (res.ok) return res;
    let body: { error?: string; message?: string } = {};
    try {
      body = (await res.json()) as typeof body;
    } catch {
      /* not JSON: the status says enough */
    }
    const message = body.message ?? `HTTP ${res.status}`;
    // 429 and 503 say "later": the submission stays queued like when the server is down
    if (res.status >= 500 || res.status === 429) throw new OfflineError(`server busy (${res.status}): ${message}`);
    throw new ApiError(res.status, body.error ?? String(res.status), message);
  }

  private async json<T>(path: string, init: RequestInit = {}, auth = false): Promise<T> {
    return (await (await this.request(path, init, auth)).json()) as T;
  }

  /** Registers this key under `name`, or renames it (PUT /api/players/me). */
  register(name: string): Promise<{ id: string; name: string }> {
    return this.json('/api/players/me', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) }, true);
  }

  /** Uploads a `.bitrally` file; the same file again answers with its existing row (idempotent). */
  submit(bytes: Uint8Array): Promise<SubmissionInfo> {
    const body = bytes.slice().buffer as ArrayBuffer;
    return this.json('/api/submissions', { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body }, true);
  }

  submission(id: number): Promise<SubmissionInfo> {
    return this.json(`/api/submissions/${id}`);
  }

  boards(): Promise<BoardSummary[]> {
    return this.json('/api/boards');
  }

  top(b: Board, limit: number): Promise<{ rows: BoardRow[] }> {
    return this.json(`/api/boards/${boardPath(b)}?limit=${limit}`);
  }

  around(b: Board, playerId: string, span: number): Promise<{ rows: BoardRow[] }> {
    return this.json(`/api/boards/${boardPath(b)}/around/${playerId}?span=${span}`);
  }

  /** The daily rally of a UTC date (YYYY-MM-DD) and its best totals. */
  dailyRally(date: string, limit: number): Promise<{ rally: DailyRallyInfo; rows: RallyTotalRow[] }> {
    return this.json(`/api/rallies/daily/${encodeURIComponent(date)}?limit=${limit}`);
  }

  dailyRallyAround(date: string, playerId: string, span: number): Promise<{ rally: DailyRallyInfo; rows: RallyTotalRow[] }> {
    return this.json(`/api/rallies/daily/${encodeURIComponent(date)}/around/${playerId}?span=${span}`);
  }

  history(playerId: string, limit: number): Promise<{ submissions: SubmissionInfo[] }> {
    return this.json(`/api/players/${playerId}/history?limit=${limit}`);
  }

  /** The replay bytes of an accepted run, to race as a ghost. */
  async ghost(submissionId: number): Promise<Uint8Array> {
    return new Uint8Array(await (await this.request(`/api/ghosts/${submissionId}`)).arrayBuffer());
  }

  async healthy(): Promise<boolean> {
    try {
      await this.request('/healthz');
      return true;
    } catch {
      return false;
    }
  }
}
