/**
 * The engine's own Math under terrain/dmath.ts's names, for the peers benchmark's "native Math" variant: a
 * module hook (bench/native-math-register.mjs) resolves terrain/dmath.ts to this file in that process, so the
 * simulation runs unchanged with Math.sin & co. in place of the deterministic ports. Never used by the game.
 */
export const dexp = Math.exp;
export const dlog = Math.log;
export const dlog2 = Math.log2;
export const dlog10 = Math.log10;
export const dsin = Math.sin;
export const dcos = Math.cos;
export const dtan = Math.tan;
export const datan = Math.atan;
export const datan2 = Math.atan2;
export const dasin = Math.asin;
export const dacos = Math.acos;
export const dpow = Math.pow;
export const dcbrt = Math.cbrt;
export const nativeMath = { sin: Math.sin, cos: Math.cos, tan: Math.tan, atan: Math.atan, atan2: Math.atan2, asin: Math.asin, acos: Math.acos, exp: Math.exp, log: Math.log, log2: Math.log2, log10: Math.log10, pow: Math.pow, cbrt: Math.cbrt };
