/**
 * Format 5 input coding: per car one adaptive range-coded stream (src/replay/range-coder.ts), tick by tick.
 * Per tick one "anything changed" bit (context: ticks since the car's last change); if so, per channel a
 * "changed" bit, modelled by the ticks since that channel last changed, the ticks since any channel of the
 * car changed (the pad's frame clock, the AI's decision clock) and whether an earlier channel changed this
 * tick: a held tick, or a change on the usual beat, costs a small fraction of a bit. A change codes its residual against a per-channel predictor (the previous
 * value, linear extrapolation of the last two values, or half of it; the encoder measures all three and keeps
 * the cheapest) as an adaptive Elias-gamma integer (zero, sign, bit length, mantissa bits).
 *
 * Car stream bytes: one predictor id per channel, then the range-coded data.
 */
import { ReplayFormatError } from './bytes';
import { CostMeter, newProbs, RangeDecoder, RangeEncoder, type BitSink } from './range-coder';

export const INPUT_CHANNELS = ['steer', 'throttle', 'brake', 'clutch', 'handbrake', 'buttons'] as const;
export type InputChannelName = (typeof INPUT_CHANNELS)[number];
export const CHANNEL_RANGE: Record<InputChannelName, readonly [number, number]> = {
  steer: [-1000, 1000],
  throttle: [0, 1000],
  brake: [0, 1000],
  clutch: [0, 1000],
  handbrake: [0, 1000],
  buttons: [0, 0xffff],
};
const NCH = INPUT_CHANNELS.length;

/** One channel as runs: each run's value and the exclusive tick its run ends at (the last one = ticks). */
export interface InputRuns {
  values: Int32Array;
  ends: Int32Array;
}

/**
 * Context caps: ticks since this channel changed, ticks since any channel of the car changed (in the
 * per-channel flags, and a longer one for the car's "anything changed this tick" flag).
 */
const SINCE_CHANNEL_CAP = 31;
const SINCE_ANY_CAP = 15;
const SINCE_ANY_TICK_CAP = 63;
const FLAG_CONTEXTS = NCH * (SINCE_CHANNEL_CAP + 1) * (SINCE_ANY_CAP + 1) * 2;
/** Residual bit lengths 1..17 (|residual| ≤ 2^17 − 1 covers every channel's span of values). */
const MAX_BITS = 17;
const PREDICTORS = 3;
/**
 * Decompression cap: a car stream may decode to at most this many runs per byte it holds (+ a floor), so a
 * small hostile stream cannot claim millions of runs (memory ≤ 16 B per allowed run). Recorded driving
 * decodes to ≈ 1–3 runs per byte.
 */
export const MAX_RUNS_PER_INPUT_BYTE = 256;
export const MIN_RUN_ALLOWANCE = 65_536;

function predict(pid: number, v1: number, v2: number, lo: number, hi: number): number {
  const p = pid === 0 ? v1 : pid === 1 ? 2 * v1 - v2 : v1 + ((v1 - v2) >> 1);
  return p < lo ? lo : p > hi ? hi : p;
}

/** Adaptive models of one car stream. */
class InputModel {
  /** The car's per-tick "any channel changed" flag, by ticks since the last change. */
  readonly any = newProbs(SINCE_ANY_TICK_CAP + 1);
  readonly flags = newProbs(FLAG_CONTEXTS);
  /** Per channel: zero flag (2 contexts: last residual zero or not), sign (2: last sign). */
  readonly zero = newProbs(NCH * 2);
  readonly sign = newProbs(NCH * 2);
  /** Per channel and last residual's bit length: unary bit length of |r|. */
  readonly len = newProbs(NCH * (MAX_BITS + 1) * (MAX_BITS + 1));
  /** Per channel, bit length and bit position: mantissa bits below the leading one. */
  readonly mant = newProbs(NCH * (MAX_BITS + 1) * MAX_BITS);
  readonly lastLen = new Int32Array(NCH);
  readonly lastSign = new Int32Array(NCH);
  readonly lastZero = new Int32Array(NCH);

  anyIndex(sinceAny: number): number {
    return sinceAny > SINCE_ANY_TICK_CAP ? SINCE_ANY_TICK_CAP : sinceAny;
  }

  flagIndex(ch: number, sinceCh: number, sinceAny: number, earlier: number): number {
    const a = sinceCh > SINCE_CHANNEL_CAP ? SINCE_CHANNEL_CAP : sinceCh;
    const b = sinceAny > SINCE_ANY_CAP ? SINCE_ANY_CAP : sinceAny;
    return ((ch * (SINCE_CHANNEL_CAP + 1) + a) * (SINCE_ANY_CAP + 1) + b) * 2 + earlier;
  }
}

const bitLength = (m: number): number => 32 - Math.clz32(m);

