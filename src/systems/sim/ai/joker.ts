/**
 * Rallycross joker lap (issue 8): an alternative, longer route that leaves the circuit at `entryS`, runs
 * `offsetM` to one side of the racing line through the run-off (grass) and rejoins it at `exitS`. Every driver
 * must take it exactly once per race; a car "took the joker" when it passed within `gateRadiusM` of the gate at
 * the middle of the branch (a car on the main road is ≥ offsetM − half the road width away from it).
 *
 * The branch is chosen deterministically from the stage: a section away from the start and the first corner
 * whose branch stays on gentle ground, clear of every other part of the circuit. Pure and headless.
 */
import type { Stage } from '../../../../terrain/stage';
import { AiPath } from './path';

export interface JokerRoute {
  /** Main-path arc lengths where the branch leaves and rejoins the racing line, m. */
  entryS: number;
  exitS: number;
  /** +1 = branch to the left of the direction of travel, −1 = right. */
  side: number;
  offsetM: number;
  /** The branch as an open AI path: `leadM` on the racing line before entryS, the detour, `leadM` after exitS. */
  path: AiPath;
  leadM: number;
  /** Gate at the middle of the branch, and its radius, m. */
  gateX: number;
  gateZ: number;
  gateRadiusM: number;
  /** Extra distance of the branch over the main line between entry and exit, m. */
  extraM: number;
  /** Posts along both edges of the branch (x, z), for the view. */
  markers: [number, number][];
}

export interface JokerOptions {
  /** Main-path length the branch spans, m (default 80). */
  spanM?: number;
  /** Largest sideways distance of the branch from the racing line, m (default 16). */
  offsetM?: number;
  /** Where to look for it, as fractions of the lap after the start line (default 0.3–0.8). */
  fromFrac?: number;
  toFrac?: number;
  /** Least extra length of the branch over the main line, m (default 5). */
  minExtraM?: number;
  /** Branch width for the AI path, m (default 8). */
  widthM?: number;
}

/** sin²(πσ): 0 with zero slope at both ends, 1 at the middle. */
const bump = (t: number): number => (t <= 0 || t >= 1 ? 0 : Math.sin(Math.PI * t) ** 2);

/**
 * The joker branch of a closed circuit. `muAt` is the planned friction at a point (the AI's speed profile on
 * the branch); `startS` the start line on `main`.
 */
export function jokerRoute(stage: Stage, main: AiPath, startS: number, muAt: (x: number, z: number) => number, opts: JokerOptions = {}): JokerRoute {
  if (!main.closed) throw new Error(`joker: stage "${stage.id}" is not a closed circuit`);
  const span = opts.spanM ?? 80;
  const D = opts.offsetM ?? 16;
  const L = main.lengthM;
  const lead = 30;
  const pt = [0, 0];
  const branchPoint = (sa: number, side: number, d: number, out: number[]): void => {
    // d = distance along the main path from sa − lead
    const s = sa - lead + d;
    main.pointAt(s, pt);
    const h = main.headingAt(s);
    const o = side * D * bump((d - lead) / span);
    out[0] = pt[0]! + o * Math.cos(h);
    out[1] = pt[1]! - o * Math.sin(h);
  };
  const hm = stage.heightfield;
  const x0 = hm.origin.x + 10, z0 = hm.origin.z + 10;
  const x1 = hm.origin.x + (hm.width - 1) * hm.cellSize - 10, z1 = hm.origin.z + (hm.depth - 1) * hm.cellSize - 10;
  let best: { sa: number; side: number; score: number } | null = null;
  const q = [0, 0];
  const loc = { index: 0, s: 0, lateral: 0 };
  for (let f = opts.fromFrac ?? 0.3; f <= (opts.toFrac ?? 0.8) + 1e-9; f += 10 / L) {
    const sa = startS + f * L;
    for (const side of [1, -1]) {
      let ok = true;
      let maxGrade = 0;
      let blen = 0;
      const prev = [NaN, NaN];
      let prevH = NaN;
      for (let d = 0; d <= span + 2 * lead && ok; d += 2) {
        branchPoint(sa, side, d, q);
        if (q[0]! < x0 || q[0]! > x1 || q[1]! < z0 || q[1]! > z1) {
          ok = false;
        }
        if (d >= lead && d <= lead + span) {
          if (d > lead) blen += Math.hypot(q[0]! - prev[0]!, q[1]! - prev[1]!);
          prev[0] = q[0]!;
          prev[1] = q[1]!;
        }
        const y = stage.bspline.height(q[0]!, q[1]!);
        if (!Number.isNaN(prevH)) maxGrade = Math.max(maxGrade, Math.abs(y - prevH) / 2);
        prevH = y;
        // clear of every other part of the circuit: the nearest main-path point is this section, and the
        // branch's middle is far enough off the road
        const t = (d - lead) / span;
        if (t > 0.25 && t < 0.75) {
          main.locate(q[0]!, q[1]!, -1, loc);
          let ds = loc.s - (sa - lead + d);
          ds -= L * Math.round(ds / L);
          if (Math.abs(ds) > 25 || Math.abs(loc.lateral) < 0.8 * D * bump(t)) ok = false;
        }
      }
      // the joker must be longer than the main line it replaces (the outside of a bend, not the inside)
      if (!ok || blen - span < (opts.minExtraM ?? 5)) continue;
      // gentle ground, and a straight-ish main section (a branch off a corner would be a shortcut)
      let curv = 0;
      for (let d = 0; d <= span; d += 4) curv = Math.max(curv, Math.abs(main.kappa[main.indexAt(sa + d)]!));
      const score = maxGrade + 2 * curv;
      if (!best || score < best.score - 1e-12) best = { sa, side, score };
    }
  }
  if (!best) throw new Error(`joker: no room for a joker branch beside stage "${stage.id}"`);
  const { sa, side } = best;
  const n = Math.round((span + 2 * lead) / 2) + 1;
  const pts = new Float64Array(3 * n);
  const widths: number[] = [];
  let len = 0;
  for (let i = 0; i < n; i++) {
    branchPoint(sa, side, 2 * i, q);
    pts[3 * i] = q[0]!;
    pts[3 * i + 1] = stage.bspline.height(q[0]!, q[1]!);
    pts[3 * i + 2] = q[1]!;
    widths.push(opts.widthM ?? 8);
    if (i > 0) len += Math.hypot(q[0]! - pts[3 * i - 3]!, q[1]! - pts[3 * i - 1]!);
  }
  const path = AiPath.fromCentreline({ points: pts, widths }, { closed: false, racingLine: 0, muAt });
  branchPoint(sa, side, lead + span / 2, q);
  const markers: [number, number][] = [];
  const half = (opts.widthM ?? 8) / 2 + 0.5;
  const r = [0, 0];
  for (let d = lead; d <= lead + span; d += 6) {
    branchPoint(sa, side, d, r);
    const px = r[0]!, pz = r[1]!;
    branchPoint(sa, side, d + 1, r);
    const hx = r[0]! - px, hz = r[1]! - pz;
    const hl = Math.hypot(hx, hz) || 1;
    // left of travel = (hz, −hx)/|h| (the same convention as the grid: (cos h, −sin h))
    markers.push([px + (half * hz) / hl, pz - (half * hx) / hl], [px - (half * hz) / hl, pz + (half * hx) / hl]);
  }
  return {
    entryS: main.wrapS(sa),
    exitS: main.wrapS(sa + span),
    side,
    offsetM: D,
    path,
    leadM: lead,
    gateX: q[0]!,
    gateZ: q[1]!,
    gateRadiusM: 5,
    extraM: len - 2 * lead - span,
    markers,
  };
}
