/**
 * Shipped stages (and the player's generated or imported ones, src/app/stage-gen/registry.ts) as raw files in the browser (stage.toml text + both PNGs, byte for byte, + pacenotes.toml, which
 * the stage hash leaves out), for replays: the
 * recorder stores the stage id with the content hash of these bytes, and the viewer / ghost / verifier
 * resolve a replay's stage through `browserStageSource` (the hash is checked by `resolveStage`).
 * Same `import.meta.glob` as src/app/stages.ts (Vite shares the asset URLs).
 */
import type { StageFiles } from '../../../terrain/stage';
import { parseStageToml } from '../../../terrain/stage';
import type { StageSource } from '../../replay/stage-check';
import { withPaceNotes } from '../stage-pacenotes';
import { findUserStageFiles } from '../stage-gen/registry';

const tomls = import.meta.glob('/src/content/stages/*/stage.toml', { query: '?raw', import: 'default' }) as Record<string, () => Promise<string>>;
const assets = import.meta.glob('/src/content/stages/*/*.png', { query: '?url', import: 'default' }) as Record<string, () => Promise<string>>;

const cache = new Map<string, Promise<StageFiles>>();

async function fetchBytes(url: string, what: string): Promise<Uint8Array> {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${what}: HTTP ${r.status} fetching ${url}`);
  return new Uint8Array(await r.arrayBuffer());
}

async function load(id: string): Promise<StageFiles> {
  // the player's stages (generated, imported) first; their replays also embed the files
  const user = await findUserStageFiles(id);
  if (user) return user;
  // stage ids are the `id` inside stage.toml; folders are named after them, but read the toml to be sure
  for (const [path, text] of Object.entries(tomls)) {
    const dir = path.slice(0, path.lastIndexOf('/') + 1);
    const folder = dir.slice(0, -1).slice(dir.slice(0, -1).lastIndexOf('/') + 1);
    if (folder !== id) continue;
    const stageToml = await text();
    const cfg = parseStageToml(stageToml, path);
    const h = assets[`${dir}${cfg.heightmap.file}`];
    const s = assets[`${dir}${cfg.surface_map.file}`];
    if (!h || !s) throw new Error(`${path}: the heightmap / surface map PNG named in stage.toml is missing`);
    const [heightPng, surfacePng] = await Promise.all([fetchBytes(await h(), `${dir}${cfg.heightmap.file}`), fetchBytes(await s(), `${dir}${cfg.surface_map.file}`)]);
    return withPaceNotes(dir, { stageToml, heightPng, surfacePng });
  }
  const have = Object.keys(tomls).map((p) => p.split('/').slice(-2, -1)[0]);
  throw new Error(`no shipped stage "${id}" (have ${have.join(', ')})`);
}

export const browserStageSource: StageSource = {
  files(id: string): Promise<StageFiles> {
    let p = cache.get(id);
    if (!p) {
      p = load(id);
      p.catch(() => cache.delete(id));
      cache.set(id, p);
    }
    return p;
  },
};
