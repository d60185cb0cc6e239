/**
 * Lane centre paths of a town (Félez §2, Figure 2): one straight path per lane of each street piece, from the
 * stop line at one node to the stop line at the next, and at each node one connector path per allowed
 * movement (a segment straight on, lead-in + arc + lead-out for a turn), joining an entry lane's end to an
 * exit lane's start. Traffic keeps to the right: lane 0 is the kerb lane. Right turns leave from the kerb lane,
 * left turns from the lane next to the centre line, straight on from every lane.
 */
import { DIR_PSI, DIR_X, DIR_Z, lineLanes, type Network, type TownNode } from './network';
import { evalPath, pathLength, pathPoint, segmentPath, turnPath, type PathPrim } from './geometry';

/** Lane width, m. */
export const LANE_WIDTH_M = 3.5;
/** Distance from the edge of the crossing carriageway back to the stop line (room for a zebra crossing), m. */
export const STOP_LINE_SETBACK_M = 4;
/**
 * Two connectors of one node conflict when their centre lines come closer than this anywhere: a van's width
 * (2 m) plus the swing of a 4–5.5 m body whose heading lags its path by up to 0.35 rad in a tight turn (the
 * look-ahead steering cuts corners), m. Straight movements side by side from one arm never conflict.
 */
export const CONFLICT_CLEARANCE_M = 4;
/** Sampling step of the conflict test, m. */
const CONFLICT_SAMPLE_M = 0.5;

export type Turn = 'straight' | 'left' | 'right';

export interface TownPath {
  id: number;
  kind: 'lane' | 'connector';
  prims: PathPrim[];
  length: number;
  /** Lane: street piece, travel direction (0..3), lane index (0 = kerb), start and end node. */
  edge: number;
  dir: number;
  lane: number;
  fromNode: number;
  /** Lane: the node it runs into; connector: its node. */
  node: number;
  /** Lane: arm of `node` it arrives on; connector: arm of the entry lane. */
  arm: number;
  /** Paths that may follow this one (lane → its connectors, connector → its exit lane). */
  next: number[];
  /** Connector: entry lane, movement, and the other connectors of the node it must not share the node with. */
  from: number;
  turn: Turn;
  conflicts: number[];
  /** Smallest turn radius along the path, m (Infinity for straight). */
  minRadiusM: number;
  /** Lane: the same-direction lane on its left / right (−1 = none). */
  leftLane: number;
  rightLane: number;
}

/** Right-hand offset of lane k of n (k = 0 kerb side), from the street centre line, m. */
export const laneOffsetM = (n: number, k: number): number => (n - k - 0.5) * LANE_WIDTH_M;

/** Distance from node centre to the stop line on an arm along `axis` (crossing street = the other axis). */
function stopDistance(net: Network, n: TownNode, axis: 0 | 1): number {
  return lineLanes(net, n, axis === 0 ? 1 : 0) * LANE_WIDTH_M + STOP_LINE_SETBACK_M;
}

function blankPath(id: number, kind: 'lane' | 'connector', prims: PathPrim[]): TownPath {
  return { id, kind, prims, length: pathLength(prims), edge: -1, dir: -1, lane: -1, fromNode: -1, node: -1, arm: -1, next: [], from: -1, turn: 'straight', conflicts: [], minRadiusM: Infinity, leftLane: -1, rightLane: -1 };
}

/** The street lane paths of every edge, both directions. laneIds[edge][dir 0 fwd|1 back][k] → path id. */
function buildLanes(net: Network, paths: TownPath[]): number[][][] {
  return net.edges.map((e) => {
    const out: number[][] = [];
    for (const back of [false, true]) {
      const from = net.nodes[back ? e.b : e.a]!, to = net.nodes[back ? e.a : e.b]!;
      const dir = (e.axis === 0 ? 0 : 1) + (back ? 2 : 0);
      const fx = DIR_X[dir]!, fz = DIR_Z[dir]!;
      // right of travel = −left = (−cos ψ, sin ψ) → for the 4 grid directions (−fz, fx)… with f = (sin ψ, cos ψ)
      const rx = -fz, rz = fx;
      const d0 = stopDistance(net, from, e.axis), d1 = stopDistance(net, to, e.axis);
      const ids: number[] = [];
      for (let k = 0; k < e.lanes; k++) {
        const o = laneOffsetM(e.lanes, k);
        const p = blankPath(paths.length, 'lane', segmentPath(from.x + fx * d0 + rx * o, from.z + fz * d0 + rz * o, to.x - fx * d1 + rx * o, to.z - fz * d1 + rz * o, DIR_PSI[dir]!));
        Object.assign(p, { edge: e.id, dir, lane: k, fromNode: from.id, node: to.id, arm: (dir + 2) % 4 });
        paths.push(p);
        ids.push(p.id);
      }
      ids.forEach((id, k) => {
        paths[id]!.leftLane = k + 1 < ids.length ? ids[k + 1]! : -1;
        paths[id]!.rightLane = k > 0 ? ids[k - 1]! : -1;
      });
      out.push(ids);
    }
    return out;
  });
}

/** Lane paths arriving at node n on arm d, and leaving it on arm d. */
function armLanes(net: Network, laneIds: number[][][], n: TownNode, d: number): { inn: number[]; out: number[] } {
  const e = n.arms[d]!;
  if (e < 0) return { inn: [], out: [] };
  const edge = net.edges[e]!;
  // leaving on arm d: the direction that starts at n
  const outBack = edge.b === n.id;
  return { out: laneIds[e]![outBack ? 1 : 0]!, inn: laneIds[e]![outBack ? 0 : 1]! };
}

