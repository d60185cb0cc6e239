/**
 * Generated tree geometry (no downloaded models): three species (spruce, pine, birch), each at two mesh levels
 * of detail and a crossed-silhouette impostor, as plain vertex arrays with vertex colours (one material draws
 * every tree, so a species costs one draw call per scenery cell whatever its parts). Unit size: the base at the
 * origin, height 1 m, crown radius ≈ 0.5 m · (species width); an instance's matrix scales it to the stage item's
 * height and radius. Pure arrays, so the triangle counts are tested without a renderer.
 */

import { outwardNormals } from './outward-normals';

export const TREE_SPECIES = ['spruce', 'pine', 'birch'] as const;
export type TreeSpecies = (typeof TREE_SPECIES)[number];

/** Mesh levels: 0 = near (full), 1 = middle (coarse), 2 = the far impostor (two crossed silhouettes). */
export const TREE_LEVELS = 3;

export interface TreeGeometry {
  positions: number[];
  colors: number[];
  indices: number[];
  /** Unit vertex normals: away from the trunk's axis on the lathes (outwardNormals), straight up on the impostor. */
  normals: number[];
}

type Rgb = readonly [number, number, number];

/** One ring of a lathe: height (unit tree), radius (unit tree), colour. */
interface Ring {
  y: number;
  r: number;
  c: Rgb;
}

/** Sides of each lathe ring per level (the impostor has none: it is flat). */
const SIDES: readonly [number, number] = [8, 5];

const TRUNK_DARK: Rgb = [0.32, 0.22, 0.14];
const BIRCH_BARK: Rgb = [0.86, 0.84, 0.78];
const SPRUCE_GREEN: Rgb = [0.1, 0.24, 0.13];
const SPRUCE_TIP: Rgb = [0.14, 0.31, 0.16];
const PINE_GREEN: Rgb = [0.16, 0.3, 0.14];
const BIRCH_LEAF: Rgb = [0.36, 0.5, 0.2];

/** Adds a closed-top lathe (rings bottom to top; the last ring may have radius 0) with `sides` sides. */
function addLathe(g: TreeGeometry, rings: readonly Ring[], sides: number, twist: number): void {
  const base = g.positions.length / 3;
  for (const ring of rings)
    for (let s = 0; s < sides; s++) {
      const a = ((s + twist) / sides) * 2 * Math.PI;
      g.positions.push(ring.r * Math.cos(a), ring.y, ring.r * Math.sin(a));
      g.colors.push(ring.c[0], ring.c[1], ring.c[2], 1);
    }
  for (let k = 0; k + 1 < rings.length; k++)
    for (let s = 0; s < sides; s++) {
      const a = base + k * sides + s;
      const b = base + k * sides + ((s + 1) % sides);
      const c = a + sides;
      const d = b + sides;
      if (rings[k + 1]!.r === 0) g.indices.push(a, c, b);
      else g.indices.push(a, c, b, b, c, d);
    }
}

/** Adds a flat silhouette in the plane through the y axis at angle `yaw`: polygon outline as (u, y) pairs, fan-filled. */
function addSilhouette(g: TreeGeometry, outline: readonly [number, number][], yaw: number, c: Rgb): void {
  const base = g.positions.length / 3;
  const cx = Math.cos(yaw);
  const cz = Math.sin(yaw);
  for (const [u, y] of outline) {
    g.positions.push(u * cx, y, u * cz);
    g.colors.push(c[0], c[1], c[2], 1);
  }
  for (let i = 1; i + 1 < outline.length; i++) g.indices.push(base, base + i, base + i + 1);
}

/** The species' lathe parts at mesh level 0 or 1: trunk then crown tiers. */
function speciesRings(species: TreeSpecies, level: 0 | 1): Ring[][] {
  const trunkTop = species === 'pine' ? 0.62 : species === 'birch' ? 0.55 : 0.2;
  const trunkC = species === 'birch' ? BIRCH_BARK : TRUNK_DARK;
  const trunk: Ring[] = [
    { y: 0, r: 0.035, c: trunkC },
    { y: trunkTop, r: 0.022, c: trunkC },
  ];
  if (species === 'spruce') {
    // stacked cones (tiers) narrowing to a point: the Nordic spruce look
    const tiers = level === 0 ? 4 : 2;
    const parts: Ring[][] = [trunk];
    for (let t = 0; t < tiers; t++) {
      const y0 = 0.14 + (t * 0.8) / tiers;
      const r0 = 0.42 * (1 - (t / tiers) * 0.75);
      parts.push([
        { y: y0, r: r0, c: SPRUCE_GREEN },
        { y: t === tiers - 1 ? 1 : y0 + 0.34, r: 0, c: SPRUCE_TIP },
      ]);
    }
    return parts;
  }
  // pine: bare trunk, a flattened rounded crown high up; birch: white trunk, an oval light-green crown
  return [trunk, ROUND_CROWNS[species][level]];
}

