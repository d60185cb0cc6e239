/**
 * Collision scenery of a town: pavements along both sides of every street piece and building footprints in
 * the blocks, as axis-aligned boxes (centre, half extents, height), plus light and sign poles as points. Data
 * only: the collision and view layers turn them into colliders and meshes.
 */
import type { Rng } from '../prng';
import { LANE_WIDTH_M } from './lanes';
import type { Network } from './network';
import type { ArmControl } from './control';

export const PAVEMENT_WIDTH_M = 3;
/** Gap between a pavement and a building, m. */
const BUILDING_SETBACK_M = 1;

export interface SceneryBox {
  x: number;
  z: number;
  halfX: number;
  halfZ: number;
  heightM: number;
}

export interface Pole {
  x: number;
  z: number;
  kind: 'light' | 'stop' | 'giveway';
}

export interface TownScenery {
  pavements: SceneryBox[];
  buildings: SceneryBox[];
  poles: Pole[];
}

const PAVEMENT_KERB_M = 0.15;

function pavements(net: Network): SceneryBox[] {
  const out: SceneryBox[] = [];
  for (const e of net.edges) {
    const a = net.nodes[e.a]!, b = net.nodes[e.b]!;
    const hw = e.lanes * LANE_WIDTH_M + PAVEMENT_WIDTH_M / 2;
    const cx = (a.x + b.x) / 2, cz = (a.z + b.z) / 2;
    const half = (Math.abs(b.x - a.x) + Math.abs(b.z - a.z)) / 2;
    for (const side of [-1, 1]) {
      if (e.axis === 0) out.push({ x: cx, z: cz + side * hw, halfX: half, halfZ: PAVEMENT_WIDTH_M / 2, heightM: PAVEMENT_KERB_M });
      else out.push({ x: cx + side * hw, z: cz, halfX: PAVEMENT_WIDTH_M / 2, halfZ: half, heightM: PAVEMENT_KERB_M });
    }
  }
  return out;
}

/** Buildings: each block cell split into 2–4 lots along its longer side, set back from the pavements. */
function buildings(net: Network, rng: Rng): SceneryBox[] {
  const out: SceneryBox[] = [];
  const nx = net.colLanes.length, nz = net.rowLanes.length;
  const node = (i: number, j: number) => net.nodes[j * nx + i]!;
  for (let j = 0; j + 1 < nz; j++)
    for (let i = 0; i + 1 < nx; i++) {
      const inset = (lanes: number): number => lanes * LANE_WIDTH_M + PAVEMENT_WIDTH_M + BUILDING_SETBACK_M;
      const x0 = node(i, j).x + inset(net.colLanes[i]!), x1 = node(i + 1, j).x - inset(net.colLanes[i + 1]!);
      const z0 = node(i, j).z + inset(net.rowLanes[j]!), z1 = node(i, j + 1).z - inset(net.rowLanes[j + 1]!);
      if (x1 - x0 < 8 || z1 - z0 < 8) continue;
      const alongX = x1 - x0 >= z1 - z0;
      const lots = 2 + Math.floor(3 * rng());
      const len = (alongX ? x1 - x0 : z1 - z0) / lots;
      for (let k = 0; k < lots; k++) {
        const gap = 1;
        const lo = (alongX ? x0 : z0) + k * len + gap / 2;
        const c = lo + (len - gap) / 2;
        const heightM = 6 + Math.round(18 * rng());
        if (alongX) out.push({ x: c, z: (z0 + z1) / 2, halfX: (len - gap) / 2, halfZ: (z1 - z0) / 2, heightM });
        else out.push({ x: (x0 + x1) / 2, z: c, halfX: (x1 - x0) / 2, halfZ: (len - gap) / 2, heightM });
      }
    }
  return out;
}

/** A pole at the kerb on the right of each controlled entry, just before the stop line. */
function poles(net: Network, arms: ArmControl[][]): Pole[] {
  const out: Pole[] = [];
  const dx = [1, 0, -1, 0], dz = [0, 1, 0, -1];
  for (const n of net.nodes)
    for (let d = 0; d < 4; d++) {
      const c = arms[n.id]![d]!;
      if (c === 'none' || n.arms[d]! < 0) continue;
      const e = net.edges[n.arms[d]!]!;
      const along = (e.axis === 0 ? net.colLanes[n.i]! : net.rowLanes[n.j]!) * LANE_WIDTH_M + PAVEMENT_WIDTH_M;
      const side = e.lanes * LANE_WIDTH_M + PAVEMENT_WIDTH_M / 2;
      // incoming traffic on arm d travels along f = −(dx, dz); its right (−f_z, f_x) is (dz, −dx)
      out.push({ x: n.x + dx[d]! * along + dz[d]! * side, z: n.z + dz[d]! * along - dx[d]! * side, kind: c });
    }
  return out;
}

export function generateScenery(net: Network, arms: ArmControl[][], rng: Rng): TownScenery {
  return { pavements: pavements(net), buildings: buildings(net, rng), poles: poles(net, arms) };
}
