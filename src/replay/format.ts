/**
 * The `.bitrally` replay file (format 5; formats 3 and 4 are read too). docs/replays.md has the full description.
 *
 * Container (little-endian), 24 bytes then the deflated payload:
 *   0  8  magic "BITRALLY"
 *   8  u16 container format version (REPLAY_FORMAT)
 *   10 u16 flags (0)
 *   12 u32 payload length once inflated
 *   16 u32 deflated payload length (= file length − 24)
 *   20 u32 CRC-32 of the deflated payload
 * Payload: sections, each u8 tag, u32 length, bytes:
 *   'H' header (UTF-8 JSON, validated with zod: sim version, dt, integrator, seed, stage id + content hash,
 *       full text of every car file, start poses, result, timeline marks)
 *   'I' quantised inputs (src/replay/inputs.ts)       'E' world edits between ticks, in order (JSON: place = recovery, config = car swap)
 *   'C' state checksums: uvar count, then (uvar tick delta, u32 hi, u32 lo)
 *   'K' keyframes: one snapshot set (src/ecs/snapshot.ts encodeSnapshotSet: the layout once, values column by
 *       column in byte planes, nothing quantised)
 *   'T' / 'P' / 'Q' embedded user stage: stage.toml text, height PNG, surface PNG
 * Imported files are untrusted: every length is bounds-checked, sizes are capped, CRC and schema checked.
 */
import { deflateSync, inflateSync } from 'fflate';
import { z } from 'zod';
import { SnapshotError, type WorldSnapshot } from '../ecs/snapshot';
import { decodeSnapshot, decodeSnapshotSet, encodeSnapshotSet } from './snapshot-codec';
import { ByteReader, ByteWriter, crc32, ReplayFormatError } from './bytes';
import { decodeInputs, type InputStreams } from './inputs';
import { checkKeyframes, withAbsentComponentsEmpty } from './keyframe-check';
import {
  MAX_CAR_FILES,
  MAX_CONFIG_EDITS,
  MAX_REPLAY_CAR_TICKS,
  MAX_REPLAY_CARS,
  MAX_REPLAY_EDITS,
  MAX_REPLAY_FILE_BYTES,
  MAX_REPLAY_JSON_DEPTH,
  MAX_REPLAY_KEYFRAMES,
  MAX_REPLAY_PAYLOAD_BYTES,
  MAX_REPLAY_TICKS,
  MAX_SECTION_BYTES,
  MAX_TOWN_INSTRUCTIONS,
  MAX_TOWN_TRAFFIC,
  MAX_TOWN_TRAFFIC_CARS,
  replayCarTicks,
  SECTION_TAGS,
} from './limits';
import { ContentError, parseJsonFile } from '../validate/errors';

export { ReplayFormatError } from './bytes';
export { MAX_REPLAY_FILE_BYTES, MAX_REPLAY_PAYLOAD_BYTES, MAX_REPLAY_TICKS } from './limits';

export const REPLAY_MAGIC = 'BITRALLY';
/**
 * 5: inputs coded with prediction + an adaptive range coder (src/replay/input-codec.ts) instead of deflated
 * run streams (≈ 3× smaller for pad and AI driving); formats 3 and 4 are still read (their inputs section
 * keeps the run layout). The container's format must equal the header's.
 * 4: a header car may carry `damage`, the damage it started with (a rally stage after the first); format 3 files
 * (no damage: every car starts undamaged) are still read.
 * 3: keyframes hold component state only (snapshot set version 2: the driveline's last solve, the ABS peak slip
 * and the contact memory are component state; no extension section), so the keyframe load check covers all of
 * a keyframe. 2: config edits (mid-run car swaps), inputs stored as value stream + run stream per channel,
 * keyframes as one columnar snapshot set, no keyframe at tick 0 (the player saves its freshly built world
 * instead). Older files are refused with a clear error.
 */
export const REPLAY_FORMAT = 5;
/** Container formats this build reads (a 3 file is a 4 file without start damage; 4 and 5 differ in the inputs section only). */
export const READABLE_REPLAY_FORMATS: readonly number[] = [3, 4, 5];
export const REPLAY_EXTENSION = '.bitrally';
const CONTAINER_BYTES = 24;

const finite = z.number().refine(Number.isFinite, 'a finite number');

