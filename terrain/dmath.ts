/**
 * Deterministic elementary functions: the same bits in every JavaScript engine.
 *
 * ECMAScript leaves Math.sin, exp, log, atan2, pow… "implementation-approximated": Chromium 156 and Node 20
 * (V8 11.3) return different last bits for ~2–15 % of arguments (measured: sin 2 %, exp 7 %, atan2 18 %,
 * pow 8 %; sqrt and hypot agree). A replay recorded in the browser and verified in Node then drifts by one
 * ulp within the first second and desyncs. These ports of FreeBSD/Sun fdlibm 5.3 (e_exp.c, e_log.c,
 * k_sin.c, k_cos.c, e_rem_pio2.c medium-argument path, s_atan.c, e_atan2.c, s_cbrt.c) use only + − × ÷,
 * sqrt (IEEE-exact) and bit access, so every engine rounds identically; accuracy < 1 ulp like fdlibm.
 * tan = sin/cos, asin/acos via atan2, pow = exp(y·log x) with exact integer powers by squaring; log2 is
 * exact on powers of two. Non-finite arguments go to the native function (special values are exact).
 *
 * Simulation and content code (terrain/, src/ecs, src/systems/sim, src/run, src/replay, src/content,
 * src/validate) imports these instead of calling Math.sin & co. (an ESLint rule refuses the Math ones there);
 * the page's own Math (Babylon, Howler, uPlot) is left alone. This file is in terrain/, the bottom layer, so
 * every simulation folder may import it.
 */
const F = new Float64Array(1);
const U = new Uint32Array(F.buffer); // little-endian: U[0] low word, U[1] high word

const hiWord = (x: number): number => {
  F[0] = x;
  return U[1]! | 0;
};
const loWord = (x: number): number => {
  F[0] = x;
  return U[0]!;
};
const fromWords = (hi: number, lo: number): number => {
  U[1] = hi >>> 0;
  U[0] = lo >>> 0;
  return F[0]!;
};
const withHigh = (x: number, hi: number): number => {
  F[0] = x;
  U[1] = hi >>> 0;
  return F[0]!;
};

// The engine's own functions, kept for exact special values (±0, ±Infinity, NaN) and for the tests that bound
// the ports against them: the one place in the simulation folders that may name them.
/* eslint-disable no-restricted-properties */
const native = {
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  atan: Math.atan,
  atan2: Math.atan2,
  asin: Math.asin,
  acos: Math.acos,
  exp: Math.exp,
  log: Math.log,
  log2: Math.log2,
  log10: Math.log10,
  pow: Math.pow,
  cbrt: Math.cbrt,
};
/* eslint-enable no-restricted-properties */

// ---- exp (e_exp.c) ---------------------------------------------------------------------------------
const O_THRESHOLD = 7.09782712893383973096e2;
const U_THRESHOLD = -7.45133219101941108420e2;
const LN2_HI = 6.93147180369123816490e-1;
const LN2_LO = 1.90821492927058770002e-10;
const INV_LN2 = 1.44269504088896338700;
const P1 = 1.66666666666666019037e-1;
const P2 = -2.77777777770155933842e-3;
const P3 = 6.61375632143793436117e-5;
const P4 = -1.65339022054652515390e-6;
const P5 = 4.13813679705723846039e-8;
const TWOM1000 = 9.33263618503218878990e-302; // 2^-1000

export function dexp(x: number): number {
  if (!Number.isFinite(x)) return native.exp(x);
  if (x > O_THRESHOLD) return Infinity;
  if (x < U_THRESHOLD) return 0;
  const hx = hiWord(x);
  const xsb = (hx >>> 31) & 1;
  const ix = hx & 0x7fffffff;
  let hi = 0;
  let lo = 0;
  let k = 0;
  if (ix > 0x3fd62e42) {
    if (ix < 0x3ff0a2b2) {
      hi = xsb ? x + LN2_HI : x - LN2_HI;
      lo = xsb ? -LN2_LO : LN2_LO;
      k = 1 - xsb - xsb;
    } else {
      k = (INV_LN2 * x + (xsb ? -0.5 : 0.5)) | 0;
      hi = x - k * LN2_HI;
      lo = k * LN2_LO;
    }
    x = hi - lo;
  } else if (ix < 0x3e300000) {
    return 1 + x;
  }
  const t = x * x;
  const c = x - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
  if (k === 0) return 1 - ((x * c) / (c - 2.0) - x);
  const y = 1 - (lo - (x * c) / (2.0 - c) - hi);
  if (k >= -1021) return withHigh(y, hiWord(y) + (k << 20));
  return withHigh(y, hiWord(y) + ((k + 1000) << 20)) * TWOM1000;
}

