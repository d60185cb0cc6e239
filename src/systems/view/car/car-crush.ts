/**
 * Damage on a generated body: each corner's crush (0..1) pushes the panels near that corner in (towards the
 * centre and down), fading to nothing at the doors, so the panel nearest the crush deforms. Face normals are
 * recomputed so the dent shades. Pure: works on the MeshData arrays.
 */
/** Full crush moves a corner's end this far, m: in along the car, in across it, and down. */
export const CRUSH_IN_M = 0.25;
export const CRUSH_SIDE_M = 0.08;
export const CRUSH_DOWN_M = 0.05;
/** The dent starts this far from the centre (fraction of the length) and is full at the ends. */
const DENT_START = 0.2;

/** Corner of a body-frame point: 0 front-left, 1 front-right, 2 rear-left, 3 rear-right (+X is left). */
export function cornerOf(x: number, z: number): number {
  return (z >= 0 ? 0 : 2) + (x >= 0 ? 0 : 1);
}

/** How much of its corner's crush a point at z takes, 0 at the doors to 1 at the end of a car of length L. */
export function dentWeight(z: number, lengthM: number): number {
  const t = (Math.abs(z) / lengthM - DENT_START) / (0.5 - DENT_START);
  return Math.max(0, Math.min(1, t));
}

/** Write the crushed positions of `rest` into `out` and the face normals into `normals` (triangles of 3 vertices). */
export function crushPositions(rest: Float32Array, lengthM: number, corners: readonly number[], out: Float32Array, normals: Float32Array): void {
  for (let i = 0; i < rest.length; i += 3) {
    const x = rest[i]!;
    const y = rest[i + 1]!;
    const z = rest[i + 2]!;
    const c = Math.max(0, Math.min(1, corners[cornerOf(x, z)] ?? 0)) * dentWeight(z, lengthM);
    out[i] = x - Math.sign(x) * CRUSH_SIDE_M * c;
    out[i + 1] = y - CRUSH_DOWN_M * c;
    out[i + 2] = z - Math.sign(z) * CRUSH_IN_M * c;
  }
  faceNormals(out, normals);
}

function faceNormals(p: Float32Array, n: Float32Array): void {
  for (let t = 0; t < p.length; t += 9) {
    const ux = p[t + 3]! - p[t]!, uy = p[t + 4]! - p[t + 1]!, uz = p[t + 5]! - p[t + 2]!;
    const vx = p[t + 6]! - p[t]!, vy = p[t + 7]! - p[t + 1]!, vz = p[t + 8]! - p[t + 2]!;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const len = Math.hypot(nx, ny, nz) || 1;
    for (let k = 0; k < 9; k += 3) {
      n[t + k] = nx / len;
      n[t + k + 1] = ny / len;
      n[t + k + 2] = nz / len;
    }
  }
}
