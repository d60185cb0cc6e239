/**
 * Stage packages: one file (a zip, fflate) holding a stage to share: `manifest.json` (package format and version,
 * stage id, name, content hash), `stage.toml`, `height.png`, `surface.png` and `pacenotes.toml`. Importing one is
 * reading an untrusted file: its size is capped before it is read, the zip's declared sizes before anything is
 * inflated (package-zip.ts), then the manifest, the stage itself (terrain's `loadStage`, with its own caps) and the
 * content hash the manifest declares. Any refusal is one ContentError line naming the file; nothing is returned
 * (so nothing is stored) unless every check passed.
 */
import { zipSync, strToU8, type Zippable } from 'fflate';
import { z } from 'zod';
import { MAX_PNG_FILE_BYTES } from '../../../terrain/png-guard';
import { loadStage, PACE_NOTES_FILE, parseStageToml, type Stage, type StageFiles } from '../../../terrain/stage';
import { stagePreview } from './preview';
import { stageHash } from '../../replay/stage-check';
import { MAX_TOML_BYTES } from '../../validate/bounded-parse';
import { ContentError, parseJsonFile, validate } from '../../validate/errors';
import { readBoundedZip } from './package-zip';
import type { StoredStageData } from './stage-db';

/** The package format this game writes and reads. */
export const STAGE_PACKAGE_FORMAT = 'bitrally-stage-package';
export const STAGE_PACKAGE_VERSION = 1;
/** Largest package file read at all (a 15 km stage is ~8 MB), bytes. */
export const MAX_STAGE_PACKAGE_BYTES = 48 * 1024 * 1024;
const MANIFEST = 'manifest.json';
const MAX_MANIFEST_BYTES = 64 * 1024;
const FILES = { stageToml: 'stage.toml', heightPng: 'height.png', surfacePng: 'surface.png' } as const;
/** Zip entries' fixed time stamp (the DOS epoch), so the same stage always exports to the same bytes. */
const ZIP_MTIME = new Date(1980, 0, 1);

const ManifestSchema = z.strictObject({
  format: z.literal(STAGE_PACKAGE_FORMAT),
  version: z.number().int(),
  id: z.string().min(1).max(64),
  name: z.string().min(1).max(200),
  hash: z.string().regex(/^[0-9a-f]{16}$/),
  generator_version: z.number().int().min(0).optional(),
});

/** The package file of a stage (its files as stored; the PNGs are already compressed, so they are stored). */
export function exportStagePackage(stage: Pick<StoredStageData, 'id' | 'name' | 'files' | 'hash' | 'generatorVersion'>): Uint8Array {
  const manifest = { format: STAGE_PACKAGE_FORMAT, version: STAGE_PACKAGE_VERSION, id: stage.id, name: stage.name, hash: stage.hash, ...(stage.generatorVersion !== null ? { generator_version: stage.generatorVersion } : {}) };
  const z0 = { level: 0 as const, mtime: ZIP_MTIME };
  const z9 = { level: 9 as const, mtime: ZIP_MTIME };
  const zip: Zippable = {
    [MANIFEST]: [strToU8(JSON.stringify(manifest, null, 2)), z9],
    [FILES.stageToml]: [strToU8(stage.files.stageToml), z9],
    [FILES.heightPng]: [stage.files.heightPng, z0],
    [FILES.surfacePng]: [stage.files.surfacePng, z0],
  };
  if (stage.files.paceNotesToml) zip[PACE_NOTES_FILE] = [strToU8(stage.files.paceNotesToml), z9];
  return zipSync(zip);
}

/** A suggested file name for the package of a stage. */
export const stagePackageFileName = (id: string): string => `${id}.bitrally-stage.zip`;

const text = (b: Uint8Array | undefined, file: string, entry: string): string => {
  if (!b) throw new ContentError(file, [`${entry}: expected in a stage package, found no such file`]);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    throw new ContentError(file, [`${entry}: expected UTF-8 text, found binary data`]);
  }
};