// ---- log (e_log.c) ---------------------------------------------------------------------------------
const TWO54 = 1.80143985094819840000e16;
const LG1 = 6.666666666666735130e-1;
const LG2 = 3.999999999940941908e-1;
const LG3 = 2.857142874366239149e-1;
const LG4 = 2.222219843214978396e-1;
const LG5 = 1.818357216161805012e-1;
const LG6 = 1.531383769920937332e-1;
const LG7 = 1.479819860511658591e-1;

export function dlog(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return native.log(x);
  let hx = hiWord(x);
  let k = 0;
  if (hx < 0x00100000) {
    k -= 54;
    x *= TWO54;
    hx = hiWord(x);
  }
  k += (hx >> 20) - 1023;
  hx &= 0x000fffff;
  const i0 = (hx + 0x95f64) & 0x100000;
  x = withHigh(x, hx | (i0 ^ 0x3ff00000));
  k += i0 >> 20;
  const f = x - 1.0;
  const dk = k;
  if ((0x000fffff & (2 + hx)) < 3) {
    if (f === 0) return k === 0 ? 0 : dk * LN2_HI + dk * LN2_LO;
    const R = f * f * (0.5 - 0.3333333333333333 * f);
    return k === 0 ? f - R : dk * LN2_HI - (R - dk * LN2_LO - f);
  }
  const s = f / (2.0 + f);
  const z = s * s;
  let i = hx - 0x6147a;
  const w = z * z;
  const j = 0x6b851 - hx;
  const t1 = w * (LG2 + w * (LG4 + w * LG6));
  const t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
  i |= j;
  const R = t2 + t1;
  if (i > 0) {
    const hfsq = 0.5 * f * f;
    return k === 0 ? f - (hfsq - s * (hfsq + R)) : dk * LN2_HI - (hfsq - (s * (hfsq + R) + dk * LN2_LO) - f);
  }
  return k === 0 ? f - s * (f - R) : dk * LN2_HI - (s * (f - R) - dk * LN2_LO - f);
}

const INV_LN2_FULL = 1.4426950408889634;
const INV_LN10 = 0.4342944819032518;

/** log2: exact on powers of two (level counts use it), log(x)/ln 2 otherwise. */
export function dlog2(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return native.log2(x);
  const hx = hiWord(x);
  if ((hx & 0x000fffff) === 0 && loWord(x) === 0 && hx >= 0x00100000) return (hx >> 20) - 1023;
  return dlog(x) * INV_LN2_FULL;
}

export function dlog10(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return native.log10(x);
  return dlog(x) * INV_LN10;
}

// ---- sin / cos (k_sin.c, k_cos.c, e_rem_pio2.c) ---------------------------------------------------
const S1 = -1.66666666666666324348e-1;
const S2 = 8.33333333332248946124e-3;
const S3 = -1.98412698298579493134e-4;
const S4 = 2.75573137070700676789e-6;
const S5 = -2.50507602534068634195e-8;
const S6 = 1.58969099521155010221e-10;
const C1 = 4.16666666666666019037e-2;
const C2 = -1.38888888888741095749e-3;
const C3 = 2.48015872894767294178e-5;
const C4 = -2.75573143513906633035e-7;
const C5 = 2.08757232129817482790e-9;
const C6 = -1.13596475577881948265e-11;

function kSin(x: number, y: number, iy: number): number {
  const ix = hiWord(x) & 0x7fffffff;
  if (ix < 0x3e400000 && (x | 0) === 0) return x;
  const z = x * x;
  const v = z * x;
  const r = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
  if (iy === 0) return x + v * (S1 + z * r);
  return x - (z * (0.5 * y - v * r) - y - v * S1);
}

function kCos(x: number, y: number): number {
  const ix = hiWord(x) & 0x7fffffff;
  if (ix < 0x3e400000 && (x | 0) === 0) return 1;
  const z = x * x;
  const r = z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6)))));
  if (ix < 0x3fd33333) return 1 - (0.5 * z - (z * r - x * y));
  const qx = ix > 0x3fe90000 ? 0.28125 : fromWords(ix - 0x00200000, 0);
  const hz = 0.5 * z - qx;
  const a = 1 - qx;
  return a - (hz - (z * r - x * y));
}

const INV_PIO2 = 6.36619772367581382433e-1;
const PIO2_1 = 1.57079632673412561417;
const PIO2_1T = 6.07710050650619224932e-11;
const PIO2_2 = 6.07710050630396597660e-11;
const PIO2_2T = 2.02226624879595063154e-21;
const PIO2_3 = 2.02226624871116645580e-21;
const PIO2_3T = 8.47842766036889956997e-32;