export const PoseSchema = z.strictObject({ x: finite, y: finite, z: finite, heading: finite });
export type ReplayPose = z.output<typeof PoseSchema>;

/** Residual crush per end is at most 60 % of a CG→face distance: 5 m bounds every real car. */
const MAX_START_CRUSH_M = 5;
const crushM = finite.pipe(z.number().min(0).max(MAX_START_CRUSH_M));

/** A car's damage at the start of the run (src/systems/sim/collision/damage-state.ts, CarDamage). */
export const CarDamageSchema = z.strictObject({
  crushFrontM: crushM,
  crushRearM: crushM,
  crushLeftM: crushM,
  crushRightM: crushM,
  hits: z.number().int().nonnegative().max(0x7fffffff),
});

export const ReplayCarSchema = z.strictObject({
  /** Car id (file name without .toml). */
  id: z.string().min(1),
  role: z.enum(['player', 'ai']),
  /** Name of the main car file inside `files`. */
  main: z.string().min(1),
  /** Full text of the car file and of every file it extends, by name. */
  files: z.record(z.string(), z.string()),
  pose: PoseSchema,
  /** Damage the car started with (a rally stage after the first); absent = undamaged. */
  damage: CarDamageSchema.optional(),
});
export type ReplayCar = z.output<typeof ReplayCarSchema>;

/**
 * A town run (optional; absent = a stage or flat-ground run): the town seed and traffic size the player and the
 * verifier rebuild the town from (src/replay/town-replay.ts), the ticks before which the instructor acted, and
 * the car files the traffic's vehicle types and promoted cars come from.
 */
export const ReplayTownSchema = z.strictObject({
  seed: z.number().int().nonnegative().max(0xffffffff),
  cars: z.number().int().nonnegative().max(MAX_TOWN_TRAFFIC),
  instructorTicks: z.array(z.number().int().nonnegative().max(MAX_REPLAY_TICKS)).max(MAX_TOWN_INSTRUCTIONS),
  trafficCars: z.array(z.strictObject({ id: z.string().min(1), main: z.string().min(1), files: z.record(z.string(), z.string()) })).min(1).max(MAX_TOWN_TRAFFIC_CARS),
});
export type ReplayTown = z.output<typeof ReplayTownSchema>;

export const ReplayHeaderSchema = z.strictObject({
  format: z.union([z.literal(3), z.literal(4), z.literal(REPLAY_FORMAT)]),
  /** SIM_VERSION of the build that recorded (src/replay/version.ts). */
  simVersion: z.string(),
  name: z.string(),
  /** ISO date of the recording (display only). */
  createdAt: z.string(),
  dt: z.number().positive().max(0.05),
  integrator: z.enum(['euler', 'midpoint', 'rk4']),
  seed: z.number().int().nonnegative().max(0xffffffff),
  gravity_m_s2: finite,
  ticks: z.number().int().nonnegative().max(MAX_REPLAY_TICKS),
  checksumEveryTicks: z.number().int().positive(),
  keyframeEveryTicks: z.number().int().positive(),
  /** A stage (by id + content hash; `embedded` = its files travel in the replay) or flat ground. */
  stage: z.strictObject({ id: z.string().min(1), hash: z.string().regex(/^[0-9a-f]{16}$/), embedded: z.boolean() }).nullable(),
  ground: z.strictObject({ kind: z.literal('flat'), height_m: finite }).nullable(),
  cars: z.array(ReplayCarSchema).max(MAX_REPLAY_CARS),
  /** What the recording game reported when it stopped (the verifier recomputes it). */
  result: z
    .strictObject({
      finished: z.boolean(),
      stageTimeS: finite.nullable(),
      splitsS: z.array(finite),
      penaltyS: finite,
    })
    .nullable(),
  /** The run had Havok props (the game's `props=1`): worlds built to replay it must have them too. */
  props: z.boolean().optional(),
  /**
   * Ticks completed when a car first touched a Havok prop (null: never). Until then the props world evolves
   * on its own, so a seek can rebuild it exactly from a fresh one (src/replay/player.ts).
   */
  propsTouchedTick: z.number().int().nonnegative().nullable().optional(),
  /** Timeline marks (display): checkpoint splits and collisions. */
  marks: z.array(z.strictObject({ tick: z.number().int().nonnegative(), kind: z.string(), label: z.string() })).default([]),
  town: ReplayTownSchema.optional(),
});
export type ReplayHeader = z.output<typeof ReplayHeaderSchema>;

