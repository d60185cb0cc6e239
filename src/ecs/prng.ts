/**
 * Seeded PRNG for the simulation (determinism: no Math.random in sim code).
 * sfc32 ("Small Fast Counter", Doty-Humphrey): 128-bit state, passes PractRand; seeded via splitmix32.
 * The state lives in a Uint32Array so it can be hashed and saved in replay keyframes.
 */
export class Prng {
  readonly s = new Uint32Array(4);

  constructor(seed: number) {
    this.reseed(seed);
  }

  reseed(seed: number): void {
    let x = seed >>> 0;
    for (let i = 0; i < 4; i++) {
      // splitmix32
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      this.s[i] = (z ^ (z >>> 16)) >>> 0;
    }
    for (let i = 0; i < 12; i++) this.nextU32();
  }

  nextU32(): number {
    const s = this.s;
    const t = (((s[0]! + s[1]!) >>> 0) + s[3]!) >>> 0;
    s[3] = (s[3]! + 1) >>> 0;
    s[0] = s[1]! ^ (s[1]! >>> 9);
    s[1] = (s[2]! + (s[2]! << 3)) >>> 0;
    s[2] = ((s[2]! << 21) | (s[2]! >>> 11)) >>> 0;
    s[2] = (s[2]! + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextU32() / 4294967296;
  }

  range(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }
}
