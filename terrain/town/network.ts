/**
 * The street network of a town: a grid of street lines (rows along X, columns along Z) whose crossings are
 * the nodes; blocks between them. Interior street pieces are removed at random (never leaving a node with
 * fewer than 3 arms, never disconnecting the network), which makes T junctions (3 arms) and larger blocks.
 * The outer ring is kept whole: its corners are 2-arm bends. Each street line has 1 or 2 lanes each way.
 */
import type { Rng } from '../prng';

/** Arm / travel directions: 0 = +X, 1 = +Z, 2 = −X, 3 = −Z. Heading ψ of each (forward = (sin ψ, cos ψ)). */
export const DIR_PSI = [Math.PI / 2, 0, -Math.PI / 2, Math.PI] as const;
export const DIR_X = [1, 0, -1, 0] as const;
export const DIR_Z = [0, 1, 0, -1] as const;

export interface TownNode {
  id: number;
  /** Grid column and row. */
  i: number;
  j: number;
  x: number;
  z: number;
  /** Edge id of the arm in each direction, −1 = none. */
  arms: [number, number, number, number];
}

export interface TownEdge {
  id: number;
  /** From node `a` to node `b` along +X (axis 0) or +Z (axis 1). */
  a: number;
  b: number;
  axis: 0 | 1;
  /** Lanes in each direction. */
  lanes: number;
}

export interface NetworkOptions {
  /** Blocks along X and Z. */
  blocksX: number;
  blocksZ: number;
  /** Block pitch range (node to node), m. */
  minPitchM: number;
  maxPitchM: number;
  /** Share of interior street pieces removed (T junctions). */
  removeFraction: number;
  /** Share of street lines with two lanes each way. */
  twoLaneFraction: number;
}

export interface Network {
  nodes: TownNode[];
  edges: TownEdge[];
  /** Lanes each way of each column line (index i) and row line (index j). */
  colLanes: number[];
  rowLanes: number[];
}

function cumulative(n: number, rng: Rng, lo: number, hi: number): number[] {
  const out = [0];
  for (let k = 0; k < n; k++) out.push(out[k]! + Math.round(lo + (hi - lo) * rng()));
  const mid = out[n]! / 2;
  return out.map((v) => v - mid);
}

/** Builds the full grid (every node 4 arms inside, 3 on the border, 2 at the corners). */
function buildGrid(opts: NetworkOptions, rng: Rng): Network {
  const xs = cumulative(opts.blocksX, rng, opts.minPitchM, opts.maxPitchM);
  const zs = cumulative(opts.blocksZ, rng, opts.minPitchM, opts.maxPitchM);
  const colLanes = xs.map((_, i) => (i > 0 && i < xs.length - 1 && rng() < opts.twoLaneFraction ? 2 : 1));
  const rowLanes = zs.map((_, j) => (j > 0 && j < zs.length - 1 && rng() < opts.twoLaneFraction ? 2 : 1));
  const nodes: TownNode[] = [];
  const id = (i: number, j: number): number => j * xs.length + i;
  for (let j = 0; j < zs.length; j++) for (let i = 0; i < xs.length; i++) nodes.push({ id: id(i, j), i, j, x: xs[i]!, z: zs[j]!, arms: [-1, -1, -1, -1] });
  const edges: TownEdge[] = [];
  const link = (a: number, b: number, axis: 0 | 1, lanes: number): void => {
    const e = edges.length;
    edges.push({ id: e, a, b, axis, lanes });
    nodes[a]!.arms[axis === 0 ? 0 : 1] = e;
    nodes[b]!.arms[axis === 0 ? 2 : 3] = e;
  };
  for (let j = 0; j < zs.length; j++) for (let i = 0; i + 1 < xs.length; i++) link(id(i, j), id(i + 1, j), 0, rowLanes[j]!);
  for (let i = 0; i < xs.length; i++) for (let j = 0; j + 1 < zs.length; j++) link(id(i, j), id(i, j + 1), 1, colLanes[i]!);
  return { nodes, edges, colLanes, rowLanes };
}

export const armCount = (n: TownNode): number => n.arms.reduce((k, e) => k + (e >= 0 ? 1 : 0), 0);

/** True when every node with an arm is reachable from node 0 over the edges still present. */
function connected(net: Network, removed: Set<number>): boolean {
  const seen = new Uint8Array(net.nodes.length);
  const stack = [0];
  seen[0] = 1;
  while (stack.length > 0) {
    const n = net.nodes[stack.pop()!]!;
    for (const e of n.arms) {
      if (e < 0 || removed.has(e)) continue;
      const ed = net.edges[e]!;
      const o = ed.a === n.id ? ed.b : ed.a;
      if (!seen[o]) {
        seen[o] = 1;
        stack.push(o);
      }
    }
  }
  return seen.every((v) => v === 1);
}

/** Removes interior street pieces at random (both end nodes keep ≥ 3 arms, the network stays connected). */
function removeStreets(net: Network, opts: NetworkOptions, rng: Rng): Network {
  const removed = new Set<number>();
  const arms = net.nodes.map(armCount);
  const target = Math.round(opts.removeFraction * net.edges.length);
  for (const e of net.edges) {
    if (removed.size >= target) break;
    if (rng() >= opts.removeFraction * 2) continue;
    if (arms[e.a]! < 4 || arms[e.b]! < 4) continue;
    removed.add(e.id);
    if (!connected(net, removed)) {
      removed.delete(e.id);
      continue;
    }
    arms[e.a]!--;
    arms[e.b]!--;
  }
  // renumber the edges that stay
  const keep = net.edges.filter((e) => !removed.has(e.id));
  const nodes = net.nodes.map((n) => ({ ...n, arms: [-1, -1, -1, -1] as [number, number, number, number] }));
  const edges = keep.map((e, k) => ({ ...e, id: k }));
  for (const e of edges) {
    nodes[e.a]!.arms[e.axis === 0 ? 0 : 1] = e.id;
    nodes[e.b]!.arms[e.axis === 0 ? 2 : 3] = e.id;
  }
  return { nodes, edges, colLanes: net.colLanes, rowLanes: net.rowLanes };
}

/** The street network: a grid with some interior pieces removed. */
export function generateNetwork(opts: NetworkOptions, rng: Rng): Network {
  return removeStreets(buildGrid(opts, rng), opts, rng);
}

/** Lanes each way of the street line crossing node `n` along `axis` (0: the row through it, 1: its column). */
export function lineLanes(net: Network, n: TownNode, axis: 0 | 1): number {
  return axis === 0 ? net.rowLanes[n.j]! : net.colLanes[n.i]!;
}