/** (height, radius) profiles of the round crowns, near and coarse level. */
const ROUND_CROWN_PROFILES: Record<'pine' | 'birch', readonly [readonly (readonly [number, number])[], readonly (readonly [number, number])[]]> = {
  pine: [
    [[0.58, 0.12], [0.7, 0.3], [0.86, 0.28], [1, 0]],
    [[0.6, 0.26], [1, 0]],
  ],
  birch: [
    [[0.32, 0.08], [0.5, 0.3], [0.75, 0.27], [1, 0]],
    [[0.35, 0.28], [1, 0]],
  ],
};

/** The round crowns as rings (the tip of a pine a lighter green). */
const ROUND_CROWNS = {
  pine: ROUND_CROWN_PROFILES.pine.map((p) => p.map(([y, r]) => ({ y, r, c: r === 0 ? SPRUCE_TIP : PINE_GREEN }))),
  birch: ROUND_CROWN_PROFILES.birch.map((p) => p.map(([y, r]) => ({ y, r, c: BIRCH_LEAF }))),
} as const;

/** Impostor outline of the crown, (u, y) pairs around the silhouette. */
function impostorOutline(species: TreeSpecies): [number, number][] {
  if (species === 'spruce') return [[0, 0.14], [0.42, 0.14], [0, 1], [-0.42, 0.14]];
  if (species === 'pine') return [[0, 0.6], [0.28, 0.72], [0.22, 0.88], [0, 1], [-0.22, 0.88], [-0.28, 0.72]];
  return [[0, 0.32], [0.28, 0.5], [0.24, 0.78], [0, 1], [-0.24, 0.78], [-0.28, 0.5]];
}

/** Snow lying on a crown: the colour it tends to, and the share of it in a snowy crown's vertex colours. */
export const SNOW_WHITE: Rgb = [0.96, 0.97, 1];
export const SNOW_COVER = 0.9;

/** Mixes every crown vertex colour (all but the bark) toward SNOW_WHITE by SNOW_COVER. */
function coverWithSnow(g: TreeGeometry, bark: Rgb): void {
  const c = g.colors;
  for (let i = 0; i < c.length; i += 4) {
    if (c[i] === bark[0] && c[i + 1] === bark[1] && c[i + 2] === bark[2]) continue;
    for (let k = 0; k < 3; k++) c[i + k] = c[i + k]! + (SNOW_WHITE[k]! - c[i + k]!) * SNOW_COVER;
  }
}

/**
 * A species' geometry at a level (0, 1: lathes; 2: two crossed silhouettes with a trunk strip); `snowy` whitens
 * the crown (coverWithSnow), same positions and triangles.
 */
export function buildTreeGeometry(species: TreeSpecies, level: number, snowy = false): TreeGeometry {
  const g = buildBareTree(species, level);
  if (snowy) coverWithSnow(g, species === 'birch' ? BIRCH_BARK : TRUNK_DARK);
  // the impostor's planes pass through the axis: lit as from above (like the crown tops) from every side
  g.normals = level >= 2 ? g.positions.map((_, i) => (i % 3 === 1 ? 1 : 0)) : outwardNormals(g.positions, g.indices, (_x, y) => [0, y, 0]);
  return g;
}

function buildBareTree(species: TreeSpecies, level: number): TreeGeometry {
  const g: TreeGeometry = { positions: [], colors: [], indices: [], normals: [] };
  if (level >= 2) {
    const leaf = species === 'spruce' ? SPRUCE_GREEN : species === 'pine' ? PINE_GREEN : BIRCH_LEAF;
    const trunkC = species === 'birch' ? BIRCH_BARK : TRUNK_DARK;
    const trunkTop = species === 'spruce' ? 0.2 : 0.62;
    for (const yaw of [0, Math.PI / 2]) {
      addSilhouette(g, [[-0.03, 0], [0.03, 0], [0.02, trunkTop], [-0.02, trunkTop]], yaw, trunkC);
      addSilhouette(g, impostorOutline(species), yaw, leaf);
    }
    return g;
  }
  const l = level === 0 ? 0 : 1;
  speciesRings(species, l).forEach((rings, i) => addLathe(g, rings, i === 0 ? Math.max(4, SIDES[l] - 2) : SIDES[l], i * 0.5));
  return g;
}

/** Triangles of a geometry. */
export function triangleCount(g: TreeGeometry): number {
  return g.indices.length / 3;
}

/** Which species a tree at (x, z) is: a hash of its position, so the stage looks the same every time. */
export function speciesAt(x: number, z: number, birchShare: number): TreeSpecies {
  const h = Math.abs(Math.sin(x * 12.9898 + z * 78.233) * 43758.5453) % 1;
  if (h < birchShare) return 'birch';
  return h < birchShare + (1 - birchShare) * 0.45 ? 'pine' : 'spruce';
}

/** Mesh level for a cell at horizontal distance `d` from the camera, given the preset's switch distances. */
export function treeLevelAt(d: number, lodM: readonly [number, number]): number {
  return d <= lodM[0] ? 0 : d <= lodM[1] ? 1 : 2;
}
