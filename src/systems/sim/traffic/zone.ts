/**
 * The control zone (Félez §3, Figures 3–4): traffic exists only in a rectangle around the user's car, longer
 * ahead than behind (vehicles must not appear or vanish in the driver's view). Vehicles are created where the
 * zone's edge meets lanes running into it and removed when they leave it. The town is cut into square sectors
 * at least as large as the zone, so the zone covers at most four and only their lanes are intersected with its
 * edge. Without a player the zone is fixed over the whole town (nothing enters or leaves).
 */
import { dcos, dsin } from '../../../../terrain/dmath';
import { evalPath, pathPoint, type Town } from '../../../../terrain/town/index';

/** Zone size around the player: ahead, behind, to each side, m. */
export const ZONE_AHEAD_M = 400;
export const ZONE_BEHIND_M = 200;
export const ZONE_HALF_WIDTH_M = 320;
/** A lane starting this close inside the zone's edge is an entry too (the edge crossed its junction), m. */
const ENTRY_BAND_M = 60;
/** Margin around the town of the fixed zone, m. */
const TOWN_MARGIN_M = 60;

export interface EntryPoint {
  path: number;
  s: number;
}

export class ControlZone {
  /** Centre of the rectangle, its heading (long axis) and half extents. */
  cx = 0;
  cz = 0;
  psi = 0;
  halfLong = 0;
  halfWide = 0;
  fixed = true;
  readonly sectorM: number;
  private readonly sx0: number;
  private readonly sz0: number;
  private readonly nsx: number;
  private readonly nsz: number;
  /** Lane path ids per sector (a lane is in every sector its segment's box touches). */
  private readonly sectors: number[][];
  private readonly town: Town;

  constructor(town: Town) {
    this.town = town;
    const b = town.bounds;
    this.cx = (b.minX + b.maxX) / 2;
    this.cz = (b.minZ + b.maxZ) / 2;
    this.halfLong = (b.maxZ - b.minZ) / 2 + TOWN_MARGIN_M;
    this.halfWide = (b.maxX - b.minX) / 2 + TOWN_MARGIN_M;
    // sector side ≥ the zone's diagonal, so the zone never spans more than 2×2 sectors
    this.sectorM = Math.ceil(Math.hypot(ZONE_AHEAD_M + ZONE_BEHIND_M, 2 * ZONE_HALF_WIDTH_M));
    this.sx0 = b.minX - TOWN_MARGIN_M;
    this.sz0 = b.minZ - TOWN_MARGIN_M;
    this.nsx = Math.max(1, Math.ceil((b.maxX - b.minX + 2 * TOWN_MARGIN_M) / this.sectorM));
    this.nsz = Math.max(1, Math.ceil((b.maxZ - b.minZ + 2 * TOWN_MARGIN_M) / this.sectorM));
    this.sectors = Array.from({ length: this.nsx * this.nsz }, () => []);
    const p0 = pathPoint(), p1 = pathPoint();
    for (const p of town.paths) {
      if (p.kind !== 'lane') continue;
      evalPath(p.prims, 0, p0);
      evalPath(p.prims, p.length, p1);
      const [i0, j0] = this.sectorOf(Math.min(p0.x, p1.x), Math.min(p0.z, p1.z));
      const [i1, j1] = this.sectorOf(Math.max(p0.x, p1.x), Math.max(p0.z, p1.z));
      for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) this.sectors[j * this.nsx + i]!.push(p.id);
    }
  }

  private sectorOf(x: number, z: number): [number, number] {
    const i = Math.min(this.nsx - 1, Math.max(0, Math.floor((x - this.sx0) / this.sectorM)));
    const j = Math.min(this.nsz - 1, Math.max(0, Math.floor((z - this.sz0) / this.sectorM)));
    return [i, j];
  }

  /** Places the zone on the player: ahead along its heading ψ, the player toward the rear. */
  follow(x: number, z: number, psi: number): void {
    this.fixed = false;
    this.psi = psi;
    const off = (ZONE_AHEAD_M - ZONE_BEHIND_M) / 2;
    this.cx = x + off * dsin(psi);
    this.cz = z + off * dcos(psi);
    this.halfLong = (ZONE_AHEAD_M + ZONE_BEHIND_M) / 2;
    this.halfWide = ZONE_HALF_WIDTH_M;
  }

  /** Coordinates in the zone frame: along (forward) and across (left). */
  private local(x: number, z: number, out: [number, number]): [number, number] {
    const dx = x - this.cx, dz = z - this.cz;
    if (this.fixed) {
      out[0] = dz;
      out[1] = dx;
    } else {
      const s = dsin(this.psi), c = dcos(this.psi);
      out[0] = dx * s + dz * c;
      out[1] = dx * c - dz * s;
    }
    return out;
  }

  private readonly tmp: [number, number] = [0, 0];

  /** True when (x, z) is inside the zone grown by `margin` m. */
  contains(x: number, z: number, margin = 0): boolean {
    const [a, w] = this.local(x, z, this.tmp);
    return Math.abs(a) <= this.halfLong + margin && Math.abs(w) <= this.halfWide + margin;
  }

  /** Lane paths of the sectors the zone overlaps (each once, ascending id). */
  lanesInZone(): number[] {
    const r = Math.hypot(this.halfLong, this.halfWide);
    const [i0, j0] = this.sectorOf(this.cx - r, this.cz - r);
    const [i1, j1] = this.sectorOf(this.cx + r, this.cz + r);
    const set = new Set<number>();
    for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) for (const p of this.sectors[j * this.nsx + i]!) set.add(p);
    return [...set].sort((a, b) => a - b);
  }

  /**
   * Where lanes run into the zone: for each straight lane path that starts outside and reaches inside, the
   * arc length just inside the edge (Liang–Barsky clipping of the segment against the rectangle).
   */
  entries(insideM: number): EntryPoint[] {
    const out: EntryPoint[] = [];
    if (this.fixed) return out;
    const p0 = pathPoint(), a = [0, 0] as [number, number], b = [0, 0] as [number, number];
    for (const id of this.lanesInZone()) {
      const p = this.town.paths[id]!;
      evalPath(p.prims, 0, p0);
      if (this.contains(p0.x, p0.z)) {
        // the edge cut through the junction before this lane: traffic from outside enters at the lane's start
        if (!this.contains(p0.x, p0.z, -ENTRY_BAND_M)) out.push({ path: id, s: insideM });
        continue;
      }
      this.local(p0.x, p0.z, a);
      const pe = evalPath(p.prims, p.length, pathPoint());
      this.local(pe.x, pe.z, b);
      const tIn = clipEnter(a, b, this.halfLong, this.halfWide);
      if (tIn === null) continue;
      const s = tIn * p.length + insideM;
      if (s < p.length - insideM) out.push({ path: id, s });
    }
    return out;
  }
}

/** Parameter t ∈ [0, 1] where segment a→b enters the box |x| ≤ hx, |y| ≤ hy, or null if it never does. */
function clipEnter(a: [number, number], b: [number, number], hx: number, hy: number): number | null {
  let t0 = 0, t1 = 1;
  const d = [b[0] - a[0], b[1] - a[1]];
  const p = [-d[0]!, d[0]!, -d[1]!, d[1]!];
  const q = [a[0] + hx, hx - a[0], a[1] + hy, hy - a[1]];
  for (let k = 0; k < 4; k++) {
    if (p[k] === 0) {
      if (q[k]! < 0) return null;
      continue;
    }
    const t = q[k]! / p[k]!;
    if (p[k]! < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
  }
  return t0 <= t1 ? t0 : null;
}
