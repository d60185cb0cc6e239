/**
 * Error and bounding spheres of a right-triangulated irregular network (RTIN, 4-8 mesh) over a 2ⁿ+1 map,
 * after Lindstrom & Pascucci, "Terrain simplification simplified" (IEEE TVCG 2002).
 *
 * Every grid node except the four corners is the midpoint m of the hypotenuse of one or two right triangles
 * of the hierarchy (its diamond); m is "active" when those triangles are split. Per node:
 * * err: the exact vertical distance between each diamond triangle and the full-resolution mesh, the max over
 *   the heightmap nodes inside it (the full-resolution triangles subdivide it, so the difference is linear
 *   on each of them and peaks at a node), then saturated: err ≥ the err of every child (the midpoints of the
 *   diamond's four edges, the nodes that need m active);
 * * radius: a sphere round (x, h, z) of m holding every node of its diamond (so every drawn point and every
 *   full-resolution point of its triangles), then nested: radius ≥ child radius + centre distance;
 * * hMax: the highest node of the diamond (a triangle's subtree stays inside it: the occlusion test's top).
 * Saturation and nesting make any test "projected err over the sphere > τ" monotone: a child is active only
 * when its parents are, so the active set is closed and the mesh conforms (no T-junctions, no cracks).
 */

export interface RtinMeasure {
  /** Saturated error per node (z·N + x), m; 0 at the corners. */
  err: Float64Array;
  /** Nested bounding-sphere radius per node, m. */
  radius: Float64Array;
  /** Highest node of the node's diamond, m (rounded up to float32). */
  hMax: Float32Array;
}

/** Largest float32 ≥ v (the occlusion top must not round down). */
function roundUp32(v: number): number {
  const f = Math.fround(v);
  return f >= v ? f : Math.fround(v + Math.abs(v) * 2 ** -22 + 1e-30);
}

/**
 * Error, sphere and top of one triangle (hypotenuse a–b, right angle at c, grid units) folded into its
 * midpoint m, then its two children.
 */
function measureTriangle(h: Float64Array, N: number, cell: number, out: RtinMeasure, ax: number, az: number, bx: number, bz: number, cx: number, cz: number): void {
  const mx = (ax + bx) >> 1, mz = (az + bz) >> 1;
  if (Math.abs(ax - cx) + Math.abs(az - cz) <= 1) return;
  const ux = ax - cx, uz = az - cz, vx = bx - cx, vz = bz - cz, L2 = ux * ux + uz * uz;
  const ha = h[az * N + ax]!, hb = h[bz * N + bx]!, hc = h[cz * N + cx]!, hm = h[mz * N + mx]!;
  const x0 = Math.min(ax, bx, cx), x1 = Math.max(ax, bx, cx), z0 = Math.min(az, bz, cz), z1 = Math.max(az, bz, cz);
  let err = 0, r2 = 0, top = -Infinity;
  for (let z = z0; z <= z1; z++) {
    for (let x = x0; x <= x1; x++) {
      const px = x - cx, pz = z - cz, du = px * ux + pz * uz, dv = px * vx + pz * vz;
      if (du < 0 || dv < 0 || du + dv > L2) continue;
      const hp = h[z * N + x]!;
      err = Math.max(err, Math.abs(hp - (hc + (du * (ha - hc) + dv * (hb - hc)) / L2)));
      const dx = (x - mx) * cell, dz = (z - mz) * cell, dh = hp - hm;
      r2 = Math.max(r2, dx * dx + dh * dh + dz * dz);
      top = Math.max(top, hp);
    }
  }
  const m = mz * N + mx;
  out.err[m] = Math.max(out.err[m]!, err);
  out.radius[m] = Math.max(out.radius[m]!, Math.sqrt(r2));
  out.hMax[m] = Math.max(out.hMax[m]!, roundUp32(top));
  measureTriangle(h, N, cell, out, cx, cz, ax, az, mx, mz);
  measureTriangle(h, N, cell, out, bx, bz, cx, cz, mx, mz);
}

/** Folds child (x, z) into parent m: saturated error, nested sphere. Children off the map are skipped. */
function foldChild(h: Float64Array, N: number, cell: number, out: RtinMeasure, m: number, x: number, z: number): void {
  if (x < 0 || z < 0 || x >= N || z >= N) return;
  const k = z * N + x, mx = m % N, mz = (m - mx) / N;
  const dx = (x - mx) * cell, dz = (z - mz) * cell, dh = h[k]! - h[m]!;
  out.err[m] = Math.max(out.err[m]!, out.err[k]!);
  out.radius[m] = Math.max(out.radius[m]!, out.radius[k]! + Math.sqrt(dx * dx + dh * dh + dz * dz));
}

/**
 * Saturation bottom-up. At scale s (a power of two) the edge midpoints (x ≡ s mod 2s on one axis, ≡ 0 on the
 * other) have diamonds with diagonal edges whose midpoints are the squares' centres at s/2; the centres at s
 * (x ≡ z ≡ s mod 2s) have square diamonds whose edge midpoints are the edge midpoints at s.
 */
function saturate(h: Float64Array, N: number, cell: number, out: RtinMeasure): void {
  for (let s = 1; s < N - 1; s *= 2) {
    const q = s >> 1;
    for (let z = 0; z < N && q > 0; z += s) {
      for (let x = (z / s) % 2 === 0 ? s : 0; x < N; x += 2 * s) {
        const m = z * N + x;
        foldChild(h, N, cell, out, m, x - q, z - q);
        foldChild(h, N, cell, out, m, x + q, z - q);
        foldChild(h, N, cell, out, m, x - q, z + q);
        foldChild(h, N, cell, out, m, x + q, z + q);
      }
    }
    for (let z = s; z < N; z += 2 * s) {
      for (let x = s; x < N; x += 2 * s) {
        const m = z * N + x;
        foldChild(h, N, cell, out, m, x - s, z);
        foldChild(h, N, cell, out, m, x + s, z);
        foldChild(h, N, cell, out, m, x, z - s);
        foldChild(h, N, cell, out, m, x, z + s);
      }
    }
  }
}

/** Error, spheres and tops of the RTIN over node heights `h` (N × N, N = 2ⁿ+1, z·N + x), cells `cell` m wide. */
export function measureRtin(h: Float64Array, N: number, cell: number): RtinMeasure {
  const out: RtinMeasure = { err: new Float64Array(N * N), radius: new Float64Array(N * N), hMax: new Float32Array(N * N).fill(-Infinity) };
  const S = N - 1;
  measureTriangle(h, N, cell, out, 0, 0, S, S, S, 0);
  measureTriangle(h, N, cell, out, S, S, 0, 0, 0, S);
  saturate(h, N, cell, out);
  return out;
}
