/**
 * The game's terrain LOD (issue 18): the RTIN (`RtinTerrain`) against the geomipmap (`GeoMipmap` with
 * DRAW_BLOCK_SIZE blocks), build and per-frame selection on forest-gravel's chase views
 * at τ = 1 and 2 px, horizon occlusion on. The two run in interleaved blocks in one process and are timed in
 * CPU time (the machine is shared), so only their ratio is meant to be compared.
 */
import { join } from 'node:path';
import { cpuUsage } from 'node:process';
import type { BenchResult, BenchSuite } from '../types';
import { DRAW_BLOCK_SIZE, GeoMipmap, RtinTerrain, lookAtLodCamera, type LodCamera, type Stage } from '../../terrain/index';
import { loadStageFromDir } from '../../terrain/node';

const STAGE_DIR = join(process.cwd(), 'src/content/stages/forest-gravel');
/** Interleaved A/B blocks (half in --quick). */
const BLOCKS = 4;

/** The game's chase view of a car on the road at `d`, 1080 px tall, far plane 1200 m (the high preset). */
function chaseCamera(stage: Stage, d: number): LodCamera {
  const car = stage.road.poseAt(d);
  const fx = Math.sin(car.heading), fz = Math.cos(car.heading);
  return lookAtLodCamera([car.x - 6 * fx, car.y + 2.5, car.z - 6 * fz], [car.x + 10 * fx, car.y + 0.5, car.z + 10 * fz], { fovY: 1, aspect: 16 / 9, viewportHeightPx: 1080, near: 0.3, far: 1200 });
}

/** CPU milliseconds of `fn`. */
function cpuMs(fn: () => void): number {
  const t0 = cpuUsage();
  fn();
  const d = cpuUsage(t0);
  return (d.user + d.system) / 1000;
}

export const suite: BenchSuite = {
  name: 'terrain-lod',
  async run({ quick }) {
    const out: BenchResult[] = [];
    const stage = loadStageFromDir(STAGE_DIR);
    const frames = quick ? 20 : 100;
    const cams = Array.from({ length: frames }, (_, k) => chaseCamera(stage, stage.start.distanceM + ((stage.lengthM - 1) * k) / frames));
    let rtin: RtinTerrain | null = null, gm: GeoMipmap | null = null;
    const build = { rtin: 0, gm: 0 }, select = { rtin: [0, 0], gm: [0, 0] }, tris = { rtin: [0, 0], gm: [0, 0] };
    const blocks = quick ? BLOCKS / 2 : BLOCKS;
    for (let b = 0; b < blocks; b++) {
      build.rtin += cpuMs(() => { rtin = new RtinTerrain(stage.bspline); });
      build.gm += cpuMs(() => { gm = new GeoMipmap(stage.bspline, { blockSize: DRAW_BLOCK_SIZE }); });
      [1, 2].forEach((tau, t) => {
        select.rtin[t]! += cpuMs(() => { for (const c of cams) tris.rtin[t]! += rtin!.select(c, tau).triangles; });
        select.gm[t]! += cpuMs(() => {
          for (const c of cams) for (const s of gm!.select(c, tau)) tris.gm[t]! += gm!.triangleCount(s.level, s.edgeMask);
        });
      });
    }
    const res = (name: string, value: number, unit: string, note: string): void => { out.push({ suite: 'terrain-lod', name, value, unit, note, lowerIsBetter: true }); };
    res('rtin build 1025²', build.rtin / blocks, 'ms', `geomipmap (9-vertex blocks) in the same run: ${(build.gm / blocks).toFixed(0)} ms (CPU time)`);
    [1, 2].forEach((tau, t) => {
      const n = frames * blocks;
      res(`rtin select @${tau}px`, (select.rtin[t]! / n) * 1000, 'µs/frame', `geomipmap in the same run: ${((select.gm[t]! / n) * 1000).toFixed(0)} µs/frame (CPU time)`);
      res(`rtin triangles @${tau}px`, tris.rtin[t]! / n, 'triangles/frame', `geomipmap: ${(tris.gm[t]! / n).toFixed(0)}; full resolution ${rtin!.fullResTriangles}`);
    });
    return out;
  },
};