/**
 * A change applied to the world between ticks, in the order the game made it: a recovery puts the car back
 * on the road (`place`); a garage "apply" or a dev live reload swaps the car's configuration (`config`: the
 * full text of the new car file and of every file it extends, like a header car; applied with the game's
 * `reconfigureCar`).
 */
export const ReplayEditSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    /** Applied just before this tick runs (world.tick === tick). */
    tick: z.number().int().nonnegative(),
    kind: z.literal('place'),
    car: z.number().int().nonnegative(),
    pose: PoseSchema,
  }),
  z.strictObject({
    tick: z.number().int().nonnegative(),
    kind: z.literal('config'),
    car: z.number().int().nonnegative(),
    /** Name of the new main car file inside `files`. */
    main: z.string().min(1),
    /** Full text of the new car file and of every file it extends, by name. */
    files: z.record(z.string(), z.string()),
  }),
]);
export type ReplayEdit = z.output<typeof ReplayEditSchema>;
export type ReplayConfigEdit = Extract<ReplayEdit, { kind: 'config' }>;
/** The car files a configuration comes from (a header car or a config edit). */
export type CarFilesSource = Pick<ReplayCar, 'main' | 'files'>;

export interface Checksum {
  /** Ticks completed when the hash was taken (world.tick after runTick). */
  tick: number;
  hash: string;
}

export interface StageFilesData {
  stageToml: string;
  heightPng: Uint8Array;
  surfacePng: Uint8Array;
}

export interface ReplayData {
  header: ReplayHeader;
  inputs: InputStreams;
  edits: ReplayEdit[];
  checksums: Checksum[];
  keyframes: { tick: number; snapshot: WorldSnapshot }[];
  stageFiles: StageFilesData | null;
}

const te = new TextEncoder();
const td = new TextDecoder('utf-8', { fatal: true });

function section(w: ByteWriter, tag: string, bytes: Uint8Array): void {
  w.u8(tag.charCodeAt(0));
  w.u32(bytes.length);
  w.raw(bytes);
}

/** Everything the writer needs; inputs come already encoded (InputStreamEncoder.encode). */
export interface ReplayParts {
  header: ReplayHeader;
  inputsBytes: Uint8Array;
  edits: ReplayEdit[];
  checksums: Checksum[];
  keyframes: { tick: number; snapshot: WorldSnapshot | Uint8Array }[];
  stageFiles: StageFilesData | null;
}

export function encodeReplay(p: ReplayParts): Uint8Array {
  return packReplay(encodeReplayPayload(p));
}

/** The payload (sections) of a replay, before deflate. */
export function encodeReplayPayload(p: ReplayParts): Uint8Array {
  const w = new ByteWriter(4096);
  section(w, 'H', te.encode(JSON.stringify(p.header)));
  section(w, 'I', p.inputsBytes);
  section(w, 'E', te.encode(JSON.stringify(p.edits)));
  const c = new ByteWriter(1024);
  c.uvar(p.checksums.length);
  let prev = 0;
  for (const ck of p.checksums) {
    c.uvar(ck.tick - prev);
    prev = ck.tick;
    c.u32(parseInt(ck.hash.slice(0, 8), 16));
    c.u32(parseInt(ck.hash.slice(8, 16), 16));
  }
  section(w, 'C', c.done());
  section(w, 'K', encodeSnapshotSet(p.keyframes.map((kf) => (kf.snapshot instanceof Uint8Array ? decodeSnapshot(kf.snapshot) : kf.snapshot))));
  if (p.stageFiles) {
    section(w, 'T', te.encode(p.stageFiles.stageToml));
    section(w, 'P', p.stageFiles.heightPng);
    section(w, 'Q', p.stageFiles.surfacePng);
  }
  return w.done();
}

