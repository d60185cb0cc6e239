/**
 * Everything the server reads and writes, as parameterised SQL over the Database interface (server/db):
 * players, submissions (durable before they are acknowledged), verification results and the leaderboards.
 * A leaderboard is one (stage hash, car class, simulation version); a player's row on it is their best
 * accepted time (ties: the earlier submission first), kept in `best_runs` when a verdict is stored.
 */
import type { Database } from './db/database';
import { reject, type Verdict } from './verify/verdict';
import type { Board, BoardRow } from './board-types';
import type { RallyStageRun } from './daily-rally';
export type { Board, BoardRow };

export interface SubmissionRow {
  id: number;
  playerId: string;
  status: 'pending' | 'accepted' | 'rejected';
  reasonCode: string | null;
  reason: string | null;
  stageId: string | null;
  stageHash: string | null;
  carClass: string | null;
  simVersion: string | null;
  stageTimeS: number | null;
  submittedAt: string;
  verifiedAt: string | null;
}

const iso = (t: unknown): string => new Date(t as string | Date).toISOString();

const SUBMISSION_COLUMNS = `id, player_id, status, reason_code, reason, stage_id, stage_hash, car_class, sim_version, stage_time_s, submitted_at, verified_at`;

function toSubmission(r: Record<string, unknown>): SubmissionRow {
  return {
    id: Number(r.id),
    playerId: r.player_id as string,
    status: r.status as SubmissionRow['status'],
    reasonCode: (r.reason_code as string | null) ?? null,
    reason: (r.reason as string | null) ?? null,
    stageId: (r.stage_id as string | null) ?? null,
    stageHash: (r.stage_hash as string | null) ?? null,
    carClass: (r.car_class as string | null) ?? null,
    simVersion: (r.sim_version as string | null) ?? null,
    stageTimeS: r.stage_time_s === null ? null : Number(r.stage_time_s),
    submittedAt: iso(r.submitted_at),
    verifiedAt: r.verified_at ? iso(r.verified_at) : null,
  };
}

function toBoardRow(r: Record<string, unknown>, rank: number): BoardRow {
  return {
    rank,
    submissionId: Number(r.submission_id),
    playerId: r.player_id as string,
    name: r.name as string,
    stageTimeS: Number(r.stage_time_s),
    submittedAt: iso(r.submitted_at),
  };
}

/** Rows of a board in rank order: best time first, then the earlier submission (ids grow with time). */
const BOARD_ROWS = `
  SELECT b.submission_id, b.player_id, b.stage_time_s, p.name, s.submitted_at
  FROM best_runs b JOIN players p ON p.id = b.player_id JOIN submissions s ON s.id = b.submission_id
  WHERE b.stage_hash = $1 AND b.car_class = $2 AND b.sim_version = $3`;

export class Store {
  constructor(readonly db: Database) {}

  /** Creates the player or renames them. */
  async upsertPlayer(id: string, name: string): Promise<void> {
    await this.db.query(
      `INSERT INTO players (id, name) VALUES ($1, $2)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, updated_at = now()`,
      [id, name],
    );
  }

  async player(id: string): Promise<{ id: string; name: string } | null> {
    const rows = await this.db.query<{ id: string; name: string }>('SELECT id, name FROM players WHERE id = $1', [id]);
    return rows[0] ?? null;
  }

  /**
   * Stores a submission as pending, once per content hash: `created` is false when the same file was already
   * stored (the existing row is returned, whoever sent it). Durable when this resolves (committed).
   */
  async insertSubmission(contentHash: string, playerId: string, bytes: Uint8Array): Promise<{ created: boolean; row: SubmissionRow }> {
    const inserted = await this.db.query<{ id: number }>(
      `INSERT INTO submissions (content_hash, player_id, bytes, status) VALUES ($1, $2, $3, 'pending')
       ON CONFLICT (content_hash) DO NOTHING RETURNING id`,
      [contentHash, playerId, bytes],
    );
    const rows = await this.db.query(`SELECT ${SUBMISSION_COLUMNS} FROM submissions WHERE content_hash = $1`, [contentHash]);
    return { created: inserted.length === 1, row: toSubmission(rows[0]!) };
  }

