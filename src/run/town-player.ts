/**
 * Where a driven player's car is on the town's lane network (the traffic needs its path, arc length and next
 * path to list it among the vehicles of a lane: leaders, junction grants, lane changes). The autopilot knows
 * its route; a car driven by the pad or keyboard is located here: the nearest lane or connector whose
 * direction is within MAX_HEADING_ERR_RAD of the car's heading. Pure geometry over the path primitives.
 */
import { datan2, dcos, dsin } from '../../terrain/dmath';
import type { PathPrim, Town } from '../../terrain/town/index';

/** A path is a candidate only when its direction is within this of the car's heading, rad (60°). */
const MAX_HEADING_ERR_RAD = Math.PI / 3;
/** Farther than this from every candidate path the car keeps its last location, m. */
const MAX_OFF_PATH_M = 12;

export interface TownLocation {
  path: number;
  s: number;
  next1: number;
}

interface Nearest {
  d2: number;
  s: number;
  psi: number;
}

/** Nearest point of one primitive (segment or arc) to (x, z): squared distance, arc length on the path, heading. */
function nearestOnPrim(p: PathPrim, x: number, z: number, out: Nearest): void {
  let t: number;
  if (p.kappa === 0) {
    t = (x - p.x0) * dsin(p.psi0) + (z - p.z0) * dcos(p.psi0);
  } else {
    // centre C = start + (cos ψ0, −sin ψ0)/κ; a point of the arc at heading ψ is C + (−cos ψ, sin ψ)/κ
    const sg = Math.sign(p.kappa);
    const dx = x - (p.x0 + dcos(p.psi0) / p.kappa), dz = z - (p.z0 - dsin(p.psi0) / p.kappa);
    let dpsi = datan2(sg * dz, -sg * dx) - p.psi0;
    dpsi -= 2 * Math.PI * Math.round(dpsi / (2 * Math.PI));
    t = dpsi / p.kappa;
  }
  t = t < 0 ? 0 : t > p.len ? p.len : t;
  const psi = p.psi0 + p.kappa * t;
  let px: number, pz: number;
  if (p.kappa === 0) [px, pz] = [p.x0 + t * dsin(p.psi0), p.z0 + t * dcos(p.psi0)];
  else [px, pz] = [p.x0 + (dcos(p.psi0) - dcos(psi)) / p.kappa, p.z0 + (dsin(psi) - dsin(p.psi0)) / p.kappa];
  out.d2 = (px - x) ** 2 + (pz - z) ** 2;
  out.s = p.s0 + t;
  out.psi = psi;
}

const headingErr = (a: number, b: number): number => {
  const d = a - b;
  return Math.abs(d - 2 * Math.PI * Math.round(d / (2 * Math.PI)));
};

/** The path after `path` for a car going on: a lane's straight-on connector (else its first), a connector's exit lane. */
function nextPath(town: Town, path: number): number {
  const p = town.paths[path]!;
  if (p.kind === 'connector') return p.next[0] ?? -1;
  const straight = p.next.find((c) => town.paths[c]!.turn === 'straight');
  return straight ?? p.next[0] ?? -1;
}

/** Locates the car at (x, z) heading ψ; `prev` is kept when no path is near enough and heading the same way. */
export function locateOnTown(town: Town, x: number, z: number, psi: number, prev: TownLocation): TownLocation {
  const n: Nearest = { d2: 0, s: 0, psi: 0 };
  let best = -1, bestD2 = MAX_OFF_PATH_M * MAX_OFF_PATH_M, bestS = 0;
  for (const p of town.paths) {
    for (const prim of p.prims) {
      nearestOnPrim(prim, x, z, n);
      if (n.d2 < bestD2 && headingErr(n.psi, psi) < MAX_HEADING_ERR_RAD) [best, bestD2, bestS] = [p.id, n.d2, n.s];
    }
  }
  if (best < 0) return prev;
  return { path: best, s: bestS, next1: nextPath(town, best) };
}
