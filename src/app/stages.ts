/**
 * Stage catalogue in the browser: the stage folders under src/content/stages/ are found with
 * import.meta.glob (TOML as raw text, PNGs as asset URLs fetched on demand) and decoded by terrain's
 * `loadStage` (with the folder's pacenotes.toml when it has one). Summaries (name, surface, length, map outline) come from the TOML alone.
 * The player's stages (generated in the game, imported packages: src/app/stage-gen) follow the shipped ones and
 * load from their stored files.
 */
import { parseStageToml, loadStage, type Stage, type StageFiles, type StageToml } from '../../terrain/stage';
import { withPaceNotes } from './stage-pacenotes';
import type { GeneratedStageData } from './stage-gen/generate-api';
import { findUserStageFiles, userStagesForList } from './stage-gen/registry';

const tomls = import.meta.glob('/src/content/stages/*/stage.toml', { query: '?raw', import: 'default' }) as Record<string, () => Promise<string>>;
const assets = import.meta.glob('/src/content/stages/*/*.png', { query: '?url', import: 'default' }) as Record<string, () => Promise<string>>;

export interface StageSummary {
  id: string;
  dir: string;
  name: string;
  surface: string;
  lengthM: number;
  checkpoints: number;
  /** Road control points (x, z) for the map preview. */
  outline: [number, number][];
  config: StageToml;
  /** The stage's files when it is not shipped (generated or imported); shipped stages load from `dir`. */
  files?: StageFiles;
  /** A built-in test track: listed on the Stages screen only with the URL flag `dev=1`. */
  testTrack: boolean;
}

/** Built-in stages that are test tracks (the Stages screen hides them unless `?dev=1`). */
export const TEST_TRACK_IDS: readonly string[] = ['test-short', 'rallycross-bitring'];

/** Whether `id` names a stage shipped with the game (its replays refer to it by id; others embed their files). */
export function isShippedStageId(id: string): boolean {
  return Object.keys(tomls).some((p) => p === `/src/content/stages/${id}/stage.toml`);
}

const dirOf = (p: string): string => p.slice(0, p.lastIndexOf('/') + 1);

function polyLength(pts: [number, number][]): number {
  let l = 0;
  for (let i = 1; i < pts.length; i++) l += Math.hypot(pts[i]![0] - pts[i - 1]![0], pts[i]![1] - pts[i - 1]![1]);
  return l;
}

/** The summary of a stage from its stage.toml (`files` for a stage that is not shipped). */
function summarize(cfg: StageToml, dir: string, files?: StageFiles): StageSummary {
  const pts = cfg.road.points as [number, number][];
  const finish = cfg.road.finish_distance_m ?? polyLength(pts);
  return {
    id: cfg.id,
    dir,
    name: cfg.name,
    surface: cfg.surface,
    lengthM: finish - cfg.road.start_distance_m,
    checkpoints: cfg.checkpoints.length,
    outline: pts,
    config: cfg,
    files,
    testTrack: !files && TEST_TRACK_IDS.includes(cfg.id),
  };
}

/** The summary of a generated (or imported) stage, to start it like a listed one. */
export function generatedStageSummary(g: Pick<GeneratedStageData, 'id' | 'files'>): StageSummary {
  return summarize(parseStageToml(g.files.stageToml, `${g.id}/stage.toml`), `user:${g.id}/`, g.files);
}

/** Shipped stages (sorted by folder), then the player's stages (newest first). */
export async function listStages(): Promise<{ stages: StageSummary[]; problems: string[] }> {
  const stages: StageSummary[] = [];
  const problems: string[] = [];
  for (const [path, load] of Object.entries(tomls).sort()) {
    try {
      stages.push(summarize(parseStageToml(await load(), path), dirOf(path)));
    } catch (e) {
      problems.push((e as Error).message);
    }
  }
  for (const g of await userStagesForList()) {
    try {
      stages.push(generatedStageSummary(g));
    } catch (e) {
      problems.push((e as Error).message);
    }
  }
  return { stages, problems };
}

const cache = new Map<string, Promise<{ stage: Stage; files: StageFiles }>>();

