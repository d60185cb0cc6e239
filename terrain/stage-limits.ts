/**
 * Physical ranges and resource caps of stage folders (terrain/README.md, "Stage limits"). Together with the image
 * caps (HEIGHTMAP_MAX_SIDE, SURFACE_MAP_MAX_SIDE, MAX_PNG_FILE_BYTES) they bound what loading one stage can
 * allocate: STAGE_MEMORY_CAP_BYTES.
 */

export const STAGE_LIMITS = {
  /** |x|, |z| of origins, road, joker and scenery points, m (100 km). */
  coordM: 1e5,
  /** Heightmap and surface-map node spacing, m (2049 × 16 m = 32.8 km of terrain at most). */
  cellSizeM: [0.05, 16],
  /** height_scale_m (0 … 10 km of relief) and |height_offset_m|, m. */
  heightScaleM: 1e4,
  heightOffsetM: 1e4,
  /** Detail layer: node spacing, m; amplitude multiplier. */
  detailCellM: [0.05, 10],
  detailScale: 20,
  /** Road and joker width, m; checkpoint gate width, m. */
  roadWidthM: [1, 50],
  gateWidthM: [1, 100],
  /** Distances along the road, m; length of the road's control polygon, m. */
  distanceM: 1e5,
  roadLengthM: 1e5,
  roadPoints: 20_000,
  jokerPoints: 1000,
  jokerGateRadiusM: [0.5, 100],
  checkpoints: 256,
  /** Scenery: groups, items per group and in all; radius and height at scale 1, m; scale; rotation, °. */
  sceneryGroups: 64,
  sceneryItems: 100_000,
  sceneryRadiusM: [0.01, 50],
  sceneryHeightM: [0.01, 100],
  sceneryScale: [0.05, 20],
  angleDeg: 360,
  /** Σ (2·radius·scale + 4 m)² over scenery items, m²: the collision broad phase's cells (4 m) they cover ≈ 1 M. */
  sceneryFootprintM2: 16e6,
  /** `[generator]`: highest generator version, road length, km; relief multiplier; surface-map refinement. */
  generatorVersion: 1000,
  generatorLengthKm: [0.05, 100],
  generatorRelief: 10,
  generatorSurfaceRefine: 8,
  idChars: 64,
  nameChars: 200,
  fileChars: 200,
} as const;

/**
 * Most memory one stage load may allocate, bytes. At both image caps (2049² heightmap, 4097² surface map) a stage
 * holds ≈ 96 MiB of typed arrays and decoding one image needs ≤ 48 MiB more; the road and scenery within their caps
 * stay below 25 MB (tests/terrain/stage-limits.test.ts counts a stage at the caps).
 */
export const STAGE_MEMORY_CAP_BYTES = 256 * 1024 * 1024;
