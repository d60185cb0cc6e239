/**
 * Schema migrations, run at start in order: each one once, in its own transaction, recorded in
 * `schema_migrations`. Never edit a migration that has shipped: add the next one.
 */
import type { Database } from './database';

export interface Migration {
  id: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    id: 1,
    name: 'players and submissions',
    sql: `
      CREATE TABLE players (
        id text PRIMARY KEY,                       -- SHA-256 (hex) of the player's secret key
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE submissions (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        content_hash text NOT NULL UNIQUE,         -- SHA-256 (hex) of the .bitrally bytes: one row per file
        player_id text NOT NULL REFERENCES players (id),
        bytes bytea NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'accepted', 'rejected')),
        reason_code text,
        reason text,
        stage_id text,
        stage_hash text,
        car_class text,
        sim_version text,
        stage_time_s double precision,
        final_hash text,
        ticks integer,
        verify_ms integer,
        submitted_at timestamptz NOT NULL DEFAULT now(),
        verified_at timestamptz
      );
      CREATE INDEX submissions_pending ON submissions (id) WHERE status = 'pending';
      CREATE INDEX submissions_player ON submissions (player_id, id);
      -- one accepted row per run: the same drive resubmitted under another name or by another player is a copy
      CREATE UNIQUE INDEX submissions_run ON submissions (stage_hash, car_class, sim_version, final_hash) WHERE status = 'accepted';
      -- each player's best accepted run per board (kept by the verdict that beats it): the boards read this
      CREATE TABLE best_runs (
        stage_hash text NOT NULL,
        car_class text NOT NULL,
        sim_version text NOT NULL,
        player_id text NOT NULL REFERENCES players (id),
        submission_id integer NOT NULL REFERENCES submissions (id),
        stage_id text NOT NULL,
        stage_time_s double precision NOT NULL,
        PRIMARY KEY (stage_hash, car_class, sim_version, player_id)
      );
      CREATE INDEX best_runs_rank ON best_runs (stage_hash, car_class, sim_version, stage_time_s, submission_id);
    `,
  },
  {
    id: 2,
    name: 'canonical generated stages (daily-rally boards)',
    sql: `
      -- generated stages that are the in-game generator's stage for the parameters their id names
      -- (server/verify/canonical-stage.ts): a daily-rally total counts runs on these only
      CREATE TABLE canonical_stages (
        stage_hash text PRIMARY KEY,
        stage_id text NOT NULL
      );
      CREATE INDEX canonical_stages_id ON canonical_stages (stage_id);
      CREATE INDEX best_runs_stage_id ON best_runs (stage_id, car_class, sim_version);
    `,
  },
];

/** Serialises concurrent starts on one PostgreSQL database (an arbitrary constant key). */
const MIGRATION_LOCK_KEY = 2121;

/** Applies the migrations not yet recorded; returns the ids applied now. */
export async function runMigrations(db: Database, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  const applied: number[] = [];
  for (const m of migrations) {
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      const seen = await tx.query('SELECT 1 FROM schema_migrations WHERE id = $1', [m.id]);
      if (seen.length) return false;
      for (const stmt of splitStatements(m.sql)) await tx.query(stmt);
      await tx.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [m.id, m.name]);
      return true;
    });
    if (done) applied.push(m.id);
  }
  return applied;
}

/** The statements of a migration script (no `;` inside string literals in our migrations). */
function splitStatements(sql: string): string[] {
  return sql
    .split(';')
    .map((s) => s.replace(/--[^\n]*/g, '').trim())
    .filter((s) => s.length > 0);
}
