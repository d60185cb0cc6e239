/**
 * The exact screen-space size of a vertical height error, from the camera's view-projection matrix.
 *
 * A point at view depth z (along the view axis) seen at tangent-plane coordinates s = (x_v/z, y_v/z) moves by
 * K·δ·|(r_y − s_x f_y, u_y − s_y f_y)| / z' pixels when its height changes by δ (r, u, f: the camera's right,
 * up and forward axes; z' the depth of the moved point; K = (v_res/2)·P₁₁ pixels per tangent unit, square
 * pixels). For every visible point |s_x| ≤ 1/P₀₀ and |s_y| ≤ 1/P₁₁, so the error is at most
 * K·F·δ / z_min with F = √((|r_y| + |f_y|/P₀₀)² + (|u_y| + |f_y|/P₁₁)²) and z_min the least depth of the box
 * holding both points. The isotropic δ·K/d (d the Euclidean distance) under-estimates this off the view axis
 * (z = d·cos θ: by up to 1/cos θ, 1.5 in the corners of a 1 rad, 16:9 view); F carries the view angle: a
 * camera looking level sees a vertical error whole (F ≈ 1), one looking straight down only through the
 * perspective spread off its axis.
 */

/** Depth along the view axis, `depth = fx·x + fy·y + fz·z + f0` (m), and the error's pixels per metre at depth 1 m. */
export interface ScreenErrorModel {
  fx: number;
  fy: number;
  fz: number;
  f0: number;
  /** K·F: a vertical error δ at depth ≥ z projects to ≤ pxPerMetre·δ / z pixels. */
  pxPerMetre: number;
}

/** The model for a column-major view-projection (WebGL / Babylon layout) drawn `viewportHeightPx` tall. */
export function screenErrorModel(m: ArrayLike<number>, viewportHeightPx: number): ScreenErrorModel {
  // rows of clip = M·p: row i is (m[i], m[4+i], m[8+i]); row 3 (w) is the depth axis, rows 0 and 1 are P₀₀·r and P₁₁·u
  const len = (i: number): number => Math.hypot(m[i]!, m[4 + i]!, m[8 + i]!);
  const n0 = len(0), n1 = len(1), n3 = len(3);
  const p00 = n0 / n3, p11 = n1 / n3;
  const ry = Math.abs(m[4]! / n0), uy = Math.abs(m[5]! / n1), fy = Math.abs(m[7]! / n3);
  const F = Math.hypot(ry + fy / p00, uy + fy / p11);
  return { fx: m[3]! / n3, fy: m[7]! / n3, fz: m[11]! / n3, f0: m[15]! / n3, pxPerMetre: (viewportHeightPx / 2) * p11 * F };
}

/** Least view depth over the box [x0, x1] × [y0, y1] × [z0, z1], m (depth is linear: a corner). */
export function minDepthOfBox(v: ScreenErrorModel, x0: number, y0: number, z0: number, x1: number, y1: number, z1: number): number {
  return v.f0 + v.fx * (v.fx >= 0 ? x0 : x1) + v.fy * (v.fy >= 0 ? y0 : y1) + v.fz * (v.fz >= 0 ? z0 : z1);
}
