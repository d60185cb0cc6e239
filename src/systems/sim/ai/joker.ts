/**
 * Rallycross joker lap (issue 8): the stage's joker branch (stage.toml `[joker]`, `stage.joker`: a surfaced
 * road the circuit generator planned and carved beside the main road) as the AI and the race rules use it.
 * It leaves the main road at `leave_distance_m` and rejoins it at `rejoin_distance_m`; every driver must take
 * it exactly once per race; a car "took the joker" when it passed within `gate_radius_m` of the gate at the
 * middle of the branch (a car on the main road is far from it: tested). Pure and headless.
 */
import type { Stage } from '../../../../terrain/stage';
import { AiPath } from './path';
import { dcos, dsin } from '../../../../terrain/dmath';

export interface JokerRoute {
  /** Main-path arc lengths where the branch leaves and rejoins the racing line. */
  entryS: number;
  exitS: number;
  /** +1 = branch to the left of the direction of travel, −1 = right. */
  side: number;
  /** Largest distance of the branch's centreline from the main road's centreline, m. */
  offsetM: number;
  /** Width of the joker road, m. */
  widthM: number;
  /** The branch as an open AI path: `leadM` on the main road before the branch, the branch, `leadM` after. */
  path: AiPath;
  leadM: number;
  /** Gate at the middle of the branch, and its radius, m. */
  gateX: number;
  gateZ: number;
  gateRadiusM: number;
  /** Extra distance of the branch over the main road between leave and rejoin, m. */
  extraM: number;
  /** Posts along both edges of the branch (x, z), for the view. */
  markers: [number, number][];
}

/** Main-road distance driven on the circuit before and after the branch on the joker's AI path, m. */
export const JOKER_LEAD_M = 30;

/**
 * The joker route of a closed circuit from its stage's `[joker]` table (null when the stage has none). `main` is
 * the circuit's AI path (s = 0 at the start line, as `stagePath` builds it); `muAt` the planned friction at a
 * point (the AI's speed profile on the branch).
 */
export function jokerRoute(stage: Stage, main: AiPath, muAt: (x: number, z: number) => number, opts: { racingLine?: number; edgeMarginM?: number } = {}): JokerRoute | null {
  const J = stage.joker;
  if (!J) return null;
  if (!main.closed) throw new Error(`joker: stage "${stage.id}" is not a closed circuit`);
  const lead = JOKER_LEAD_M;
  const pts: number[] = [];
  const widths: number[] = [];
  const push = (x: number, y: number, z: number, w: number): void => {
    const n = pts.length / 3;
    // skip a point that repeats the previous one (the branch starts where the lead ends)
    if (n > 0 && Math.hypot(x - pts[3 * n - 3]!, z - pts[3 * n - 1]!) < 0.5) return;
    pts.push(x, y, z);
    widths.push(w);
  };
  const entry = stage.road.poseAt(J.leaveDistanceM), exit = stage.road.poseAt(J.rejoinDistanceM);
  const entryS = main.locate(entry.x, entry.z).s;
  const exitS = main.locate(exit.x, exit.z).s;
  // the leads run from the main racing line (where the circuit driver hands over) to the road centreline at
  // the branch's ends (smoothstep blend), so neither handover asks for a sideways jump
  const r = [0, 0];
  const smooth = (t: number): number => (t <= 0 ? 0 : t >= 1 ? 1 : t * t * (3 - 2 * t));
  const leadPoint = (d: number, s: number, b: number): void => {
    const p = stage.road.poseAt(d);
    main.pointAt(s, r);
    // the width ramps with the blend too: the branch's racing line starts and ends on the main one
    push(r[0]! + b * (p.x - r[0]!), p.y, r[1]! + b * (p.z - r[1]!), J.widthM * b);
  };
  for (let d = 0; d < lead - 1e-6; d += 2) leadPoint(J.leaveDistanceM - lead + d, entryS - lead + d, smooth(d / lead));
  const jr = J.road;
  for (let k = 0; k < jr.count; k++) push(jr.points[3 * k]!, jr.points[3 * k + 1]!, jr.points[3 * k + 2]!, J.widthM);
  for (let d = 2; d <= lead + 1e-6; d += 2) leadPoint(J.rejoinDistanceM + d, exitS + d, 1 - smooth(d / lead));
  const path = AiPath.fromCentreline({ points: Float64Array.from(pts), widths }, { closed: false, racingLine: opts.racingLine ?? 1, edgeMarginM: opts.edgeMarginM, muAt });
  const gateLoc = main.locate(J.gateX, J.gateZ);
  let offsetM = 0;
  for (let k = 0; k < jr.count; k++) offsetM = Math.max(offsetM, Math.abs(stage.road.project(jr.points[3 * k]!, jr.points[3 * k + 2]!).lateralM));
  const markers: [number, number][] = [];
  const half = J.widthM / 2 + 0.5;
  for (let d = 6; d < jr.lengthM - 3; d += 6) {
    const p = jr.poseAt(d);
    const lx = dcos(p.heading), lz = -dsin(p.heading);
    markers.push([p.x + half * lx, p.z + half * lz], [p.x - half * lx, p.z - half * lz]);
  }
  return {
    entryS,
    exitS,
    side: Math.sign(gateLoc.lateral + main.offset[gateLoc.index]!) || 1,
    offsetM,
    widthM: J.widthM,
    path,
    leadM: lead,
    gateX: J.gateX,
    gateZ: J.gateZ,
    gateRadiusM: J.gateRadiusM,
    extraM: jr.lengthM - (J.rejoinDistanceM - J.leaveDistanceM),
    markers,
  };
}
