import { describe, expect, it } from 'vitest';
import { dacos, dasin, datan, datan2, dcbrt, dcos, dexp, dlog, dlog2, dpow, dsin, dtan, nativeMath } from '../../terrain/dmath';
import { Prng } from '../../terrain/prng';

/** Distance in units in the last place between two doubles of the same sign. */
const F = new Float64Array(1);
const I = new BigInt64Array(F.buffer);
function ulps(a: number, b: number): number {
  if (Object.is(a, b)) return 0;
  F[0] = a;
  const ia = I[0]!;
  F[0] = b;
  const ib = I[0]!;
  return Number(ia > ib ? ia - ib : ib - ia);
}

const rng = new Prng(99);
// arguments spread over many binades: ±[1e-6, 1e4]
const args = Array.from({ length: 20000 }, () => (rng.next() < 0.5 ? -1 : 1) * 10 ** (rng.range(-6, 4)));

function maxUlps(f: (x: number) => number, ref: (x: number) => number, xs: number[]): number {
  let m = 0;
  for (const x of xs) m = Math.max(m, ulps(f(x), ref(x)));
  return m;
}

describe('deterministic math (fdlibm ports, + − × ÷ √ only)', () => {
  // The engine's libm and fdlibm are both faithful (< 1 ulp from the true value), so they differ by at most 1 ulp.
  it('sin, cos, exp, log, atan, atan2, cbrt are within 1 ulp of the engine', () => {
    expect(maxUlps(dsin, nativeMath.sin, args)).toBeLessThanOrEqual(1);
    expect(maxUlps(dcos, nativeMath.cos, args)).toBeLessThanOrEqual(1);
    const e = args.map((x) => Math.sign(x) * Math.min(700, Math.abs(x)));
    expect(maxUlps(dexp, nativeMath.exp, e)).toBeLessThanOrEqual(1);
    const pos = args.map(Math.abs);
    expect(maxUlps(dlog, nativeMath.log, pos)).toBeLessThanOrEqual(1);
    expect(maxUlps(datan, nativeMath.atan, args)).toBeLessThanOrEqual(1);
    expect(maxUlps(dcbrt, nativeMath.cbrt, args)).toBeLessThanOrEqual(1);
    let m = 0;
    for (let i = 1; i < args.length; i++) m = Math.max(m, ulps(datan2(args[i]!, args[i - 1]!), nativeMath.atan2(args[i]!, args[i - 1]!)));
    expect(m).toBeLessThanOrEqual(2);
  });

  it('tan = sin/cos, asin/acos via atan2, pow via exp·log: relative error bounded by the composition (a few ulp × |y ln x| for pow)', () => {
    for (const x of args) {
      const t = nativeMath.tan(x);
      expect(Math.abs(dtan(x) - t)).toBeLessThanOrEqual(4 * Number.EPSILON * Math.abs(t) * (1 + t * t));
    }
    for (let i = 0; i < 2000; i++) {
      const u = rng.range(-1, 1);
      expect(Math.abs(dasin(u) - nativeMath.asin(u))).toBeLessThanOrEqual(4 * Number.EPSILON * (1 + 1 / Math.sqrt(1 - u * u)));
      expect(Math.abs(dacos(u) - nativeMath.acos(u))).toBeLessThanOrEqual(4 * Number.EPSILON * (1 + 1 / Math.sqrt(1 - u * u)));
      const x = 10 ** rng.range(-3, 3);
      const y = rng.range(-4, 4);
      const p = nativeMath.pow(x, y);
      expect(Math.abs(dpow(x, y) - p)).toBeLessThanOrEqual(2 * Number.EPSILON * p * (2 + Math.abs(y * Math.log(x))));
    }
  });

  it('exact cases: integer powers, log2 of powers of two, specials, periodic identities', () => {
    expect(dpow(3, 4)).toBe(81);
    expect(dpow(2, -3)).toBe(0.125);
    expect(dpow(-2, 3)).toBe(-8);
    expect(dpow(-2, 0.5)).toBeNaN();
    expect(dpow(0, 2)).toBe(0);
    expect(dpow(5, 0)).toBe(1);
    for (let k = -1070; k <= 1023; k += 7) expect(dlog2(2 ** k)).toBe(k);
    expect(dexp(0)).toBe(1);
    expect(dexp(-Infinity)).toBe(0);
    expect(dexp(1000)).toBe(Infinity);
    expect(dlog(1)).toBe(0);
    expect(dlog(0)).toBe(-Infinity);
    expect(dlog(-1)).toBeNaN();
    expect(dsin(0)).toBe(0);
    expect(Object.is(dsin(-0), -0)).toBe(true);
    expect(dcos(0)).toBe(1);
    expect(dsin(Infinity)).toBeNaN();
    expect(datan2(0, -1)).toBe(Math.PI);
    expect(datan2(1, 0)).toBe(Math.PI / 2);
    expect(datan(Infinity)).toBe(Math.PI / 2);
    expect(dcbrt(-27)).toBe(-3);
    // large wheel angles (a 10-minute drive spins a wheel to ~6e4 rad): sin² + cos² = 1 to rounding
    for (const x of [6.5e4, 1.2345e5, 9.87654e5]) expect(Math.abs(dsin(x) ** 2 + dcos(x) ** 2 - 1)).toBeLessThan(4e-16);
  });
});
