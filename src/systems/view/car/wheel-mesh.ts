/**
 * One wheel (tyre, rim, spokes) around the X axis at the origin, for a wheel of radius r and width w. The tread
 * has a vertex at angles 0 and π, so the drawn tyre spans exactly 2r along Z and Y.
 */
import { MeshBuilder, type MeshData, type Vec3 } from './mesh-builder';
import { RIM, RIM_DARK, TYRE } from './palette';

/** Tread segments (even: vertices at 0 and π). */
export const TYRE_SEGMENTS = 18;
/** Rim radius as a fraction of the tyre radius (≈ 18-inch rim on a 0.32 m tyre). */
export const RIM_FRACTION = 0.66;
/** The rim face sits this far inside the tyre's side wall, m. */
const RIM_DISH_M = 0.02;
const SPOKES = 5;

export function buildWheel(radiusM: number, widthM: number): MeshData {
  const b = new MeshBuilder();
  const hw = widthM / 2;
  const rr = radiusM * RIM_FRACTION;
  const ring = (r: number, x: number, k: number): Vec3 => {
    const a = (2 * Math.PI * k) / TYRE_SEGMENTS;
    return [x, r * Math.sin(a), r * Math.cos(a)];
  };
  for (let k = 0; k < TYRE_SEGMENTS; k++) {
    const mid = (2 * Math.PI * (k + 0.5)) / TYRE_SEGMENTS;
    b.quad(ring(radiusM, hw, k), ring(radiusM, hw, k + 1), ring(radiusM, -hw, k + 1), ring(radiusM, -hw, k), TYRE, [0, Math.sin(mid), Math.cos(mid)]);
    for (const s of [1, -1]) {
      // side wall from the tread to the rim, then the dished rim face
      b.quad(ring(radiusM, s * hw, k), ring(radiusM, s * hw, k + 1), ring(rr, s * hw, k + 1), ring(rr, s * hw, k), TYRE, [s, 0, 0]);
      b.quad(ring(rr, s * hw, k), ring(rr, s * hw, k + 1), ring(rr, s * (hw - RIM_DISH_M), k + 1), ring(rr, s * (hw - RIM_DISH_M), k), RIM_DARK, [0, -Math.sin(mid), -Math.cos(mid)]);
      b.tri([s * (hw - RIM_DISH_M), 0, 0], ring(rr, s * (hw - RIM_DISH_M), k), ring(rr, s * (hw - RIM_DISH_M), k + 1), RIM_DARK, [s, 0, 0]);
    }
  }
  b.endPart('tyre', true);
  for (const s of [1, -1]) {
    const x = s * (hw - RIM_DISH_M + 0.004);
    for (let k = 0; k < SPOKES; k++) {
      const a = (2 * Math.PI * k) / SPOKES;
      const [sa, ca] = [Math.sin(a), Math.cos(a)];
      const spoke = (t: number, u: number): Vec3 => [x, t * sa + u * ca, t * ca - u * sa];
      b.quad(spoke(0, -0.03), spoke(rr * 0.95, -0.045), spoke(rr * 0.95, 0.045), spoke(0, 0.03), RIM, [s, 0, 0]);
    }
  }
  b.endPart('rim', false);
  return b.build();
}
