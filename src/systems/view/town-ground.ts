/**
 * The town's ground as the terrain view draws it (the terrain pipeline: RTIN + splat maps): the
 * town's B-spline ground with a surface map that is tarmac on the streets and grass in the blocks (view only;
 * the simulation's town ground is tarmac everywhere).
 */
import { SurfaceMap, surfaceCode } from '../../../terrain/surface';
import { LANE_WIDTH_M, PAVEMENT_WIDTH_M, type Town } from '../../../terrain/town/index';
import type { TerrainSource } from './terrain-textures';

/** Surface map cell, m (pavements are 3 m: a cell a little finer keeps the street edge straight). */
const TOWN_SURFACE_CELL_M = 1;

/** Marks the cells of every street and pavement band of the town's network with `code`. */
function paintStreets(town: Town, grid: { w: number; d: number; x0: number; z0: number; codes: Uint8Array }, code: number): void {
  const net = town.network;
  const cell = (v: number, v0: number, n: number): number => Math.max(0, Math.min(n - 1, Math.round((v - v0) / TOWN_SURFACE_CELL_M)));
  for (const e of net.edges) {
    const a = net.nodes[e.a]!, b = net.nodes[e.b]!;
    const hw = e.lanes * LANE_WIDTH_M + PAVEMENT_WIDTH_M;
    const [xa, xb] = e.axis === 0 ? [a.x - hw, b.x + hw] : [a.x - hw, a.x + hw];
    const [za, zb] = e.axis === 0 ? [a.z - hw, a.z + hw] : [a.z - hw, b.z + hw];
    for (let j = cell(za, grid.z0, grid.d); j <= cell(zb, grid.z0, grid.d); j++)
      for (let i = cell(xa, grid.x0, grid.w); i <= cell(xb, grid.x0, grid.w); i++) grid.codes[j * grid.w + i] = code;
  }
}

/** The terrain view's source for a town (heightfield, B-spline, street surface map). */
export function townTerrainSource(town: Town): TerrainSource {
  const hf = town.ground.heightfield;
  const extentX = (hf.width - 1) * hf.cellSize, extentZ = (hf.depth - 1) * hf.cellSize;
  const w = Math.floor(extentX / TOWN_SURFACE_CELL_M) + 1, d = Math.floor(extentZ / TOWN_SURFACE_CELL_M) + 1;
  const codes = new Uint8Array(w * d).fill(surfaceCode('grass'));
  paintStreets(town, { w, d, x0: hf.origin.x, z0: hf.origin.z, codes }, surfaceCode('tarmac'));
  return { bspline: town.ground, heightfield: hf, surfaceMap: new SurfaceMap(w, d, TOWN_SURFACE_CELL_M, hf.origin, codes), snowCap: false };
}
