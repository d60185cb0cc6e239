/**
 * A headless `LodCamera` for measuring the geomipmap without a renderer (tests, benches): a right-handed
 * look-at view (up +Y) times an OpenGL perspective, column-major like Babylon's matrices.
 */
import type { LodCamera } from './geomipmap';
import { dtan } from './dmath';

export interface LookAtOptions {
  /** Vertical field of view, rad. */
  fovY: number;
  /** Viewport width / height. */
  aspect: number;
  viewportHeightPx: number;
  /** Clip distances, m. */
  near: number;
  far: number;
}

type Vec3 = readonly [number, number, number];

function normalise(x: number, y: number, z: number): [number, number, number] {
  const l = Math.sqrt(x * x + y * y + z * z);
  return [x / l, y / l, z / l];
}

/** Camera at `eye` looking at `target`. */
export function lookAtLodCamera(eye: Vec3, target: Vec3, o: LookAtOptions): LodCamera {
  const [ex, ey, ez] = eye;
  const [fx, fy, fz] = normalise(target[0] - ex, target[1] - ey, target[2] - ez);
  const [sx, sy, sz] = normalise(-fz, 0, fx); // s = f × up
  const ux = sy * fz - sz * fy, uy = sz * fx - sx * fz, uz = sx * fy - sy * fx;
  const V = [sx, ux, -fx, 0, sy, uy, -fy, 0, sz, uz, -fz, 0, -(sx * ex + sy * ey + sz * ez), -(ux * ex + uy * ey + uz * ez), fx * ex + fy * ey + fz * ez, 1];
  const f = 1 / dtan(o.fovY / 2), { near, far } = o;
  const P = [f / o.aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, (far + near) / (near - far), -1, 0, 0, (2 * far * near) / (near - far), 0];
  const M = new Float32Array(16);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += P[k * 4 + r]! * V[c * 4 + k]!;
      M[c * 4 + r] = s;
    }
  }
  return { position: { x: ex, y: ey, z: ez }, viewProj: M, fovY: o.fovY, viewportHeightPx: o.viewportHeightPx };
}