function readManifest(entries: Map<string, Uint8Array>, file: string): z.output<typeof ManifestSchema> {
  const raw = parseJsonFile(text(entries.get(MANIFEST), file, MANIFEST), `${file}: ${MANIFEST}`);
  const version = (raw as { version?: unknown } | null)?.version;
  if (version !== STAGE_PACKAGE_VERSION && typeof version === 'number') {
    throw new ContentError(`${file}: ${MANIFEST}`, [`version: expected ${STAGE_PACKAGE_VERSION} (the stage package version this game reads), found ${version}`]);
  }
  const m = validate(ManifestSchema, raw, `${file}: ${MANIFEST}`);
  if (m.version !== STAGE_PACKAGE_VERSION) throw new ContentError(`${file}: ${MANIFEST}`, [`version: expected ${STAGE_PACKAGE_VERSION}, found ${m.version}`]);
  return m;
}

/** Checks a package file and returns its stage; throws a ContentError naming `file` (and stores nothing). */
export function importStagePackage(bytes: Uint8Array, file: string): StoredStageData {
  if (bytes.length > MAX_STAGE_PACKAGE_BYTES) {
    throw new ContentError(file, [`file size: expected at most ${MAX_STAGE_PACKAGE_BYTES / 1048576} MiB (a stage package), found ${(bytes.length / 1048576).toFixed(1)} MiB`]);
  }
  const entries = readBoundedZip(bytes, {
    maxEntries: 5,
    maxBytes: { [MANIFEST]: MAX_MANIFEST_BYTES, [FILES.stageToml]: MAX_TOML_BYTES, [FILES.heightPng]: MAX_PNG_FILE_BYTES, [FILES.surfacePng]: MAX_PNG_FILE_BYTES, [PACE_NOTES_FILE]: MAX_TOML_BYTES },
  }, file);
  const m = readManifest(entries, file);
  const files: StageFiles = {
    stageToml: text(entries.get(FILES.stageToml), file, FILES.stageToml),
    heightPng: need(entries, FILES.heightPng, file),
    surfacePng: need(entries, FILES.surfacePng, file),
    ...(entries.has(PACE_NOTES_FILE) ? { paceNotesToml: text(entries.get(PACE_NOTES_FILE), file, PACE_NOTES_FILE) } : {}),
  };
  const hash = stageHash(files);
  if (hash !== m.hash) throw new ContentError(file, [`${MANIFEST}: hash: expected the content hash of the stage files, ${hash}, found ${m.hash} (files changed after export)`]);
  const stage = loadStageInPackage(files, file);
  const generatorVersion = parseStageToml(files.stageToml, FILES.stageToml).generator?.version ?? null;
  if (stage.id !== m.id) throw new ContentError(file, [`${MANIFEST}: id: expected the id in stage.toml, "${stage.id}", found "${m.id}"`]);
  return { id: stage.id, name: stage.name, params: null, generatorVersion, files: { ...files, paceNotesToml: files.paceNotesToml ?? '' }, hash, preview: stagePreview(stage) };
}

function need(entries: Map<string, Uint8Array>, name: string, file: string): Uint8Array {
  const b = entries.get(name);
  if (!b) throw new ContentError(file, [`${name}: expected in a stage package, found no such file`]);
  return b;
}

/** The stage loader's verdict on the package's files (the PNGs must be the package's own height.png / surface.png). */
function loadStageInPackage(files: StageFiles, file: string): Stage {
  try {
    return loadStage(files, FILES.stageToml);
  } catch (e) {
    throw new ContentError(file, [(e as Error).message.split('\n')[0]!]);
  }
}

/** Where an imported stage goes, and which ids it may not take. */
export interface ImportTarget {
  save(stage: StoredStageData): Promise<unknown>;
  isShippedId(id: string): boolean;
}

/**
 * Imports a package file into the player's stages: every check first (`importStagePackage`; a stage may not take a
 * shipped stage's id), then one save. A refused file throws its ContentError and nothing is saved.
 */
export async function importStagePackageInto(bytes: Uint8Array, file: string, target: ImportTarget): Promise<StoredStageData> {
  const stage = importStagePackage(bytes, file);
  if (target.isShippedId(stage.id)) throw new ContentError(file, [`${FILES.stageToml}: id: expected an id no shipped stage has, found "${stage.id}"`]);
  await target.save(stage);
  return stage;
}
