/**
 * Graphics presets (issue 18 item 6): what each of low / medium / high draws (applied by graphics-apply.ts,
 * at once, no reload). The budgets each preset is measured against in the browser (active triangles and
 * draw calls on every shipped stage, tests/e2e/graphics.spec.mjs) live here beside the presets so the two
 * change together; docs/game.md "Graphics presets" lists them.
 */

export const GRAPHICS_PRESETS = ['low', 'medium', 'high'] as const;
export type GraphicsPresetName = (typeof GRAPHICS_PRESETS)[number];

export interface GraphicsPreset {
  /** The sun's shadow map for the car (off = no shadow pass at all). */
  shadows: boolean;
  /** Shadow map edge, texels. */
  shadowMapPx: number;
  /** Share of the stage's trees and bushes drawn, 0..1 (a fixed, well-spread subset). */
  treeDensity: number;
  /** Camera far plane, m: terrain blocks and scenery cells beyond it are not drawn; the fog closes before it. */
  drawDistanceM: number;
  /** Scenery cells (trees, rocks, bushes) further than this from the camera are hidden, m. */
  sceneryDistanceM: number;
  /** Tree cells switch from the near mesh to the coarse one past [0], and to the crossed impostor past [1], m. */
  treeLodM: readonly [number, number];
  /** Terrain LOD (RTIN): allowed projected error, pixels (τ). */
  terrainErrorPx: number;
  /** Babylon hardware scaling level: the canvas renders at 1/level of its CSS size. */
  hardwareScaling: number;
  /** Dust and spray particles: emission rate and capacity factor, 0..1. */
  particles: number;
}

/** Budget a preset must stay within in every measured view (start line and three points along the road). */
export interface RenderBudget {
  /** Active triangles (Babylon's active indices / 3). */
  triangles: number;
  drawCalls: number;
}

export const GRAPHICS: Record<GraphicsPresetName, GraphicsPreset> = {
  low: { shadows: false, shadowMapPx: 512, treeDensity: 0.35, drawDistanceM: 450, sceneryDistanceM: 220, treeLodM: [40, 100], terrainErrorPx: 6, hardwareScaling: 1.5, particles: 0.35 },
  medium: { shadows: true, shadowMapPx: 1024, treeDensity: 0.7, drawDistanceM: 800, sceneryDistanceM: 400, treeLodM: [80, 180], terrainErrorPx: 3, hardwareScaling: 1.2, particles: 0.7 },
  high: { shadows: true, shadowMapPx: 2048, treeDensity: 1, drawDistanceM: 1200, sceneryDistanceM: 700, treeLodM: [130, 300], terrainErrorPx: 2, hardwareScaling: 1, particles: 1 },
};

/** Per-preset budgets (issue 18: low ≤ 80 k triangles and ≤ 150 draw calls). */
export const RENDER_BUDGETS: Record<GraphicsPresetName, RenderBudget> = {
  low: { triangles: 80_000, drawCalls: 150 },
  medium: { triangles: 150_000, drawCalls: 300 },
  high: { triangles: 300_000, drawCalls: 600 },
};

/** What a running session draws that a preset changes (terrain LOD, scenery density and distance, particles). */
export interface PresetTarget {
  setGraphics(p: GraphicsPreset): void;
}