  async submission(id: number): Promise<SubmissionRow | null> {
    const rows = await this.db.query(`SELECT ${SUBMISSION_COLUMNS} FROM submissions WHERE id = $1`, [id]);
    return rows[0] ? toSubmission(rows[0]) : null;
  }

  async submissionBytes(id: number, acceptedOnly: boolean): Promise<Uint8Array | null> {
    const rows = await this.db.query<{ bytes: Uint8Array }>(`SELECT bytes FROM submissions WHERE id = $1 ${acceptedOnly ? "AND status = 'accepted'" : ''}`, [id]);
    return rows[0] ? new Uint8Array(rows[0].bytes) : null;
  }

  async pendingIds(): Promise<number[]> {
    const rows = await this.db.query<{ id: number }>(`SELECT id FROM submissions WHERE status = 'pending' ORDER BY id`);
    return rows.map((r) => Number(r.id));
  }

  async countPending(): Promise<number> {
    const rows = await this.db.query<{ n: string | number }>(`SELECT count(*) AS n FROM submissions WHERE status = 'pending'`);
    return Number(rows[0]!.n);
  }

  /**
   * Stores a verdict on a pending row (a row already decided is left as it is); an accepted run may become the
   * player's best. A run whose final state was already accepted on its board (a copy of another file's drive,
   * renamed) is stored as rejected `duplicate-run`; the unique index submissions_run backs this up.
   */
  async recordVerdict(id: number, verdict: Verdict, verifyMs: number): Promise<void> {
    const v = verdict.status === 'accepted' ? await this.refuseCopies(id, verdict) : verdict;
    if (v.status === 'rejected') {
      await this.db.query(
        `UPDATE submissions SET status = 'rejected', reason_code = $2, reason = $3, verify_ms = $4, verified_at = now()
         WHERE id = $1 AND status = 'pending'`,
        [id, v.code, v.reason.slice(0, 2000), Math.round(verifyMs)],
      );
      return;
    }
    await this.db.transaction(async (tx) => {
      const updated = await tx.query<{ player_id: string }>(
        `UPDATE submissions SET status = 'accepted', stage_id = $2, stage_hash = $3, car_class = $4, sim_version = $5,
           stage_time_s = $6, final_hash = $7, ticks = $8, verify_ms = $9, verified_at = now()
         WHERE id = $1 AND status = 'pending' RETURNING player_id`,
        [id, v.stageId, v.stageHash, v.carClass, v.simVersion, v.stageTimeS, v.finalHash, v.ticks, Math.round(verifyMs)],
      );
      if (!updated.length) return;
      await tx.query(
        `INSERT INTO best_runs (stage_hash, car_class, sim_version, player_id, submission_id, stage_id, stage_time_s)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (stage_hash, car_class, sim_version, player_id) DO UPDATE
           SET submission_id = EXCLUDED.submission_id, stage_time_s = EXCLUDED.stage_time_s
           WHERE (EXCLUDED.stage_time_s, EXCLUDED.submission_id) < (best_runs.stage_time_s, best_runs.submission_id)`,
        [v.stageHash, v.carClass, v.simVersion, updated[0]!.player_id, id, v.stageId, v.stageTimeS],
      );
      if (v.canonicalStage) await tx.query(`INSERT INTO canonical_stages (stage_hash, stage_id) VALUES ($1, $2) ON CONFLICT (stage_hash) DO NOTHING`, [v.stageHash, v.stageId]);
    });
  }

  private async refuseCopies(id: number, v: Extract<Verdict, { status: 'accepted' }>): Promise<Verdict> {
    const first = await this.db.query<{ id: number }>(
      `SELECT id FROM submissions WHERE status = 'accepted' AND stage_hash = $1 AND car_class = $2 AND sim_version = $3 AND final_hash = $4 AND id <> $5`,
      [v.stageHash, v.carClass, v.simVersion, v.finalHash, id],
    );
    return first.length ? reject('duplicate-run', `the same drive (final state ${v.finalHash}) was accepted as submission ${first[0]!.id}`) : v;
  }

