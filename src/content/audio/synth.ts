/**
 * Every sound of the game, synthesised by code (no downloaded samples). Each generator returns mono PCM
 * (Float32 in [−1, 1]) at SAMPLE_RATE; `encodeWav` packs it as 16-bit PCM WAV for Howler.
 * Loops are built from a whole number of periods so they repeat without clicks.
 *
 * Engine model: a 4-cylinder four-stroke fires twice per crank revolution, so the firing frequency is
 * f = 2 · rpm / 60 Hz. Each loop is recorded at one reference rpm as a sum of firing harmonics with a
 * per-firing amplitude pulse and some combustion noise; at runtime the loop is replayed at rate
 * rpm / rpm_ref (pitch ∝ rpm) and neighbouring loops are crossfaded in log-rpm.
 */
import { dcos, dexp, dlog, dpow, dsin } from '../../../terrain/dmath';
export const SAMPLE_RATE = 22050;

/** Deterministic noise (xorshift32). */
function noiseGen(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2147483648 - 1;
  };
}

/** One-pole low-pass coefficient for cutoff fc. */
const lpK = (fc: number): number => 1 - dexp((-2 * Math.PI * fc) / SAMPLE_RATE);

function normalize(buf: Float32Array, peak = 0.9): Float32Array {
  let m = 0;
  for (const v of buf) m = Math.max(m, Math.abs(v));
  if (m > 0) for (let i = 0; i < buf.length; i++) buf[i] = (buf[i]! / m) * peak;
  return buf;
}

export interface EngineLoopSpec {
  rpm: number;
  /** Relative weight of the harmonics (1st = firing frequency). */
  harmonics: number[];
  noise: number;
  seed: number;
}

export const ENGINE_LOOPS: EngineLoopSpec[] = [
  { rpm: 1200, harmonics: [1, 0.7, 0.45, 0.25, 0.15, 0.08], noise: 0.08, seed: 11 },
  { rpm: 3000, harmonics: [1, 0.6, 0.5, 0.35, 0.22, 0.14, 0.08], noise: 0.12, seed: 12 },
  { rpm: 5500, harmonics: [0.8, 0.7, 0.6, 0.5, 0.35, 0.25, 0.15, 0.1], noise: 0.16, seed: 13 },
];

export function firingHz(rpm: number): number {
  return (2 * rpm) / 60;
}

export function engineLoop(spec: EngineLoopSpec): Float32Array {
  const f = firingHz(spec.rpm);
  const periods = Math.max(1, Math.round(f * 0.5)); // ~0.5 s loop, whole periods
  const n = Math.round((periods / f) * SAMPLE_RATE);
  const fExact = (periods * SAMPLE_RATE) / n; // frequency that makes the loop seamless
  const out = new Float32Array(n);
  const rnd = noiseGen(spec.seed);
  let lp = 0;
  const k = lpK(2500);
  // half-order rumble (cylinder-to-cylinder unevenness) at f/2 for character
  for (let i = 0; i < n; i++) {
    const t = i / SAMPLE_RATE;
    const ph = 2 * Math.PI * fExact * t;
    let s = 0;
    spec.harmonics.forEach((a, h) => (s += a * dsin((h + 1) * ph + h * 0.7)));
    s += 0.35 * dsin(0.5 * ph);
    const pulse = 0.6 + 0.4 * dpow(0.5 + 0.5 * dcos(ph), 3); // combustion pulse per firing
    lp += k * (rnd() - lp);
    out[i] = s * pulse + spec.noise * 6 * lp * pulse;
  }
  return normalize(out, 0.8);
}

/** Tyre squeal: a 700–1000 Hz tone with slow wobble and a breathy noise part. */
export function squealLoop(): Float32Array {
  const n = SAMPLE_RATE; // 1 s
  const out = new Float32Array(n);
  const rnd = noiseGen(21);
  let lp = 0;
  const k = lpK(1800);
  let ph = 0;
  for (let i = 0; i < n; i++) {
    const t = i / SAMPLE_RATE;
    const f = 820 + 60 * dsin(2 * Math.PI * 3 * t) + 25 * dsin(2 * Math.PI * 7 * t);
    ph += (2 * Math.PI * f) / SAMPLE_RATE;
    lp += k * (rnd() - lp);
    out[i] = 0.6 * dsin(ph) + 0.25 * dsin(2 * ph) + 1.5 * lp;
  }
  // crossfade the ends so the loop is seamless despite the non-integer wobble
  const fade = 800;
  for (let i = 0; i < fade; i++) {
    const a = i / fade;
    out[i] = out[i]! * a + out[n - fade + i]! * (1 - a);
  }
  return normalize(out.subarray(0, n - fade).slice(), 0.7);
}

