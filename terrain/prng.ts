/**
 * The one seeded PRNG of the project: sfc32 ("Small Fast Counter", Doty-Humphrey; 128-bit state, passes PractRand).
 * Deterministic, no Math.random (docs/architecture.md, Determinism). Two seedings share the generator, because
 * shipped stages and recorded replays pin their sequences:
 *  - `Prng` (the simulation world's PRNG, src/ecs/world.ts): splitmix32 with the murmur3 finaliser, then 12
 *    warm-up draws; its state is a Uint32Array so it can be hashed and saved in replay keyframes.
 *  - `createRng` (stage and circuit generation): splitmix32 with Vigna's finaliser constants, no warm-up.
 */
export type Rng = () => number;

/** 2³², to map a 32-bit output to [0, 1). */
const TWO_POW_32 = 4294967296;

/** One sfc32 step on the four-word state `s` (updated in place); returns the 32-bit output. */
export function sfc32Next(s: Uint32Array): number {
  const t = (((s[0]! + s[1]!) >>> 0) + s[3]!) >>> 0;
  s[3] = (s[3]! + 1) >>> 0;
  s[0] = s[1]! ^ (s[1]! >>> 9);
  s[1] = (s[2]! + (s[2]! << 3)) >>> 0;
  s[2] = ((s[2]! << 21) | (s[2]! >>> 11)) >>> 0;
  s[2] = (s[2]! + t) >>> 0;
  return t;
}

/** The simulation world's PRNG (seeding above); `s` is its whole state. */
export class Prng {
  readonly s = new Uint32Array(4);

  constructor(seed: number) {
    this.reseed(seed);
  }

  reseed(seed: number): void {
    let x = seed >>> 0;
    for (let i = 0; i < 4; i++) {
      // splitmix32, murmur3 finaliser
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      this.s[i] = (z ^ (z >>> 16)) >>> 0;
    }
    for (let i = 0; i < 12; i++) this.nextU32();
  }

  nextU32(): number {
    return sfc32Next(this.s);
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextU32() / TWO_POW_32;
  }

  range(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }
}

function splitmix32(a: number): () => number {
  return () => {
    a = (a + 0x9e3779b9) | 0;
    let t = a ^ (a >>> 16);
    t = Math.imul(t, 0x21f0aaad);
    t ^= t >>> 15;
    t = Math.imul(t, 0x735a2d97);
    t ^= t >>> 15;
    return t >>> 0;
  };
}

/** Returns a function giving uniform floats in [0, 1) (generation's seeding above). */
export function createRng(seed: number): Rng {
  const sm = splitmix32(seed >>> 0);
  const s = new Uint32Array([sm(), sm(), sm(), sm()]);
  return () => sfc32Next(s) / TWO_POW_32;
}

export function randRange(rng: Rng, lo: number, hi: number): number {
  return lo + (hi - lo) * rng();
}