/** Codes residual r of channel ch; `canBeZero` is false when the prediction equals the held value. */
function writeResidual(s: BitSink, m: InputModel, ch: number, r: number, canBeZero: boolean): void {
  if (canBeZero) {
    s.bit(m.zero, ch * 2 + m.lastZero[ch]!, r === 0 ? 1 : 0);
    m.lastZero[ch] = r === 0 ? 1 : 0;
    if (r === 0) return;
  }
  const neg = r < 0 ? 1 : 0;
  s.bit(m.sign, ch * 2 + m.lastSign[ch]!, neg);
  m.lastSign[ch] = neg;
  const mag = neg ? -r : r;
  const n = bitLength(mag); // 1..MAX_BITS
  const lenBase = (ch * (MAX_BITS + 1) + m.lastLen[ch]!) * (MAX_BITS + 1);
  for (let k = 1; k < n; k++) s.bit(m.len, lenBase + k, 1);
  if (n < MAX_BITS) s.bit(m.len, lenBase + n, 0);
  m.lastLen[ch] = n;
  const mantBase = (ch * (MAX_BITS + 1) + n) * MAX_BITS;
  for (let k = n - 2; k >= 0; k--) s.bit(m.mant, mantBase + k, (mag >> k) & 1);
}

function readResidual(d: RangeDecoder, m: InputModel, ch: number, canBeZero: boolean): number {
  if (canBeZero) {
    const z = d.bit(m.zero, ch * 2 + m.lastZero[ch]!);
    m.lastZero[ch] = z;
    if (z === 1) return 0;
  }
  const neg = d.bit(m.sign, ch * 2 + m.lastSign[ch]!);
  m.lastSign[ch] = neg;
  const lenBase = (ch * (MAX_BITS + 1) + m.lastLen[ch]!) * (MAX_BITS + 1);
  let n = 1;
  while (n < MAX_BITS && d.bit(m.len, lenBase + n) === 1) n++;
  m.lastLen[ch] = n;
  const mantBase = (ch * (MAX_BITS + 1) + n) * MAX_BITS;
  let mag = 1;
  for (let k = n - 2; k >= 0; k--) mag = (mag << 1) | d.bit(m.mant, mantBase + k);
  return neg ? -mag : mag;
}

/** Walks a channel's runs tick by tick (the value at the current tick). */
class RunWalker {
  private i = 0;
  constructor(private readonly r: InputRuns) {}
  at(tick: number): number {
    while (this.r.ends[this.i]! <= tick) this.i++;
    return this.r.values[this.i]!;
  }
}

/** Per-channel coder state shared by encoder and decoder: held value, the one before, ticks since change. */
class ChannelState {
  readonly v1 = new Int32Array(NCH);
  readonly v2 = new Int32Array(NCH);
  readonly since = new Int32Array(NCH);
  sinceAny = 0;
  /** A tick where no channel changed. */
  hold(): void {
    for (let ch = 0; ch < NCH; ch++) this.since[ch]!++;
    this.sinceAny++;
  }
  changed(ch: number, v: number): void {
    this.v2[ch] = this.v1[ch]!;
    this.v1[ch] = v;
    this.since[ch] = 0;
  }
}

/** Codes one car's channels into `sink` with the given predictors. */
function writeCar(sink: BitSink, runs: readonly InputRuns[], ticks: number, pids: readonly number[]): void {
  const m = new InputModel();
  const st = new ChannelState();
  const walkers = runs.map((r) => new RunWalker(r));
  const now = new Int32Array(NCH);
  for (let t = 0; t < ticks; t++) {
    let changes = 0;
    for (let ch = 0; ch < NCH; ch++) {
      now[ch] = walkers[ch]!.at(t);
      if (now[ch] !== st.v1[ch]) changes++;
    }
    sink.bit(m.any, m.anyIndex(st.sinceAny), changes > 0 ? 1 : 0);
    if (changes === 0) {
      st.hold();
      continue;
    }
    let earlier = 0;
    for (let ch = 0; ch < NCH; ch++) {
      const v = now[ch]!;
      const held = st.v1[ch]!;
      const change = v !== held ? 1 : 0;
      // the last channel's flag is implied when no earlier one changed (something did)
      if (ch < NCH - 1 || earlier) sink.bit(m.flags, m.flagIndex(ch, st.since[ch]!, st.sinceAny, earlier), change);
      if (change) {
        const [lo, hi] = CHANNEL_RANGE[INPUT_CHANNELS[ch]!];
        const pred = predict(pids[ch]!, held, st.v2[ch]!, lo, hi);
        writeResidual(sink, m, ch, v - pred, pred !== held);
        st.changed(ch, v);
        earlier = 1;
      } else st.since[ch]!++;
    }
    st.sinceAny = 0;
  }
}

/**
 * The cheapest predictor of each channel, measured. The residual models of a channel see only its sequence of
 * run values (never the ticks), so each channel and predictor is metered over its runs alone.
 */