  /** The best `limit` rows of a board from rank `offset + 1`. */
  async top(b: Board, limit: number, offset = 0): Promise<BoardRow[]> {
    const rows = await this.db.query(`${BOARD_ROWS} ORDER BY b.stage_time_s, b.submission_id LIMIT $4 OFFSET $5`, [b.stageHash, b.carClass, b.simVersion, limit, offset]);
    return rows.map((r, i) => toBoardRow(r, offset + i + 1));
  }

  /** The player's row and up to `span` rows above and below it (empty when the player has no run there). One round trip. */
  async around(b: Board, playerId: string, span: number): Promise<BoardRow[]> {
    const rows = await this.db.query(
      `WITH me AS (
         SELECT stage_time_s AS t, submission_id AS sid FROM best_runs
         WHERE stage_hash = $1 AND car_class = $2 AND sim_version = $3 AND player_id = $4
       ), above AS (
         ${BOARD_ROWS} AND (b.stage_time_s, b.submission_id) < (SELECT t, sid FROM me)
         ORDER BY b.stage_time_s DESC, b.submission_id DESC LIMIT $5
       ), below AS (
         ${BOARD_ROWS} AND (b.stage_time_s, b.submission_id) >= (SELECT t, sid FROM me)
         ORDER BY b.stage_time_s, b.submission_id LIMIT $5 + 1
       )
       SELECT x.*, (SELECT count(*) FROM best_runs, me
                    WHERE stage_hash = $1 AND car_class = $2 AND sim_version = $3 AND (stage_time_s, submission_id) < (me.t, me.sid)) AS ahead
       FROM (SELECT * FROM above UNION ALL SELECT * FROM below) x ORDER BY x.stage_time_s, x.submission_id`,
      [b.stageHash, b.carClass, b.simVersion, playerId, span],
    );
    const mine = rows.findIndex((r) => r.player_id === playerId);
    if (mine < 0) return [];
    const myRank = Number(rows[mine]!.ahead) + 1;
    return rows.map((r, i) => toBoardRow(r, myRank - mine + i));
  }

  /**
   * Every player's best run on each of `stageIds` (canonical generated stages only: canonical_stages) in one car
   * class and simulation version: what a daily-rally total is made of (server/daily-rally.ts ranks them).
   */
  async rallyStageRuns(stageIds: readonly string[], carClass: string, simVersion: string): Promise<RallyStageRun[]> {
    const rows = await this.db.query(
      `SELECT b.player_id, p.name, b.stage_id, b.stage_time_s, b.submission_id
       FROM best_runs b JOIN canonical_stages c ON c.stage_hash = b.stage_hash AND c.stage_id = b.stage_id
       JOIN players p ON p.id = b.player_id
       WHERE b.stage_id = ANY($1::text[]) AND b.car_class = $2 AND b.sim_version = $3`,
      [[...stageIds], carClass, simVersion],
    );
    return rows.map((r) => ({ playerId: r.player_id as string, name: r.name as string, stageId: r.stage_id as string, stageTimeS: Number(r.stage_time_s), submissionId: Number(r.submission_id) }));
  }

  /** A player's submissions, newest first (all boards, all outcomes). */
  async history(playerId: string, limit: number): Promise<SubmissionRow[]> {
    const rows = await this.db.query(`SELECT ${SUBMISSION_COLUMNS} FROM submissions WHERE player_id = $1 ORDER BY id DESC LIMIT $2`, [playerId, limit]);
    return rows.map(toSubmission);
  }

  /** The boards that have accepted runs, with their stage id and number of players. */
  async boards(): Promise<(Board & { stageId: string; players: number })[]> {
    const rows = await this.db.query<Record<string, unknown>>(
      `SELECT stage_hash, car_class, sim_version, min(stage_id) AS stage_id, count(*) AS players
       FROM best_runs GROUP BY stage_hash, car_class, sim_version ORDER BY stage_id, car_class, sim_version`,
    );
    return rows.map((r) => ({ stageHash: r.stage_hash as string, carClass: r.car_class as string, simVersion: r.sim_version as string, stageId: r.stage_id as string, players: Number(r.players) }));
  }
}
