/**
 * A small flat-shaded mesh builder for generated geometry: every triangle gets its own three vertices, its face
 * normal and one RGBA colour, wound counter-clockwise seen from outside (outward normal = (b−a)×(c−a)).
 * Parts (named triangle ranges) let tests check each closed piece on its own. Pure: no renderer.
 */
import { triangulatePolygon } from './triangulate';

export type Vec3 = [number, number, number];
export type Rgba = [number, number, number, number];

export interface MeshPart {
  name: string;
  /** First triangle and triangle count of this part. */
  first: number;
  count: number;
  /** A closed surface (every edge shared by two triangles once coincident vertices are merged). */
  closed: boolean;
}

export interface MeshData {
  positions: Float32Array;
  normals: Float32Array;
  colors: Float32Array;
  indices: Uint32Array;
  parts: MeshPart[];
}

/** Coincident points closer than this are one vertex (m), for welding and degenerate checks. */
const EPS_M = 1e-7;

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

export class MeshBuilder {
  private readonly pos: number[] = [];
  private readonly nrm: number[] = [];
  private readonly col: number[] = [];
  readonly parts: MeshPart[] = [];
  private partStart = 0;

  get triangleCount(): number {
    return this.pos.length / 9;
  }

  /** One triangle (skipped when degenerate). `outward`, when given, fixes the winding to face it. */
  tri(a: Vec3, b: Vec3, c: Vec3, colour: Rgba, outward?: Vec3): void {
    let n = cross(sub(b, a), sub(c, a));
    const len = Math.hypot(n[0], n[1], n[2]);
    if (len < EPS_M * EPS_M) return;
    if (outward && n[0] * outward[0] + n[1] * outward[1] + n[2] * outward[2] < 0) {
      [b, c] = [c, b];
      n = [-n[0], -n[1], -n[2]];
    }
    for (const p of [a, b, c]) {
      this.pos.push(p[0], p[1], p[2]);
      this.nrm.push(n[0] / len, n[1] / len, n[2] / len);
      this.col.push(colour[0], colour[1], colour[2], colour[3]);
    }
  }

  /** Quad a-b-c-d (in order around its edge) as two triangles. */
  quad(a: Vec3, b: Vec3, c: Vec3, d: Vec3, colour: Rgba, outward?: Vec3): void {
    this.tri(a, b, c, colour, outward);
    this.tri(a, c, d, colour, outward);
  }

  /** Axis-aligned box centred at `c` with size `s`, optionally pitched by `pitchRad` about X (closed). */
  box(c: Vec3, s: Vec3, colour: Rgba, pitchRad = 0): void {
    const [hx, hy, hz] = [s[0] / 2, s[1] / 2, s[2] / 2];
    const cp = Math.cos(pitchRad);
    const sp = Math.sin(pitchRad);
    const at = (x: number, y: number, z: number): Vec3 => [c[0] + x, c[1] + y * cp - z * sp, c[2] + y * sp + z * cp];
    const v = [-1, 1].flatMap((i) => [-1, 1].flatMap((j) => [-1, 1].map((k) => at(i * hx, j * hy, k * hz))));
    const face = (i: number[], o: Vec3): void => this.quad(v[i[0]!]!, v[i[1]!]!, v[i[2]!]!, v[i[3]!]!, colour, rotated(o, cp, sp));
    face([4, 5, 7, 6], [1, 0, 0]);
    face([0, 2, 3, 1], [-1, 0, 0]);
    face([2, 6, 7, 3], [0, 1, 0]);
    face([0, 1, 5, 4], [0, -1, 0]);
    face([1, 3, 7, 5], [0, 0, 1]);
    face([0, 4, 6, 2], [0, 0, -1]);
  }

  /**
   * A prism: the side profile `poly` ((z, y) points, in order around it) extruded across X between ±halfWidth(y)
   * (linear in y, so both caps stay planar). Cap colour `side`; edge i (poly[i] → poly[i+1]) coloured `edge(i)`.
   */
  prism(poly: readonly [number, number][], halfWidth: (y: number) => number, side: Rgba, edge: (i: number) => Rgba): void {
    const cx = poly.reduce((s, p) => s + p[0], 0) / poly.length;
    const cy = poly.reduce((s, p) => s + p[1], 0) / poly.length;
    const tris = triangulatePolygon(poly);
    for (const sx of [1, -1]) {
      const at = (k: number): Vec3 => [sx * halfWidth(poly[k]![1]), poly[k]![1], poly[k]![0]];
      for (const [a, b, c] of tris) this.tri(at(a), at(b), at(c), side, [sx, 0, 0]);
    }
    for (let i = 0; i < poly.length; i++) {
      const p = poly[i]!;
      const q = poly[(i + 1) % poly.length]!;
      // outward: away from the profile's centroid, perpendicular to the edge in the (z, y) plane
      const ez = q[0] - p[0];
      const ey = q[1] - p[1];
      let oz = ey;
      let oy = -ez;
      if (oz * (p[0] - cx) + oy * (p[1] - cy) < 0) [oz, oy] = [-oz, -oy];
      const hp = halfWidth(p[1]);
      const hq = halfWidth(q[1]);
      this.quad([hp, p[1], p[0]], [hq, q[1], q[0]], [-hq, q[1], q[0]], [-hp, p[1], p[0]], edge(i), [0, oy, oz]);
    }
  }

  /** Close the triangles added since the last part under `name`. */
  endPart(name: string, closed: boolean): void {
    const first = this.partStart;
    this.parts.push({ name, first, count: this.triangleCount - first, closed });
    this.partStart = this.triangleCount;
  }

  build(): MeshData {
    const n = this.pos.length / 3;
    const indices = new Uint32Array(n);
    for (let i = 0; i < n; i++) indices[i] = i;
    return { positions: new Float32Array(this.pos), normals: new Float32Array(this.nrm), colors: new Float32Array(this.col), indices, parts: this.parts };
  }
}

function rotated(o: Vec3, cp: number, sp: number): Vec3 {
  return [o[0], o[1] * cp - o[2] * sp, o[1] * sp + o[2] * cp];
}