function choosePredictors(runs: readonly InputRuns[]): number[] {
  return runs.map((r, ch) => {
    const [lo, hi] = CHANNEL_RANGE[INPUT_CHANNELS[ch]!];
    let best = 0;
    let bestBits = Infinity;
    for (let pid = 0; pid < PREDICTORS; pid++) {
      const meter = new CostMeter();
      const m = new InputModel();
      let v1 = 0;
      let v2 = 0;
      for (const v of r.values) {
        if (v === v1) continue; // the first run at the initial value 0 is no change
        const pred = predict(pid, v1, v2, lo, hi);
        writeResidual(meter, m, ch, v - pred, pred !== v1);
        v2 = v1;
        v1 = v;
      }
      if (meter.bits < bestBits) {
        best = pid;
        bestBits = meter.bits;
      }
    }
    return best;
  });
}

/** One car's stream bytes: the predictor ids, then the range-coded ticks. */
export function encodeCarInputs(runs: readonly InputRuns[], ticks: number): Uint8Array {
  const pids = choosePredictors(runs);
  const enc = new RangeEncoder();
  writeCar(enc, runs, ticks, pids);
  const data = enc.finish();
  const out = new Uint8Array(NCH + data.length);
  out.set(pids, 0);
  out.set(data, NCH);
  return out;
}

/** Growable run list of one channel, starting with value 0 at tick 0 (the coder's initial held value). */
class RunList {
  values: Int32Array<ArrayBuffer> = new Int32Array(16);
  ends: Int32Array<ArrayBuffer> = new Int32Array(16);
  n = 1;
  /** A new value from tick `t` on (at tick 0 it replaces the initial 0). */
  change(v: number, t: number): void {
    if (t === 0) {
      this.values[0] = v;
      return;
    }
    if (this.n === this.values.length) {
      const grow = (a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.values = grow(this.values);
      this.ends = grow(this.ends);
    }
    this.ends[this.n - 1] = t;
    this.values[this.n++] = v;
  }
  close(ticks: number): InputRuns {
    if (ticks === 0) return { values: new Int32Array(0), ends: new Int32Array(0) };
    this.ends[this.n - 1] = ticks;
    return { values: this.values.slice(0, this.n), ends: this.ends.slice(0, this.n) };
  }
}

/** Decoder state of one car stream. */
class CarDecoder {
  readonly lists = INPUT_CHANNELS.map(() => new RunList());
  readonly m = new InputModel();
  readonly st = new ChannelState();
  runs = 0;
  private readonly cap: number;
  constructor(
    private readonly d: RangeDecoder,
    private readonly pids: readonly number[],
    private readonly streamBytes: number,
    private readonly file: string,
    private readonly field: string,
  ) {
    this.cap = MIN_RUN_ALLOWANCE + MAX_RUNS_PER_INPUT_BYTE * streamBytes;
  }

  /** Decodes the changes of tick t, which has at least one. */
  changesAt(t: number): void {
    const { d, m, st } = this;
    let earlier = 0;
    for (let ch = 0; ch < NCH; ch++) {
      const change = ch < NCH - 1 || earlier ? d.bit(m.flags, m.flagIndex(ch, st.since[ch]!, st.sinceAny, earlier)) : 1;
      if (change === 0) {
        st.since[ch]!++;
        continue;
      }
      const name = INPUT_CHANNELS[ch]!;
      const [lo, hi] = CHANNEL_RANGE[name];
      const held = st.v1[ch]!;
      const pred = predict(this.pids[ch]!, held, st.v2[ch]!, lo, hi);
      const v = pred + readResidual(d, m, ch, pred !== held);
      if (v < lo || v > hi || v === held) throw new ReplayFormatError(this.file, `${this.field}.${name}[tick ${t}]`, `a new value in [${lo}, ${hi}]`, String(v));
      st.changed(ch, v);
      this.lists[ch]!.change(v, t);
      earlier = 1;
      if (++this.runs > this.cap) throw new ReplayFormatError(this.file, this.field, `at most ${this.cap} runs for its ${this.streamBytes} bytes (decompression cap)`, 'more (corrupt)');
    }
    st.sinceAny = 0;
  }
}

/**
 * Decodes one car stream (untrusted): values outside their channel's range, a stream that ends early or
 * leaves bytes or a wrong final code, unknown predictors and more runs than the decompression cap are
 * ReplayFormatErrors naming `field` (and the channel and tick where it shows).
 */
export function decodeCarInputs(bytes: Uint8Array, ticks: number, file: string, field: string): InputRuns[] {
  if (bytes.length < NCH) throw new ReplayFormatError(file, `${field}.predictors`, `${NCH} predictor ids`, `${bytes.length} bytes (truncated)`);
  const pids = Array.from(bytes.subarray(0, NCH));
  pids.forEach((p, ch) => {
    if (p >= PREDICTORS) throw new ReplayFormatError(file, `${field}.${INPUT_CHANNELS[ch]!}.predictor`, `0..${PREDICTORS - 1}`, String(p));
  });
  const d = new RangeDecoder(bytes.subarray(NCH), file, field);
  const car = new CarDecoder(d, pids, bytes.length, file, field);
  for (let t = 0; t < ticks; t++) {
    if (d.bit(car.m.any, car.m.anyIndex(car.st.sinceAny)) === 1) car.changesAt(t);
    else car.st.hold();
  }
  d.finish();
  return car.lists.map((l) => l.close(ticks));
}