function turnOf(inDir: number, outDir: number): Turn | null {
  if (outDir === inDir) return 'straight';
  if (outDir === (inDir + 1) % 4) return 'right';
  if (outDir === (inDir + 3) % 4) return 'left';
  return null;
}

/** The (entry lane index, exit lane index) pairs of a movement. */
function laneMoves(turn: Turn, nIn: number, nOut: number, bend: boolean): [number, number][] {
  if (bend) return Array.from({ length: nIn }, (_, k) => [k, Math.min(k, nOut - 1)] as [number, number]);
  if (turn === 'right') return [[0, 0]];
  if (turn === 'left') return [[nIn - 1, nOut - 1]];
  return Array.from({ length: nIn }, (_, k) => [k, Math.min(k, nOut - 1)] as [number, number]);
}

function connectorPrims(a: TownPath, b: TownPath, turn: Turn): PathPrim[] {
  const pa = evalPath(a.prims, a.length, pathPoint());
  const pb = evalPath(b.prims, 0, pathPoint());
  if (turn === 'straight') return segmentPath(pa.x, pa.z, pb.x, pb.z, pa.psi);
  const prims = turnPath(pa.x, pa.z, pa.psi, pb.x, pb.z, pb.psi);
  if (!prims) throw new Error(`town: no turn path from lane ${a.id} to lane ${b.id}`);
  return prims;
}

/** The connectors of one node. */
function buildConnectors(net: Network, laneIds: number[][][], n: TownNode, paths: TownPath[]): number[] {
  const ids: number[] = [];
  const bend = n.arms.filter((e) => e >= 0).length === 2;
  for (let d = 0; d < 4; d++) {
    const inn = armLanes(net, laneIds, n, d).inn;
    if (inn.length === 0) continue;
    const inDir = (d + 2) % 4;
    for (let o = 0; o < 4; o++) {
      const turn = turnOf(inDir, o);
      const out = armLanes(net, laneIds, n, o).out;
      if (!turn || out.length === 0) continue;
      for (const [ki, ko] of laneMoves(turn, inn.length, out.length, bend)) {
        const a = paths[inn[ki]!]!, b = paths[out[ko]!]!;
        const c = blankPath(paths.length, 'connector', connectorPrims(a, b, turn));
        Object.assign(c, { node: n.id, arm: d, from: a.id, turn, next: [b.id], dir: inDir, lane: ki });
        c.minRadiusM = c.prims.reduce((r, p) => (p.kappa !== 0 ? Math.min(r, 1 / Math.abs(p.kappa)) : r), Infinity);
        paths.push(c);
        a.next.push(c.id);
        ids.push(c.id);
      }
    }
  }
  return ids;
}

function samples(p: TownPath): Float64Array {
  const n = Math.max(2, Math.ceil(p.length / CONFLICT_SAMPLE_M) + 1);
  const out = new Float64Array(2 * n);
  const pt = pathPoint();
  for (let k = 0; k < n; k++) {
    evalPath(p.prims, (p.length * k) / (n - 1), pt);
    out[2 * k] = pt.x;
    out[2 * k + 1] = pt.z;
  }
  return out;
}

function closerThan(a: Float64Array, b: Float64Array, d: number): boolean {
  const d2 = d * d;
  for (let i = 0; i < a.length; i += 2) for (let j = 0; j < b.length; j += 2) if ((a[i]! - b[j]!) ** 2 + (a[i + 1]! - b[j + 1]!) ** 2 < d2) return true;
  return false;
}

/** Marks each pair of connectors of a node whose swept lanes meet (crossing, merging or diverging). */
function markConflicts(ids: number[], paths: TownPath[]): void {
  const pts = ids.map((id) => samples(paths[id]!));
  for (let i = 0; i < ids.length; i++)
    for (let j = i + 1; j < ids.length; j++) {
      const a = paths[ids[i]!]!, b = paths[ids[j]!]!;
      const ea = paths[a.next[0]!]!, eb = paths[b.next[0]!]!;
      // two movements from different arms into lanes side by side converge at an angle: one at a time
      const sideBySide = ea.edge === eb.edge && ea.dir === eb.dir && a.arm !== b.arm;
      const parallel = a.arm === b.arm && a.turn === 'straight' && b.turn === 'straight';
      if (a.next[0] === b.next[0] || a.from === b.from || sideBySide || (!parallel && closerThan(pts[i]!, pts[j]!, CONFLICT_CLEARANCE_M))) {
        a.conflicts.push(b.id);
        b.conflicts.push(a.id);
      }
    }
}

export interface LaneGraph {
  paths: TownPath[];
  /** Connector ids per node. */
  nodeConnectors: number[][];
}

/** Every lane and connector path of the network, with successors and connector conflicts. */
export function buildLaneGraph(net: Network): LaneGraph {
  const paths: TownPath[] = [];
  const laneIds = buildLanes(net, paths);
  const nodeConnectors = net.nodes.map((n) => buildConnectors(net, laneIds, n, paths));
  for (const ids of nodeConnectors) markConflicts(ids, paths);
  return { paths, nodeConnectors };
}