/** x = n·π/2 + (y0 + y1); returns n. Cody–Waite in three parts (fdlibm's medium path; used for every size). */
const Y = new Float64Array(2);
function remPio2(x: number): number {
  const hx = hiWord(x);
  const ix = hx & 0x7fffffff;
  if (ix < 0x4002d97c) {
    // |x| < 3π/4: n = ±1
    if (hx > 0) {
      let z = x - PIO2_1;
      if (ix !== 0x3ff921fb) {
        Y[0] = z - PIO2_1T;
        Y[1] = z - Y[0]! - PIO2_1T;
      } else {
        z -= PIO2_2;
        Y[0] = z - PIO2_2T;
        Y[1] = z - Y[0]! - PIO2_2T;
      }
      return 1;
    }
    let z = x + PIO2_1;
    if (ix !== 0x3ff921fb) {
      Y[0] = z + PIO2_1T;
      Y[1] = z - Y[0]! + PIO2_1T;
    } else {
      z += PIO2_2;
      Y[0] = z + PIO2_2T;
      Y[1] = z - Y[0]! + PIO2_2T;
    }
    return -1;
  }
  const t0 = Math.abs(x);
  // n = round(|x|·2/π): floor(v + 0.5) is exact integer arithmetic for every size we accept
  const fn = Math.floor(t0 * INV_PIO2 + 0.5);
  let r = t0 - fn * PIO2_1;
  let w = fn * PIO2_1T;
  const j = ix >> 20;
  let y0 = r - w;
  let i = j - ((hiWord(y0) >> 20) & 0x7ff);
  if (i > 16) {
    let t = r;
    w = fn * PIO2_2;
    r = t - w;
    w = fn * PIO2_2T - (t - r - w);
    y0 = r - w;
    i = j - ((hiWord(y0) >> 20) & 0x7ff);
    if (i > 49) {
      t = r;
      w = fn * PIO2_3;
      r = t - w;
      w = fn * PIO2_3T - (t - r - w);
      y0 = r - w;
    }
  }
  const y1 = r - y0 - w;
  const n = fn % 4; // only n mod 4 matters
  if (hx < 0) {
    Y[0] = -y0;
    Y[1] = -y1;
    return -n;
  }
  Y[0] = y0;
  Y[1] = y1;
  return n;
}

export function dsin(x: number): number {
  const ix = hiWord(x) & 0x7fffffff;
  if (ix <= 0x3fe921fb) return kSin(x, 0, 0);
  if (ix >= 0x7ff00000) return NaN;
  const n = remPio2(x) & 3;
  const y0 = Y[0]!, y1 = Y[1]!;
  switch (n) {
    case 0:
      return kSin(y0, y1, 1);
    case 1:
      return kCos(y0, y1);
    case 2:
      return -kSin(y0, y1, 1);
    default:
      return -kCos(y0, y1);
  }
}

export function dcos(x: number): number {
  const ix = hiWord(x) & 0x7fffffff;
  if (ix <= 0x3fe921fb) return kCos(x, 0);
  if (ix >= 0x7ff00000) return NaN;
  const n = remPio2(x) & 3;
  const y0 = Y[0]!, y1 = Y[1]!;
  switch (n) {
    case 0:
      return kCos(y0, y1);
    case 1:
      return -kSin(y0, y1, 1);
    case 2:
      return -kCos(y0, y1);
    default:
      return kSin(y0, y1, 1);
  }
}

export function dtan(x: number): number {
  const ix = hiWord(x) & 0x7fffffff;
  if (ix <= 0x3fe921fb) return ix < 0x3e400000 ? x : kSin(x, 0, 0) / kCos(x, 0);
  if (ix >= 0x7ff00000) return NaN;
  const n = remPio2(x) & 3;
  const s = kSin(Y[0]!, Y[1]!, 1);
  const c = kCos(Y[0]!, Y[1]!);
  return n & 1 ? -c / s : s / c;
}

// ---- atan / atan2 (s_atan.c, e_atan2.c) -----------------------------------------------------------
const ATANHI = [4.63647609000806093515e-1, 7.85398163397448278999e-1, 9.82793723247329054082e-1, 1.57079632679489655800];
const ATANLO = [2.26987774529616870924e-17, 3.06161699786838301793e-17, 1.39033110312309984516e-17, 6.12323399573676603587e-17];
const AT = [
  3.33333333333329318027e-1, -1.99999999998764832476e-1, 1.42857142725034663711e-1, -1.11111104054623557880e-1, 9.09088713343650656196e-2, -7.69187620504482999495e-2,
  6.66107313738753120669e-2, -5.83357013379057348645e-2, 4.97687799461593236017e-2, -3.65315727442169155270e-2, 1.62858201153657823623e-2,
] as const;

