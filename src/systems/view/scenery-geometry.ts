/**
 * Generated meshes of the small stage scenery (no downloaded models): boulders in a few shapes (a lumpy lathe,
 * each variant's lumps from its own seed) and the road-edge marker post (white, a black band and an orange
 * reflector on top). Plain vertex arrays with vertex colours and outward normals, like tree-geometry.ts, so
 * they are tested without a renderer. Unit size: a boulder is ≈ 1 m in radius and 0.8 m tall (scaled per item
 * by its collision radius and height), a post 1 m tall and 1 m across (scaled by its radius and height).
 */
import { outwardNormals } from './outward-normals';
import type { TreeGeometry } from './tree-geometry';

/** Boulder shapes; a rock's shape is picked from its position (rockVariantAt). */
export const ROCK_VARIANTS = 3;
/** Sides of a boulder's rings. */
const ROCK_SIDES = 7;
/** Boulder rings bottom to top (unit size; the lowest ring sits under the ground): height, radius. */
const ROCK_RINGS: readonly (readonly [number, number])[] = [[-0.15, 0.9], [0.25, 1], [0.55, 0.72], [0.75, 0.28]];
/** Height of a boulder's top point, and of its bottom point (buried). */
const ROCK_TOP = 0.82;
const ROCK_BOTTOM = -0.45;
/** Radius of each ring vertex is scaled by 1 ± this (the lumps). */
const ROCK_LUMP = 0.18;
const ROCK_GREY: readonly [number, number, number] = [0.47, 0.46, 0.43];

/** A small deterministic generator (32-bit LCG), so a variant's lumps are the same on every load. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** A boulder variant (0 … ROCK_VARIANTS − 1): rings of lumpy radius, a top point, greys a little lighter on top. */
export function buildRockGeometry(variant: number): TreeGeometry {
  const rnd = lcg(0x9e3779b9 ^ (variant * 7919));
  const g: TreeGeometry = { positions: [], colors: [], indices: [], normals: [] };
  const twist = rnd();
  ROCK_RINGS.forEach(([y, r], k) => {
    for (let s = 0; s < ROCK_SIDES; s++) {
      const a = ((s + twist + (rnd() - 0.5) * 0.4) / ROCK_SIDES) * 2 * Math.PI;
      const rr = r * (1 + (2 * rnd() - 1) * ROCK_LUMP);
      const shade = 0.9 + 0.12 * (k / ROCK_RINGS.length) + 0.06 * rnd();
      g.positions.push(rr * Math.cos(a), y, rr * Math.sin(a));
      g.colors.push(ROCK_GREY[0] * shade, ROCK_GREY[1] * shade, ROCK_GREY[2] * shade, 1);
    }
  });
  const top = g.positions.length / 3;
  g.positions.push(0, ROCK_TOP, 0);
  g.colors.push(ROCK_GREY[0] * 1.08, ROCK_GREY[1] * 1.08, ROCK_GREY[2] * 1.08, 1);
  for (let k = 0; k + 1 < ROCK_RINGS.length; k++)
    for (let s = 0; s < ROCK_SIDES; s++) {
      const a = k * ROCK_SIDES + s, b = k * ROCK_SIDES + ((s + 1) % ROCK_SIDES);
      g.indices.push(a, a + ROCK_SIDES, b, b, a + ROCK_SIDES, b + ROCK_SIDES);
    }
  const last = (ROCK_RINGS.length - 1) * ROCK_SIDES;
  for (let s = 0; s < ROCK_SIDES; s++) g.indices.push(last + s, top, last + ((s + 1) % ROCK_SIDES));
  // closed underneath: on a slope the downhill side of the lowest ring shows, and an open shell would show its inside
  const bottom = g.positions.length / 3;
  g.positions.push(0, ROCK_BOTTOM, 0);
  g.colors.push(ROCK_GREY[0] * 0.8, ROCK_GREY[1] * 0.8, ROCK_GREY[2] * 0.8, 1);
  for (let s = 0; s < ROCK_SIDES; s++) g.indices.push(s, (s + 1) % ROCK_SIDES, bottom);
  g.normals = outwardNormals(g.positions, g.indices, () => [0, 0.3, 0]);
  return g;
}

/** Which boulder shape a rock at (x, z) has: a hash of its position (the same rock looks the same every time). */
export function rockVariantAt(x: number, z: number): number {
  const h = Math.abs(Math.sin(x * 91.3458 + z * 47.9898) * 24634.6345) % 1;
  return Math.min(ROCK_VARIANTS - 1, Math.floor(h * ROCK_VARIANTS));
}

/** The marker post's bands bottom to top: top height (unit post) and colour. */
export const POST_BANDS: readonly (readonly [number, readonly [number, number, number]])[] = [
  [0.8, [0.93, 0.93, 0.9]],
  [0.9, [0.06, 0.06, 0.06]],
  [1, [1, 0.45, 0.05]],
];

/** Adds an axis-aligned box (four sides and a top) from y0 to y1, `half` wide each way, in one colour. */
function addBox(g: TreeGeometry, y0: number, y1: number, half: number, c: readonly [number, number, number]): void {
  const corners: [number, number][] = [[-half, -half], [half, -half], [half, half], [-half, half]];
  for (let s = 0; s < 4; s++) {
    const [ax, az] = corners[s]!, [bx, bz] = corners[(s + 1) % 4]!;
    const v = g.positions.length / 3;
    g.positions.push(ax, y0, az, bx, y0, bz, bx, y1, bz, ax, y1, az);
    g.indices.push(v, v + 1, v + 2, v, v + 2, v + 3);
  }
  const v = g.positions.length / 3;
  for (const [x, z] of corners) g.positions.push(x, y1, z);
  g.indices.push(v, v + 1, v + 2, v, v + 2, v + 3);
  while (g.colors.length / 4 < g.positions.length / 3) g.colors.push(c[0], c[1], c[2], 1);
}

/** The road-edge marker post: a square post in POST_BANDS' colours, 1 m tall and 1 m across (unit). */
export function buildPostGeometry(): TreeGeometry {
  const g: TreeGeometry = { positions: [], colors: [], indices: [], normals: [] };
  let y0 = 0;
  for (const [y1, c] of POST_BANDS) {
    addBox(g, y0, y1, 0.5, c);
    y0 = y1;
  }
  // each band's faces are their own vertices: flat sides, normals away from the post's axis (up on the tops)
  g.normals = outwardNormals(g.positions, g.indices, (_x, y) => [0, y - 0.01, 0]);
  return g;
}
