/**
 * The generated sky (no downloaded images): a square RGBA texture seen from below in an azimuthal equidistant
 * projection (centre = zenith, rim circle = horizon), painted with a horizon-to-zenith gradient, a sun disc and
 * glow toward the sun light's direction, and procedural clouds (value-noise fBm on a flat cloud layer, so they
 * shrink toward the horizon as real cumulus do). The rim is exactly the horizon colour, which is also the fog
 * colour, so distant terrain fades into the sky without a seam. `skyUv` maps a dome vertex to the texture.
 */

export interface SkyColors {
  top: readonly [number, number, number];
  horizon: readonly [number, number, number];
}

/** Sun disc angular radius, rad (drawn larger than the real 0.27° so it reads at game resolutions). */
const SUN_DISC_RAD = 0.035;
/** Glow around the sun: brightness added at angle θ is GLOW·exp(−θ / GLOW_RAD). */
const GLOW = 0.35;
const GLOW_RAD = 0.18;
/** Cloud layer: noise cells per unit of the plane y = 1 (the layer seen straight up spans a few cells). */
const CLOUD_SCALE = 2.2;
/** fBm value below which the sky is clear, and above which (+ CLOUD_SOFT) fully cloudy. */
const CLOUD_COVER = 0.52;
const CLOUD_SOFT = 0.22;
/** Elevation (sin) below which clouds fade out into the horizon haze. */
const CLOUD_FADE_SIN = 0.25;

/** Hash of an integer lattice point to [0, 1) (integer mixing, deterministic on every platform). */
function lattice(ix: number, iz: number): number {
  let h = Math.imul(ix, 374761393) ^ Math.imul(iz, 668265263);
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/** Smooth value noise in [0, 1). */
function valueNoise(x: number, z: number): number {
  const ix = Math.floor(x), iz = Math.floor(z);
  const fx = x - ix, fz = z - iz;
  const sx = fx * fx * (3 - 2 * fx), sz = fz * fz * (3 - 2 * fz);
  const a = lattice(ix, iz), b = lattice(ix + 1, iz), c = lattice(ix, iz + 1), d = lattice(ix + 1, iz + 1);
  return a + (b - a) * sx + (c - a) * sz + (a - b - c + d) * sx * sz;
}

/** Four-octave fractal noise, normalised to [0, 1). */
export function cloudNoise(x: number, z: number): number {
  let sum = 0, amp = 0.5, f = 1;
  for (let o = 0; o < 4; o++) {
    sum += amp * valueNoise(x * f, z * f);
    f *= 2;
    amp *= 0.5;
  }
  return sum / 0.9375;
}

/** Texture coordinates (0..1) of a dome direction (need not be unit); below the horizon maps onto the rim. */
export function skyUv(x: number, y: number, z: number): [number, number] {
  const h = Math.hypot(x, z);
  if (h < 1e-9) return [0.5, 0.5];
  const elev = Math.atan2(Math.max(0, y), h);
  const r = 1 - elev / (Math.PI / 2);
  return [0.5 + (0.5 * r * x) / h, 0.5 + (0.5 * r * z) / h];
}

/** Direction (unit) seen at texture coordinates (u, v) inside the rim, or null outside it. */
export function skyDirection(u: number, v: number): [number, number, number] | null {
  const dx = 2 * u - 1, dz = 2 * v - 1;
  const r = Math.hypot(dx, dz);
  if (r > 1) return null;
  const elev = (1 - r) * (Math.PI / 2);
  const c = Math.cos(elev);
  return r < 1e-9 ? [0, 1, 0] : [(c * dx) / r, Math.sin(elev), (c * dz) / r];
}

/** One sky pixel for direction d (unit) with the sun toward `sun` (unit, pointing at the sun). */
function skyPixel(d: readonly [number, number, number], sun: readonly [number, number, number], col: SkyColors): [number, number, number] {
  const k = Math.sqrt(Math.max(0, d[1]));
  let r = col.horizon[0] + (col.top[0] - col.horizon[0]) * k;
  let g = col.horizon[1] + (col.top[1] - col.horizon[1]) * k;
  let b = col.horizon[2] + (col.top[2] - col.horizon[2]) * k;
  if (d[1] > 1e-3) {
    // clouds on the plane y = 1, faded out toward the horizon so the rim stays the fog colour
    const n = cloudNoise((d[0] / d[1]) * CLOUD_SCALE, (d[2] / d[1]) * CLOUD_SCALE);
    const cover = Math.min(1, Math.max(0, (n - CLOUD_COVER) / CLOUD_SOFT)) * Math.min(1, d[1] / CLOUD_FADE_SIN);
    const shade = 0.84 + 0.16 * Math.min(1, (n - CLOUD_COVER) / CLOUD_SOFT + 0.2);
    r += (shade - r) * cover;
    g += (shade - g) * cover;
    b += (shade * 1.02 - b) * cover;
  }
  const cosA = d[0] * sun[0] + d[1] * sun[1] + d[2] * sun[2];
  const ang = Math.acos(Math.min(1, Math.max(-1, cosA)));
  const glow = ang < SUN_DISC_RAD ? 1 : GLOW * Math.exp(-ang / GLOW_RAD) * Math.min(1, d[1] / CLOUD_FADE_SIN);
  return [Math.min(1, r + glow), Math.min(1, g + glow * 0.95), Math.min(1, b + glow * 0.8)];
}

/** The sky texture's RGBA bytes, `size` × `size`, row j at v = (j + 0.5) / size. */
export function paintSky(size: number, sunDir: readonly [number, number, number], col: SkyColors): Uint8Array {
  const l = Math.hypot(sunDir[0], sunDir[1], sunDir[2]) || 1;
  const sun = [sunDir[0] / l, sunDir[1] / l, sunDir[2] / l] as const;
  const px = new Uint8Array(size * size * 4);
  for (let j = 0; j < size; j++)
    for (let i = 0; i < size; i++) {
      const d = skyDirection((i + 0.5) / size, (j + 0.5) / size);
      const c = d ? skyPixel(d, sun, col) : col.horizon;
      const o = 4 * (j * size + i);
      px[o] = Math.round(c[0] * 255);
      px[o + 1] = Math.round(c[1] * 255);
      px[o + 2] = Math.round(c[2] * 255);
      px[o + 3] = 255;
    }
  return px;
}