async function fetchBytes(url: string, what: string): Promise<Uint8Array> {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${what}: HTTP ${r.status} fetching ${url}`);
  return new Uint8Array(await r.arrayBuffer());
}

/** The raw files of a shipped stage folder (stage.toml text + both PNGs), by folder path. */
async function stageFilesAt(dir: string, cfg: StageToml): Promise<StageFiles> {
  const tomlPath = `${dir}stage.toml`;
  const text = await tomls[tomlPath]!();
  const hPath = `${dir}${cfg.heightmap.file}`;
  const sPath = `${dir}${cfg.surface_map.file}`;
  const hUrl = assets[hPath];
  const sUrl = assets[sPath];
  if (!hUrl) throw new Error(`${tomlPath}: heightmap.file: expected a PNG beside stage.toml, found no file ${hPath}`);
  if (!sUrl) throw new Error(`${tomlPath}: surface_map.file: expected a PNG beside stage.toml, found no file ${sPath}`);
  const [heightPng, surfacePng] = await Promise.all([fetchBytes(await hUrl(), hPath), fetchBytes(await sUrl(), sPath)]);
  return withPaceNotes(dir, { stageToml: text, heightPng, surfacePng });
}

/** A shipped stage decoded, with its raw files (the replay recorder hashes them). Cached per id. */
export function loadStageWithFiles(s: StageSummary): Promise<{ stage: Stage; files: StageFiles }> {
  let p = cache.get(s.id);
  if (!p) {
    p = (async () => {
      const files = s.files ?? (await stageFilesAt(s.dir, s.config));
      return { stage: loadStage(files, `${s.dir}stage.toml`), files };
    })();
    p.catch(() => cache.delete(s.id));
    cache.set(s.id, p);
  }
  return p;
}

/** Stages by id for `resolveStage` (replay viewer, ghosts): the files of the stage with that id. */
export const browserStageSource = {
  async files(id: string): Promise<StageFiles> {
    const user = await findUserStageFiles(id);
    if (user) return user;
    const { stages } = await listStages();
    const s = stages.find((x) => x.id === id);
    if (!s) throw new Error(`no shipped stage "${id}" (have ${stages.map((x) => x.id).join(', ')})`);
    return (await loadStageWithFiles(s)).files;
  },
};

/** Draws the road outline into a canvas (stage select preview). */
export function drawStageMap(canvas: HTMLCanvasElement, s: StageSummary): void {
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  const w = canvas.width;
  const h = canvas.height;
  let minX = Infinity, maxX = -Infinity, minZ = Infinity, maxZ = -Infinity;
  for (const [x, z] of s.outline) {
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minZ = Math.min(minZ, z);
    maxZ = Math.max(maxZ, z);
  }
  const sc = 0.85 * Math.min(w / Math.max(1, maxX - minX), h / Math.max(1, maxZ - minZ));
  const ox = w / 2 - (sc * (minX + maxX)) / 2;
  const oz = h / 2 - (sc * (minZ + maxZ)) / 2;
  const bg: Record<string, string> = { gravel: '#3b4a2a', tarmac: '#34402f', snow: '#c9d3df', ice: '#b9cadb', grass: '#35502a' };
  ctx.fillStyle = bg[s.surface] ?? '#333';
  ctx.fillRect(0, 0, w, h);
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.strokeStyle = s.surface === 'snow' || s.surface === 'ice' ? '#556' : '#e8d9b0';
  ctx.lineWidth = 4;
  ctx.beginPath();
  s.outline.forEach(([x, z], i) => (i ? ctx.lineTo(ox + sc * x, h - (oz + sc * z)) : ctx.moveTo(ox + sc * x, h - (oz + sc * z))));
  ctx.stroke();
  const [sx, sz] = s.outline[0]!;
  const [fx, fz] = s.outline[s.outline.length - 1]!;
  ctx.fillStyle = '#2c2';
  ctx.beginPath();
  ctx.arc(ox + sc * sx, h - (oz + sc * sz), 6, 0, 7);
  ctx.fill();
  ctx.fillStyle = '#d22';
  ctx.beginPath();
  ctx.arc(ox + sc * fx, h - (oz + sc * fz), 6, 0, 7);
  ctx.fill();
}