/** The container around a payload: magic, format, lengths, CRC-32, deflated payload (level 9 = smallest). */
export function packReplay(payload: Uint8Array, level: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 = 9, format = REPLAY_FORMAT): Uint8Array {
  const packed = deflateSync(payload, { level });
  const out = new Uint8Array(CONTAINER_BYTES + packed.length);
  out.set(te.encode(REPLAY_MAGIC), 0);
  const dv = new DataView(out.buffer);
  dv.setUint16(8, format, true);
  dv.setUint16(10, 0, true);
  dv.setUint32(12, payload.length, true);
  dv.setUint32(16, packed.length, true);
  dv.setUint32(20, crc32(packed), true);
  out.set(packed, CONTAINER_BYTES);
  return out;
}

const kib = (n: number): string => (n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MiB` : `${(n / 1024).toFixed(1)} KiB`);

function zodMessage(file: string, section: string, err: z.ZodError, raw: unknown): ReplayFormatError {
  const issue = err.issues[0]!;
  let v: unknown = raw;
  for (const k of issue.path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  const found = v === undefined ? 'nothing (missing)' : JSON.stringify(v)?.slice(0, 60) ?? String(v);
  return new ReplayFormatError(file, `${section}.${issue.path.map(String).join('.') || '(root)'}`, issue.message, found);
}

/** The container's format version (call after openContainer accepted the bytes). */
function containerFormat(bytes: Uint8Array): number {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint16(8, true);
}

/** Container checks only (size, magic, version, lengths, CRC) → the inflated payload. */
export function openContainer(bytes: Uint8Array, file: string): Uint8Array {
  if (bytes.length > MAX_REPLAY_FILE_BYTES) {
    throw new ReplayFormatError(file, '(file size)', `at most ${kib(MAX_REPLAY_FILE_BYTES)}`, kib(bytes.length));
  }
  if (bytes.length < CONTAINER_BYTES) {
    throw new ReplayFormatError(file, '(file size)', `at least ${CONTAINER_BYTES} bytes (a .bitrally header)`, `${bytes.length} bytes (truncated or not a replay)`);
  }
  const magic = String.fromCharCode(...bytes.subarray(0, 8));
  if (magic !== REPLAY_MAGIC) {
    throw new ReplayFormatError(file, 'magic', `"${REPLAY_MAGIC}" (a BitRally replay)`, JSON.stringify(magic.replace(/[^\x20-\x7e]/g, '?')));
  }
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = dv.getUint16(8, true);
  if (!READABLE_REPLAY_FORMATS.includes(version)) {
    throw new ReplayFormatError(
      file,
      'format version',
      `${READABLE_REPLAY_FORMATS.join(' or ')} (this build reads replay formats ${READABLE_REPLAY_FORMATS.slice(0, -1).join(', ')} and ${READABLE_REPLAY_FORMATS.at(-1)})`,
      `${version}${version > REPLAY_FORMAT ? ' (recorded by a newer BitRally)' : ' (recorded by an older BitRally, whose files cannot be replayed by this build: re-record the run)'}`,
    );
  }
  const rawLen = dv.getUint32(12, true);
  const packedLen = dv.getUint32(16, true);
  const crc = dv.getUint32(20, true);
  const have = bytes.length - CONTAINER_BYTES;
  if (packedLen > have) throw new ReplayFormatError(file, 'payload length', `${packedLen} bytes of data`, `${have} (file truncated)`);
  if (packedLen < have) throw new ReplayFormatError(file, 'payload length', `${packedLen} bytes of data`, `${have} (extra bytes at the end)`);
  if (rawLen > MAX_REPLAY_PAYLOAD_BYTES) throw new ReplayFormatError(file, 'inflated length', `at most ${kib(MAX_REPLAY_PAYLOAD_BYTES)}`, kib(rawLen));
  const packed = bytes.subarray(CONTAINER_BYTES);
  const actual = crc32(packed);
  if (actual !== crc) {
    throw new ReplayFormatError(file, 'checksum (CRC-32)', `0x${crc.toString(16).padStart(8, '0')}`, `0x${actual.toString(16).padStart(8, '0')} (file corrupted)`);
  }
  let payload: Uint8Array;
  try {
    payload = inflateSync(packed, { out: new Uint8Array(rawLen + 1) });
  } catch (e) {
    throw new ReplayFormatError(file, 'payload', 'deflate data', `an error: ${(e as Error).message}`);
  }
  if (payload.length !== rawLen) throw new ReplayFormatError(file, 'inflated length', `${rawLen} bytes`, `${payload.length === rawLen + 1 ? 'more' : payload.length}`);
  return payload;
}

/** Splits the payload into its sections: known tags only, each once, each within its cap, before any is read. */
function splitSections(payload: Uint8Array, file: string): Map<string, Uint8Array> {
  const r = new ByteReader(payload, file, 'payload');
  const sections = new Map<string, Uint8Array>();
  while (r.left > 0) {
    const code = r.u8('section tag');
    const tag = String.fromCharCode(code);
    const cap = MAX_SECTION_BYTES[tag];
    if (cap === undefined) throw new ReplayFormatError(file, 'section tag', `one of ${SECTION_TAGS.join(' ')}`, `0x${code.toString(16).padStart(2, '0')}`);
    const len = r.u32(`section ${tag} length`);
    if (len > cap) throw new ReplayFormatError(file, `section ${tag} length`, `at most ${kib(cap)}`, kib(len));
    if (sections.has(tag)) throw new ReplayFormatError(file, `section ${tag}`, 'each section once', 'a duplicate');
    sections.set(tag, r.take(len, `section ${tag}`));
  }
  return sections;
}

/** UTF-8 JSON of a section, size- and depth-capped before parsing (parseJsonFile). */
function sectionJson(s: Uint8Array, file: string, what: string): unknown {
  let text: string;
  try {
    text = td.decode(s);
  } catch {
    throw new ReplayFormatError(file, what, 'UTF-8 JSON', 'invalid UTF-8');
  }
  try {
    return parseJsonFile(text, what, { maxBytes: s.length, maxDepth: MAX_REPLAY_JSON_DEPTH });
  } catch (e) {
    // the loader's issue reads "<where>: expected …, found <what>": keep where and what
    if (e instanceof ContentError) throw new ReplayFormatError(file, what, `UTF-8 JSON nested at most ${MAX_REPLAY_JSON_DEPTH} deep`, e.issues[0]!.replace(/: expected .*?, found /, ': ').slice(0, 120));
    throw e;
  }
}

/** Embedded car files (a header car or a config edit): at most MAX_CAR_FILES, the main one among them. */
function checkCarFiles(src: CarFilesSource, field: string, file: string): void {
  const names = Object.keys(src.files);
  if (names.length > MAX_CAR_FILES) throw new ReplayFormatError(file, `${field}.files`, `at most ${MAX_CAR_FILES} car files`, String(names.length));
  if (src.files[src.main] === undefined) throw new ReplayFormatError(file, `${field}.files`, `the main file "${src.main}"`, `only ${JSON.stringify(names).slice(0, 60)}`);
}

function decodeHeader(s: Uint8Array, file: string): ReplayHeader {
  const raw = sectionJson(s, file, 'header');
  if (raw && typeof raw === 'object' && 'format' in raw && !READABLE_REPLAY_FORMATS.includes(raw.format as number)) {
    throw new ReplayFormatError(file, 'header.format', READABLE_REPLAY_FORMATS.join(' or '), JSON.stringify(raw.format));
  }
  const hp = ReplayHeaderSchema.safeParse(raw);
  if (!hp.success) throw zodMessage(file, 'header', hp.error, raw);
  const h = hp.data;
  // the declared expansion: every car is re-simulated every tick (verification, playback)
  if (replayCarTicks(h) > MAX_REPLAY_CAR_TICKS) {
    throw new ReplayFormatError(file, 'header.ticks', `at most ${MAX_REPLAY_CAR_TICKS} car-ticks (ticks × cars)`, `${h.ticks} ticks × ${h.cars.length} cars = ${replayCarTicks(h)}`);
  }
  h.cars.forEach((c, i) => checkCarFiles(c, `header.cars.${i}`, file));
  h.town?.trafficCars.forEach((c, i) => checkCarFiles(c, `header.town.trafficCars.${i}`, file));
  if (h.town && h.stage) throw new ReplayFormatError(file, 'header.town', 'no stage in a town run (header.stage null)', `stage ${h.stage.id}`);
  return h;
}

function decodeEdits(s: Uint8Array, header: ReplayHeader, file: string): ReplayEdit[] {
  const raw = sectionJson(s, file, 'edits');
  if (Array.isArray(raw) && raw.length > MAX_REPLAY_EDITS) throw new ReplayFormatError(file, 'edits', `at most ${MAX_REPLAY_EDITS} edits`, String(raw.length));
  const ep = z.array(ReplayEditSchema).safeParse(raw);
  if (!ep.success) throw zodMessage(file, 'edits', ep.error, raw);
  let configs = 0;
  for (const [i, e] of ep.data.entries()) {
    if (e.car >= header.cars.length) throw new ReplayFormatError(file, `edits.${i}.car`, `a car index below ${header.cars.length}`, String(e.car));
    if (e.tick > header.ticks) throw new ReplayFormatError(file, `edits.${i}.tick`, `a tick ≤ ${header.ticks}`, String(e.tick));
    const prev = ep.data[i - 1];
    if (prev && e.tick < prev.tick) throw new ReplayFormatError(file, `edits.${i}.tick`, `≥ ${prev.tick} (edits in the order they were made)`, String(e.tick));
    if (e.kind !== 'config') continue;
    if (++configs > MAX_CONFIG_EDITS) throw new ReplayFormatError(file, `edits.${i}`, `at most ${MAX_CONFIG_EDITS} car swaps (config edits)`, 'more');
    checkCarFiles(e, `edits.${i}`, file);
  }
  return ep.data;
}

function decodeChecksums(s: Uint8Array, header: ReplayHeader, file: string): Checksum[] {
  const cr = new ByteReader(s, file, 'checksums');
  const nck = cr.uvar('count');
  // each takes ≥ 9 bytes and ticks strictly increase: bounded by the bytes and by header.ticks + 1
  if (nck * 9 > cr.left || nck > header.ticks + 1) throw new ReplayFormatError(file, 'checksums.count', `at most ${Math.min(Math.floor(cr.left / 9), header.ticks + 1)}`, String(nck));
  const checksums: Checksum[] = [];
  let tick = 0;
  for (let i = 0; i < nck; i++) {
    const delta = cr.uvar(`[${i}].tick`);
    if (i > 0 && delta === 0) throw new ReplayFormatError(file, `checksums[${i}].tick`, `> ${tick} (one checksum per tick, ascending)`, String(tick));
    tick += delta;
    if (tick > header.ticks) throw new ReplayFormatError(file, `checksums[${i}].tick`, `≤ ${header.ticks}`, String(tick));
    const hi = cr.u32(`[${i}].hash`);
    const lo = cr.u32(`[${i}].hash`);
    checksums.push({ tick, hash: hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0') });
  }
  if (cr.left !== 0) throw new ReplayFormatError(file, 'checksums', 'no bytes after the last checksum', `${cr.left} more`);
  return checksums;
}

function decodeKeyframes(s: Uint8Array, header: ReplayHeader, checksums: Checksum[], file: string): ReplayData['keyframes'] {
  let snaps: WorldSnapshot[];
  try {
    // a keyframe per keyframeEveryTicks at most (the recorder's spacing), and MAX_REPLAY_KEYFRAMES in all
    const maxSnapshots = Math.min(MAX_REPLAY_KEYFRAMES, Math.floor(header.ticks / header.keyframeEveryTicks));
    snaps = decodeSnapshotSet(s, { maxSnapshots });
  } catch (e) {
    if (e instanceof SnapshotError) throw new ReplayFormatError(file, 'keyframes', 'valid state snapshots', e.message);
    throw e;
  }
  const keyframes: ReplayData['keyframes'] = [];
  for (const [i, snapshot] of snaps.entries()) {
    const t = snapshot.tick;
    const prev = keyframes[i - 1]?.tick ?? -1;
    if (!Number.isInteger(t) || t <= prev || t > header.ticks) throw new ReplayFormatError(file, `keyframes[${i}].tick`, `an integer in (${prev}, ${header.ticks}]`, String(t));
    keyframes.push({ tick: t, snapshot: withAbsentComponentsEmpty(snapshot) });
  }
  checkKeyframes(keyframes, checksums, header.dt, file);
  return keyframes;
}

function decodeStageFiles(need: (tag: string, what: string) => Uint8Array, file: string): StageFilesData {
  let toml: string;
  try {
    toml = td.decode(need('T', 'embedded stage.toml'));
  } catch (e) {
    if (e instanceof ReplayFormatError) throw e;
    throw new ReplayFormatError(file, 'section T', 'UTF-8 stage.toml text', 'invalid UTF-8');
  }
  return { stageToml: toml, heightPng: need('P', 'embedded height PNG').slice(), surfacePng: need('Q', 'embedded surface PNG').slice() };
}

/**
 * Decodes an untrusted replay file. Every size, count and declared expansion is checked against the header and
 * the caps of src/replay/limits.ts before it is allocated, JSON is depth-capped before parsing, and every
 * keyframe is checked against the checksum recorded at its tick. Errors: ReplayFormatError naming the field.
 */
export function decodeReplay(bytes: Uint8Array, file = 'replay'): ReplayData {
  const sections = splitSections(openContainer(bytes, file), file);
  const need = (tag: string, what: string): Uint8Array => {
    const s = sections.get(tag);
    if (!s) throw new ReplayFormatError(file, `section ${tag}`, `the ${what} section`, 'none');
    return s;
  };
  const header = decodeHeader(need('H', 'header'), file);
  const container = containerFormat(bytes);
  if (header.format !== container) throw new ReplayFormatError(file, 'header.format', `${container} (the container's format version)`, String(header.format));
  const edits = decodeEdits(need('E', 'edits'), header, file);
  const inputs = decodeInputs(need('I', 'inputs'), file, { cars: header.cars.length, ticks: header.ticks, format: header.format });
  const checksums = decodeChecksums(need('C', 'checksums'), header, file);
  const keyframes = decodeKeyframes(need('K', 'keyframes'), header, checksums, file);
  const stageFiles = header.stage?.embedded ? decodeStageFiles(need, file) : null;
  return { header, inputs, edits, checksums, keyframes, stageFiles };
}

/**
 * The mid-run car swaps (garage "apply", live reload): tick, time, car, file, and the lines of the main file
 * that differ from the configuration in force before (up to 6).
 */
export function describeSwaps(d: ReplayData): { tick: number; timeS: number; car: number; file: string; changed: string[] }[] {
  const current: CarFilesSource[] = d.header.cars.map((c) => c);
  const out: { tick: number; timeS: number; car: number; file: string; changed: string[] }[] = [];
  for (const e of d.edits) {
    if (e.kind !== 'config') continue;
    const before = current[e.car]!;
    const old = new Set((before.files[before.main] ?? '').split('\n').map((l) => l.trim()));
    const changed = (e.files[e.main] ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#') && !old.has(l));
    out.push({ tick: e.tick, timeS: e.tick * d.header.dt, car: e.car, file: e.main, changed: changed.length > 6 ? [...changed.slice(0, 6), `… ${changed.length - 6} more`] : changed });
    current[e.car] = e;
  }
  return out;
}

/** Small summary for `replay info` and the library list. */
export function describeReplay(d: ReplayData, fileBytes?: number): Record<string, unknown> {
  const h = d.header;
  const seconds = h.ticks * h.dt;
  return {
    name: h.name,
    format: h.format,
    simVersion: h.simVersion,
    createdAt: h.createdAt,
    stage: h.town ? `town seed ${h.town.seed}, ${h.town.cars} traffic cars, ${h.town.instructorTicks.length} instructor actions` : h.stage ? `${h.stage.id} (hash ${h.stage.hash}${h.stage.embedded ? ', embedded' : ''})` : `flat ground at ${h.ground?.height_m ?? 0} m`,
    cars: h.cars.map((c) => `${c.id} (${c.role}, ${Object.keys(c.files).length} file${Object.keys(c.files).length === 1 ? '' : 's'} embedded)`),
    tickRateHz: Math.round(1 / h.dt),
    integrator: h.integrator,
    seed: h.seed,
    ticks: h.ticks,
    durationS: seconds,
    checksums: d.checksums.length,
    checksumEveryTicks: h.checksumEveryTicks,
    keyframes: d.keyframes.length,
    keyframeEverySeconds: h.keyframeEveryTicks * h.dt,
    edits: d.edits.length,
    recoveries: d.edits.filter((e) => e.kind === 'place').length,
    carSwaps: describeSwaps(d),
    result: h.result,
    ...(fileBytes !== undefined ? { fileBytes, bytesPerMinute: seconds > 0 ? Math.round((fileBytes * 60) / seconds) : null } : {}),
  };
}
