/**
 * Resource caps for replay files (untrusted input: imported, downloaded, shared) and the verification budget.
 * Every section length and every count a file declares is checked against these caps and against the header
 * BEFORE anything is allocated from it, so no file can make a process allocate more than
 * `MAX_REPLAY_LOAD_BYTES` while loading, or re-simulate more than `MAX_REPLAY_CAR_TICKS` car-ticks.
 * docs/replays.md "Limits" lists them with their reasons.
 */
import { MAX_SNAPSHOT_OBJECTS } from './snapshot-codec';

const MiB = 1024 * 1024;
/** What one small decoded JS object (a record, a Map, an empty typed array) costs at most, for the memory cap. */
const SMALL_OBJECT_BYTES = 100;

/** Largest file accepted (an hour of driving is well under 1 MB). */
export const MAX_REPLAY_FILE_BYTES = 32 * MiB;
/** Largest inflated payload accepted (zip-bomb guard: checked against the declared length while inflating). */
export const MAX_REPLAY_PAYLOAD_BYTES = 128 * MiB;
/** Longest replay accepted: 2 h at 1 kHz (ticks). */
export const MAX_REPLAY_TICKS = 2 * 3600 * 1000;
/** Most cars in one replay (the input section's car count is checked against the header's car list too). */
export const MAX_REPLAY_CARS = 64;
/**
 * Most car-ticks (ticks × max(1, cars)) a replay may declare, and the default verification budget: 8 cars for an
 * hour at 500 Hz, or one car for 2 h at 1 kHz with room to spare. Re-simulation costs ~20–250 µs per car-tick on
 * the project's machines, so this is at most about an hour of verification on a loaded machine.
 */
export const MAX_REPLAY_CAR_TICKS = 8 * 3600 * 500;

/** Largest section of each kind (bytes, inflated). Their sum bounds what decoding can hold. */
export const MAX_SECTION_BYTES: Readonly<Record<string, number>> = {
  /** header JSON: 64 cars × (car file + the files it extends, ≤ 16 × ~10 KB shipped) fits easily */
  H: 4 * MiB,
  /** inputs: a 2 h single-car drive with input changing every frame is ~1 MB inflated */
  I: 16 * MiB,
  /** edits JSON: recoveries (~80 B) and config edits (a car file's text each) */
  E: 16 * MiB,
  /** checksums: 9–13 bytes each (~100 B once decoded), one per second of a 2 h run is ~80 KB */
  C: 1 * MiB,
  /** keyframes: ~12 KB per keyframe (one car) before deflate; 2 h at one per 5 s is ~17 MB */
  K: 48 * MiB,
  /** embedded stage.toml: the content TOML cap (src/content/bounded-parse.ts MAX_TOML_BYTES) */
  T: 1 * MiB,
  /** embedded height and surface PNGs (their pixel counts are capped by the stage loader) */
  P: 8 * MiB,
  Q: 8 * MiB,
};
/** Section tags this build reads; any other tag is refused. */
export const SECTION_TAGS = Object.keys(MAX_SECTION_BYTES);

/**
 * Most edits (recoveries + car swaps) in one replay: a recovery re-spawns the car in a scratch world (a few ms),
 * so this bounds what edits add to a verification to seconds; a long rally has tens of recoveries.
 */
export const MAX_REPLAY_EDITS = 2_000;
/** Most config edits (mid-run car swaps): each one parses a car file and reconfigures the car. */
export const MAX_CONFIG_EDITS = 256;
/** Most files per embedded car (the main file and the files it extends). */
export const MAX_CAR_FILES = 16;
/** A town replay (header `town`): traffic vehicles (the traffic CLI's range), instructor actions, traffic car files. */
export const MAX_TOWN_TRAFFIC = 2000;
export const MAX_TOWN_INSTRUCTIONS = 1000;
export const MAX_TOWN_TRAFFIC_CARS = 8;
/**
 * Most keyframes in one replay (2 h at one per 2 s; the recorder's default is one per 5 s). A keyframe also
 * decodes to ~170 small JS objects (components, columns), capped in all by MAX_SNAPSHOT_OBJECTS (src/ecs/snapshot.ts).
 */
export const MAX_REPLAY_KEYFRAMES = 3600;
/** Deepest JSON nesting of the header and edits (they nest ~6 deep). */
export const MAX_REPLAY_JSON_DEPTH = 32;

/**
 * Documented memory cap for loading one replay (decodeReplay): the file, the inflated payload, and what the
 * sections decode to. Inputs decode to two Int32 per run and a run takes ≥ 2 bytes (≤ 4 × I); keyframes decode
 * to one Float64 per 8 bytes, held twice while the columns are split (≤ 2 × K), plus their small JS objects
 * (≤ MAX_SNAPSHOT_OBJECTS of ≤ ~100 bytes each); a checksum (≥ 9 bytes) decodes to a ~100-byte record
 * (≤ 12 × C); JSON decodes to JS strings and objects (≤ 4 × its bytes, UTF-16 + object overhead); the stage
 * files are copied once. 524 MiB.
 */
export const MAX_REPLAY_LOAD_BYTES =
  SMALL_OBJECT_BYTES * MAX_SNAPSHOT_OBJECTS +
  MAX_REPLAY_FILE_BYTES +
  MAX_REPLAY_PAYLOAD_BYTES +
  4 * MAX_SECTION_BYTES.I! +
  2 * MAX_SECTION_BYTES.K! +
  4 * (MAX_SECTION_BYTES.H! + MAX_SECTION_BYTES.E!) +
  12 * MAX_SECTION_BYTES.C! +
  MAX_SECTION_BYTES.T! +
  MAX_SECTION_BYTES.P! +
  MAX_SECTION_BYTES.Q!;

/** Limits of one verification or playback. Tick counts are primary (deterministic); wall time is a backstop. */
export interface ReplayBudget {
  /** Refuse replays of more car-ticks (ticks × max(1, cars)) than this. Default MAX_REPLAY_CAR_TICKS. */
  maxCarTicks?: number;
  /**
   * Stop a verification after this many seconds of wall time, with a "verification budget exceeded" result.
   * Default: `defaultWallSeconds(carTicks)` = 60 s + 1 ms per car-tick, 4–50 × what a tick costs on the
   * project's machines (20–250 µs): it only catches a simulation far slower per tick than a sane car makes it.
   */
  maxWallSeconds?: number;
  /**
   * Clock for the wall budget (seconds), given by the caller (the CLI passes performance.now() / 1000; tests a fake
   * one): the replay layer reads no wall clock of its own. Without a clock only the tick budget applies.
   */
  nowSeconds?: () => number;
}

/** Wall-time allowance of a verification: setup, and per car-tick (seconds). */
export const VERIFY_WALL_BASE_S = 60;
export const VERIFY_WALL_PER_CAR_TICK_S = 1e-3;
export function defaultWallSeconds(carTicks: number): number {
  return VERIFY_WALL_BASE_S + VERIFY_WALL_PER_CAR_TICK_S * carTicks;
}
/** How often (ticks) a verification looks at the wall clock: every tick (~0.1 µs against a ≥ 20 µs tick), so a car that makes single ticks take seconds is stopped one tick past the limit. */
export const WALL_CHECK_EVERY_TICKS = 1;

/** Car-ticks a replay costs to re-simulate: an empty world still steps every tick. */
export function replayCarTicks(h: { ticks: number; cars: readonly unknown[] }): number {
  return h.ticks * Math.max(1, h.cars.length);
}