export function datan(x: number): number {
  const hx = hiWord(x);
  const ix = hx & 0x7fffffff;
  if (ix >= 0x44100000) {
    if (Number.isNaN(x)) return NaN;
    return hx > 0 ? ATANHI[3]! + ATANLO[3]! : -ATANHI[3]! - ATANLO[3]!;
  }
  let id: number;
  if (ix < 0x3fdc0000) {
    if (ix < 0x3e200000) return x;
    id = -1;
  } else {
    x = Math.abs(x);
    if (ix < 0x3ff30000) {
      if (ix < 0x3fe60000) {
        id = 0;
        x = (2.0 * x - 1.0) / (2.0 + x);
      } else {
        id = 1;
        x = (x - 1.0) / (x + 1.0);
      }
    } else if (ix < 0x40038000) {
      id = 2;
      x = (x - 1.5) / (1.0 + 1.5 * x);
    } else {
      id = 3;
      x = -1.0 / x;
    }
  }
  const z = x * x;
  const w = z * z;
  const s1 = z * (AT[0] + w * (AT[2] + w * (AT[4] + w * (AT[6] + w * (AT[8] + w * AT[10])))));
  const s2 = w * (AT[1] + w * (AT[3] + w * (AT[5] + w * (AT[7] + w * AT[9]))));
  if (id < 0) return x - x * (s1 + s2);
  const r = ATANHI[id]! - (x * (s1 + s2) - ATANLO[id]! - x);
  return hx < 0 ? -r : r;
}

const PI = 3.141592653589793;
const PI_LO = 1.2246467991473532e-16;
const PI_O_2 = 1.5707963267948966;

export function datan2(y: number, x: number): number {
  if (!Number.isFinite(x) || !Number.isFinite(y) || x === 0 || y === 0) return native.atan2(y, x); // exact special cases
  if (x === 1) return datan(y);
  const hx = hiWord(x);
  const hy = hiWord(y);
  const ix = hx & 0x7fffffff;
  const iy = hy & 0x7fffffff;
  const m = ((hy >>> 31) & 1) | ((hx >>> 30) & 2);
  const k = (iy - ix) >> 20;
  let z: number;
  if (k > 60) z = PI_O_2 + 0.5 * PI_LO;
  else if (hx < 0 && k < -60) z = 0;
  else z = datan(Math.abs(y / x));
  switch (m) {
    case 0:
      return z;
    case 1:
      return -z;
    case 2:
      return PI - (z - PI_LO);
    default:
      return z - PI_LO - PI;
  }
}

export function dasin(x: number): number {
  if (!(Math.abs(x) <= 1)) return NaN;
  if (x === 0) return x;
  return datan2(x, Math.sqrt((1 - x) * (1 + x)));
}

export function dacos(x: number): number {
  if (!(Math.abs(x) <= 1)) return NaN;
  return datan2(Math.sqrt((1 - x) * (1 + x)), x);
}

// ---- pow, cbrt ----------------------------------------------------------------------------------------
export function dpow(x: number, y: number): number {
  if (y === 0) return 1;
  if (!Number.isFinite(x) || !Number.isFinite(y) || Number.isNaN(x) || x === 0) return native.pow(x, y); // exact specials
  if (x === 1) return 1;
  if (Number.isInteger(y) && Math.abs(y) <= 64) {
    let n = Math.abs(y);
    let b = x;
    let r = 1;
    while (n > 0) {
      if (n & 1) r *= b;
      b *= b;
      n >>= 1;
    }
    return y < 0 ? 1 / r : r;
  }
  if (x < 0) {
    if (!Number.isInteger(y)) return NaN;
    const odd = Math.abs(y) % 2 === 1;
    const r = dexp(y * dlog(-x));
    return odd ? -r : r;
  }
  return dexp(y * dlog(x));
}

const CB_B1 = 715094163;
const CB_B2 = 696219795;
const CB_C = 5.42857142857142815906e-1;
const CB_D = -7.05306122448979611050e-1;
const CB_E = 1.41428571428571436819;
const CB_F = 1.60714285714285720630;
const CB_G = 3.57142857142857150787e-1;

export function dcbrt(x: number): number {
  if (!Number.isFinite(x) || x === 0) return native.cbrt(x);
  let hx = hiWord(x);
  const sign = hx & 0x80000000;
  hx = (hx ^ sign) >>> 0;
  const ax = Math.abs(x);
  let t: number;
  if (hx < 0x00100000) {
    t = fromWords(0x43500000, 0) * ax;
    t = withHigh(t, Math.floor((hiWord(t) >>> 0) / 3) + CB_B2);
  } else t = fromWords(Math.floor(hx / 3) + CB_B1, 0);
  let r = (t * t) / ax;
  let s = CB_C + r * t;
  t *= CB_G + CB_F / (s + CB_E + CB_D / s);
  t = fromWords(hiWord(t) + 1, 0);
  s = t * t;
  r = ax / s;
  const w = t + t;
  r = (r - t) / (w + r);
  t = t + t * r;
  return sign ? -t : t;
}

/** The engine's own functions (tests compare against them). */
export const nativeMath = native;