/** Rolling noise on loose surfaces: band-limited noise plus random stone clicks (gravel) or soft crunch (snow). */
export function rollingLoop(kind: 'gravel' | 'snow' | 'tarmac'): Float32Array {
  const n = SAMPLE_RATE;
  const out = new Float32Array(n);
  const rnd = noiseGen(kind === 'gravel' ? 31 : kind === 'snow' ? 32 : 33);
  const kLo = lpK(kind === 'snow' ? 500 : kind === 'gravel' ? 2200 : 300);
  const kHi = lpK(kind === 'snow' ? 120 : 200);
  let lo = 0;
  let hi = 0;
  let click = 0;
  for (let i = 0; i < n; i++) {
    const w = rnd();
    lo += kLo * (w - lo);
    hi += kHi * (w - hi);
    let s = (lo - hi) * 3;
    if (kind === 'gravel') {
      if (rnd() > 0.9965) click = 0.9 * (rnd() > 0 ? 1 : -1);
      s += click * dsin(i * 1.9);
      click *= 0.86;
    } else if (kind === 'snow') {
      if (rnd() > 0.999) click = 0.5;
      s += click * w;
      click *= 0.995;
    }
    out[i] = s;
  }
  const fade = 600;
  for (let i = 0; i < fade; i++) {
    const a = i / fade;
    out[i] = out[i]! * a + out[n - fade + i]! * (1 - a);
  }
  return normalize(out.subarray(0, n - fade).slice(), 0.7);
}

/** Wind: low-passed noise with slow gusting. */
export function windLoop(): Float32Array {
  const n = 2 * SAMPLE_RATE;
  const out = new Float32Array(n);
  const rnd = noiseGen(41);
  let a = 0;
  let b = 0;
  const ka = lpK(900);
  const kb = lpK(150);
  for (let i = 0; i < n; i++) {
    const w = rnd();
    a += ka * (w - a);
    b += kb * (w - b);
    const g = 0.7 + 0.3 * dsin((2 * Math.PI * i) / n);
    out[i] = (a - 0.5 * b) * g;
  }
  const fade = 1200;
  for (let i = 0; i < fade; i++) {
    const t = i / fade;
    out[i] = out[i]! * t + out[n - fade + i]! * (1 - t);
  }
  return normalize(out.subarray(0, n - fade).slice(), 0.6);
}

/** Impact: a low thump (exponentially decaying 60 Hz sine) plus a metallic noise crash. */
export function impactSound(): Float32Array {
  const n = Math.round(0.6 * SAMPLE_RATE);
  const out = new Float32Array(n);
  const rnd = noiseGen(51);
  let lp = 0;
  const k = lpK(3000);
  for (let i = 0; i < n; i++) {
    const t = i / SAMPLE_RATE;
    lp += k * (rnd() - lp);
    out[i] = dsin(2 * Math.PI * 60 * t) * dexp(-t * 12) + 1.6 * lp * dexp(-t * 9) + 0.25 * dsin(2 * Math.PI * 1730 * t) * dexp(-t * 20);
  }
  return normalize(out, 0.95);
}

/** Gear-shift clunk: short 110 Hz knock plus a click. */
export function shiftSound(): Float32Array {
  const n = Math.round(0.15 * SAMPLE_RATE);
  const out = new Float32Array(n);
  const rnd = noiseGen(61);
  for (let i = 0; i < n; i++) {
    const t = i / SAMPLE_RATE;
    out[i] = dsin(2 * Math.PI * 110 * t) * dexp(-t * 40) + 0.4 * rnd() * dexp(-t * 200);
  }
  return normalize(out, 0.8);
}

/** Countdown beeps: 0.2 s sine at 660 Hz (lights) or 1320 Hz (go). */
export function beepSound(hz: number): Float32Array {
  const n = Math.round(0.25 * SAMPLE_RATE);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const t = i / SAMPLE_RATE;
    const env = Math.min(1, t * 200) * Math.min(1, (0.25 - t) * 40);
    out[i] = 0.6 * dsin(2 * Math.PI * hz * t) * env;
  }
  return out;
}

/** 16-bit PCM mono WAV. */
export function encodeWav(pcm: Float32Array, sampleRate = SAMPLE_RATE): Uint8Array {
  const bytes = new Uint8Array(44 + pcm.length * 2);
  const v = new DataView(bytes.buffer);
  const str = (o: number, s: string): void => {
    for (let i = 0; i < s.length; i++) bytes[o + i] = s.charCodeAt(i);
  };
  str(0, 'RIFF');
  v.setUint32(4, 36 + pcm.length * 2, true);
  str(8, 'WAVE');
  str(12, 'fmt ');
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true); // PCM
  v.setUint16(22, 1, true); // mono
  v.setUint32(24, sampleRate, true);
  v.setUint32(28, sampleRate * 2, true);
  v.setUint16(32, 2, true);
  v.setUint16(34, 16, true);
  str(36, 'data');
  v.setUint32(40, pcm.length * 2, true);
  for (let i = 0; i < pcm.length; i++) v.setInt16(44 + 2 * i, Math.round(Math.max(-1, Math.min(1, pcm[i]!)) * 32767), true);
  return bytes;
}

/**
 * Crossfade weights of the engine loops at `rpm`: piecewise linear in log(rpm) between neighbouring
 * reference rpms; the weights sum to 1 (equal-gain crossfade of correlated loops).
 */
export function engineWeights(rpm: number, refs: readonly number[] = ENGINE_LOOPS.map((l) => l.rpm)): number[] {
  const w = refs.map(() => 0);
  const r = Math.max(1, rpm);
  if (r <= refs[0]!) {
    w[0] = 1;
    return w;
  }
  if (r >= refs[refs.length - 1]!) {
    w[refs.length - 1] = 1;
    return w;
  }
  for (let i = 0; i < refs.length - 1; i++) {
    if (r >= refs[i]! && r <= refs[i + 1]!) {
      const t = dlog(r / refs[i]!) / dlog(refs[i + 1]! / refs[i]!);
      w[i] = 1 - t;
      w[i + 1] = t;
    }
  }
  return w;
}
