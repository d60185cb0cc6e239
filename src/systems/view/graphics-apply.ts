/**
 * Applies a graphics preset (graphics-presets.ts) to the scene at once: shadow pass and map size, fog and sky
 * from the draw distance, resolution scale; the running session's views follow through `setGraphics`.
 */
import { SKY_RADIUS_M, type SceneKit } from './scene';
import { GRAPHICS, type GraphicsPreset, type GraphicsPresetName, type PresetTarget } from './graphics-presets';

/** The fog closes at this share of the draw distance, so nothing pops in at the far plane. */
const FOG_END_OF_DRAW = 0.92;
/** The fog starts at this share of its end. */
const FOG_START_OF_END = 0.3;

/** The dome is scaled to this share of the far plane. */
const SKY_INSIDE_FAR = 0.9;

/**
 * Applies a preset to the scene kit: shadow pass and map size, fog from the draw distance, and the
 * resolution scale (`fixedScaling`, the `scale` URL flag, wins over the preset's). The session's own views
 * follow through `target.setGraphics`.
 */
export function applyGraphicsPreset(kit: SceneKit, name: GraphicsPresetName, target: PresetTarget | null, fixedScaling: number | null): GraphicsPreset {
  const p = GRAPHICS[name];
  kit.sun.shadowEnabled = p.shadows && kit.shadows !== null;
  const map = kit.shadows?.getShadowMap();
  if (map && p.shadows && map.getSize().width !== p.shadowMapPx) map.resize(p.shadowMapPx);
  kit.scene.fogEnd = p.drawDistanceM * FOG_END_OF_DRAW;
  kit.scene.fogStart = kit.scene.fogEnd * FOG_START_OF_END;
  // the preset's scale is in CSS pixels: a high-DPI screen renders at its device resolution on high
  const level = fixedScaling ?? p.hardwareScaling / (window.devicePixelRatio || 1);
  // the sky dome stays inside the far plane (its colours are per vertex, so scaling it keeps them)
  kit.sky.scaling.setAll(Math.min(1, (SKY_INSIDE_FAR * p.drawDistanceM) / SKY_RADIUS_M));
  if (kit.engine.getHardwareScalingLevel() !== level) kit.engine.setHardwareScalingLevel(level);
  target?.setGraphics(p);
  return p;
}
