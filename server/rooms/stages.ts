/** The stages rooms may be created on: the shipped stage folders (src/content/stages/<id>/); race rooms take circuits. */
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { CONTENT_DIR } from '../../src/replay/node';
import { isCircuitId } from '../../src/net/room-kind';
import { loadStageFromDir } from '../../terrain/node';
import type { Stage } from '../../terrain/stage';

/** The stage a "stage" room drives when its creator names none (or one that is not shipped). */
export const DEFAULT_ROOM_STAGE = 'test-short';

let shipped: readonly string[] | null = null;

export function shippedStageIds(): readonly string[] {
  if (!shipped) {
    const dir = join(CONTENT_DIR, 'stages');
    shipped = readdirSync(dir).filter((d) => existsSync(join(dir, d, 'stage.toml'))).sort();
  }
  return shipped;
}

/** The room's stage from an untrusted create option: a shipped stage id, else DEFAULT_ROOM_STAGE. */
export function roomStageFrom(id: unknown): string {
  return typeof id === 'string' && shippedStageIds().includes(id) ? id : DEFAULT_ROOM_STAGE;
}

/** The circuit a "race" room drives when its creator names none (or one that is not a shipped circuit). */
export const DEFAULT_RACE_CIRCUIT = 'rallycross-bitring';

/** A race room's circuit from an untrusted create option: a shipped rallycross circuit id, else DEFAULT_RACE_CIRCUIT. */
export function roomCircuitFrom(id: unknown): string {
  return typeof id === 'string' && isCircuitId(id) && shippedStageIds().includes(id) ? id : DEFAULT_RACE_CIRCUIT;
}

const loaded = new Map<string, Stage>();

/** The shipped stage `id` (one of shippedStageIds()), loaded once per process: a stage room times its cars on it. */
export function roomStage(id: string): Stage {
  let s = loaded.get(id);
  if (!s) {
    s = loadStageFromDir(join(CONTENT_DIR, 'stages', id));
    loaded.set(id, s);
  }
  return s;
}
