/**
 * Vertex normals for generated scenery meshes (trees, rocks) that point away from the object's inside, whatever
 * the triangles' winding: each face normal is turned to face away from a centre point, then the area-weighted
 * face normals are summed per vertex and normalised. (Babylon's ComputeNormals follows the winding, which made
 * the lathe crowns' normals point inward and down: the crowns were lit from below, dark grey even under snow.)
 */

/** The point a face at (x, y, z) must face away from (a lathe's axis at that height, a rock's middle). */
export type CentreAt = (x: number, y: number, z: number) => readonly [number, number, number];

/** Outward unit vertex normals (x, y, z per vertex) of an indexed triangle mesh. */
export function outwardNormals(positions: readonly number[], indices: readonly number[], centreAt: CentreAt): number[] {
  const n = new Array<number>(positions.length).fill(0);
  const p = positions;
  for (let t = 0; t < indices.length; t += 3) {
    const a = 3 * indices[t]!, b = 3 * indices[t + 1]!, c = 3 * indices[t + 2]!;
    const ux = p[b]! - p[a]!, uy = p[b + 1]! - p[a + 1]!, uz = p[b + 2]! - p[a + 2]!;
    const vx = p[c]! - p[a]!, vy = p[c + 1]! - p[a + 1]!, vz = p[c + 2]! - p[a + 2]!;
    // cross product: length = twice the face's area (area weighting)
    let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const gx = (p[a]! + p[b]! + p[c]!) / 3, gy = (p[a + 1]! + p[b + 1]! + p[c + 1]!) / 3, gz = (p[a + 2]! + p[b + 2]! + p[c + 2]!) / 3;
    const o = centreAt(gx, gy, gz);
    if (nx * (gx - o[0]) + ny * (gy - o[1]) + nz * (gz - o[2]) < 0) {
      nx = -nx;
      ny = -ny;
      nz = -nz;
    }
    for (const v of [a, b, c]) {
      n[v] = n[v]! + nx;
      n[v + 1] = n[v + 1]! + ny;
      n[v + 2] = n[v + 2]! + nz;
    }
  }
  for (let v = 0; v < n.length; v += 3) {
    const l = Math.hypot(n[v]!, n[v + 1]!, n[v + 2]!) || 1;
    n[v] = n[v]! / l;
    n[v + 1] = n[v + 1]! / l;
    n[v + 2] = n[v + 2]! / l;
  }
  return n;
}
