/**
 * Rally progress in IndexedDB (idb, database `bitrally-rally`): the rally in progress is written after every
 * step (a stage finished or retired, a service, rival times), so a reload resumes where the player was; nothing
 * saved is lost. A stored rally is checked against RallyStateSchema when read (a record from another build or a
 * damaged one is refused with a message naming the key, and left in place). Without IndexedDB (private mode) it
 * lives in memory for the session.
 */
import { openDB, type IDBPDatabase } from 'idb';
import { z } from 'zod';
import type { RallyState } from '../../run/rally/rally';

const DB_NAME = 'bitrally-rally';
const DB_VERSION = 1;
const STORE = 'rallies';
/** The key of the record that names the rally in progress. */
const CURRENT_KEY = '__current__';

const finite = z.number().refine(Number.isFinite, 'a finite number');
const DamageSchema = z.strictObject({ crushFrontM: finite, crushRearM: finite, crushLeftM: finite, crushRightM: finite, hits: z.number().int() });
const StageRefSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('generated'), params: z.strictObject({ seed: z.number().int(), lengthKm: finite, landscape: z.string(), surfaceMix: finite }) }),
  z.strictObject({ kind: z.literal('builtin'), id: z.string() }),
]);

export const RallyStateSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string(),
  seed: z.number().int(),
  daily: z.string().optional(),
  stages: z.array(StageRefSchema).min(1).max(10),
  serviceEvery: z.number().int().positive(),
  serviceBudgetMin: finite,
  carId: z.string(),
  rivals: z.array(z.strictObject({ name: z.string(), driver: z.strictObject({ aggressiveness: finite, skill: finite, name: z.string().optional() }) })),
  rivalTimes: z.array(z.array(finite.nullable()).nullable()),
  results: z.array(
    z.strictObject({ stage: z.number().int(), timeS: finite.nullable(), retired: z.boolean(), damageIn: DamageSchema, damageOut: DamageSchema, replayId: z.string().optional() }),
  ),
  services: z.array(
    z.strictObject({
      afterStage: z.number().int(), minutesUsed: finite, lateMin: finite, penaltyS: finite,
      repaired: z.array(z.enum(['front', 'rear', 'left', 'right'])), setupChanged: z.boolean(), free: z.boolean(),
    }),
  ),
  damage: DamageSchema,
  freeRepairDue: z.boolean(),
});

let dbPromise: Promise<IDBPDatabase | null> | null = null;
const mem = new Map<string, unknown>();

function db(): Promise<IDBPDatabase | null> {
  dbPromise ??= (async () => {
    if (typeof indexedDB === 'undefined') return null;
    try {
      return await openDB(DB_NAME, DB_VERSION, { upgrade: (d) => void d.createObjectStore(STORE) });
    } catch (e) {
      console.warn(`rally storage: IndexedDB unavailable (${(e as Error).message}); the rally is kept for this session only`);
      return null;
    }
  })();
  return dbPromise;
}

async function put(key: string, value: unknown): Promise<void> {
  const d = await db();
  if (d) await d.put(STORE, value, key);
  else mem.set(key, structuredClone(value));
}

async function get(key: string): Promise<unknown> {
  const d = await db();
  return d ? await d.get(STORE, key) : mem.get(key);
}

/** Stores the rally and makes it the one in progress (one transaction each: the rally first, then the pointer). */
export async function saveRally(s: RallyState): Promise<void> {
  await put(s.id, s);
  await put(CURRENT_KEY, s.id);
}

/** The rally in progress, checked; null when there is none. A stored record that fails the check throws. */
export async function loadCurrentRally(): Promise<RallyState | null> {
  const id = await get(CURRENT_KEY);
  if (typeof id !== 'string') return null;
  const raw = await get(id);
  if (raw === undefined) return null;
  const r = RallyStateSchema.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw new Error(`saved rally ${id}: ${i.path.join('.') || '(root)'}: ${i.message}`);
  }
  // strict schema: nothing was stripped, so the record is returned exactly as it was saved
  return raw as RallyState;
}

/** No rally in progress any more (a finished or abandoned rally stays stored under its id). */
export async function clearCurrentRally(): Promise<void> {
  await put(CURRENT_KEY, null);
}
