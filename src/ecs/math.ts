/**
 * Small allocation-free vector and quaternion helpers on plain numbers / Float64Array slots.
 * Quaternions are (w, x, y, z), Hamilton convention, rotating body → world.
 */

export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

export const vec3 = (x = 0, y = 0, z = 0): Vec3 => ({ x, y, z });

/** Rotation matrix (row-major 9) from a unit quaternion. */
export function quatToMat3(w: number, x: number, y: number, z: number, m: Float64Array | number[]): void {
  const xx = x * x,
    yy = y * y,
    zz = z * z,
    xy = x * y,
    xz = x * z,
    yz = y * z,
    wx = w * x,
    wy = w * y,
    wz = w * z;
  m[0] = 1 - 2 * (yy + zz);
  m[1] = 2 * (xy - wz);
  m[2] = 2 * (xz + wy);
  m[3] = 2 * (xy + wz);
  m[4] = 1 - 2 * (xx + zz);
  m[5] = 2 * (yz - wx);
  m[6] = 2 * (xz - wy);
  m[7] = 2 * (yz + wx);
  m[8] = 1 - 2 * (xx + yy);
}

/** out = R · v (body → world) for row-major R. */
export function mat3MulVec(m: ArrayLike<number>, x: number, y: number, z: number, out: Vec3): Vec3 {
  out.x = m[0]! * x + m[1]! * y + m[2]! * z;
  out.y = m[3]! * x + m[4]! * y + m[5]! * z;
  out.z = m[6]! * x + m[7]! * y + m[8]! * z;
  return out;
}

/** out = Rᵀ · v (world → body). */
export function mat3TMulVec(m: ArrayLike<number>, x: number, y: number, z: number, out: Vec3): Vec3 {
  out.x = m[0]! * x + m[3]! * y + m[6]! * z;
  out.y = m[1]! * x + m[4]! * y + m[7]! * z;
  out.z = m[2]! * x + m[5]! * y + m[8]! * z;
  return out;
}

/** Quaternion from axis (unit) and angle. */
export function quatFromAxisAngle(ax: number, ay: number, az: number, angle: number): [number, number, number, number] {
  const h = angle / 2;
  const s = Math.sin(h);
  return [Math.cos(h), ax * s, ay * s, az * s];
}

/** Yaw about +Y: heading 0 looks along +Z (body forward). */
export function quatFromYaw(yaw: number): [number, number, number, number] {
  return quatFromAxisAngle(0, 1, 0, yaw);
}

export function quatMul(
  aw: number,
  ax: number,
  ay: number,
  az: number,
  bw: number,
  bx: number,
  by: number,
  bz: number,
): [number, number, number, number] {
  return [
    aw * bw - ax * bx - ay * by - az * bz,
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
  ];
}

export const clamp = (v: number, lo: number, hi: number): number => (v < lo ? lo : v > hi ? hi : v);
