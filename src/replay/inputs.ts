/**
 * Input streams: per car, the six quantised channels the controls pass consumed each tick (steer, throttle,
 * brake, clutch, handbrake, buttons; src/ecs/controls.ts), kept as runs while recording and after decoding.
 * Format 5 codes them with prediction + an adaptive range coder (src/replay/input-codec.ts); formats 3 and 4
 * stored each channel as runs (value stream + run-length stream, deflated with the file) and are still read.
 */
import type { QuantizedInput } from '../ecs/controls';
import { ByteReader, ByteWriter, ReplayFormatError } from './bytes';
import { CHANNEL_RANGE, decodeCarInputs, encodeCarInputs, INPUT_CHANNELS, type InputRuns } from './input-codec';

export const CHANNELS = INPUT_CHANNELS;
export type Channel = (typeof CHANNELS)[number];

/** Appends one channel's values tick by tick as runs. */
class RunRecorder {
  values: number[] = [];
  ends: number[] = [];
  push(v: number, tick: number): void {
    const n = this.values.length;
    if (n > 0 && this.values[n - 1] === v) this.ends[n - 1] = tick + 1;
    else {
      this.values.push(v);
      this.ends.push(tick + 1);
    }
  }
  runs(): InputRuns {
    return { values: Int32Array.from(this.values), ends: Int32Array.from(this.ends) };
  }
}

/** Streaming encoder: `push(carIndex, input)` once per car per tick, in car order. */
export class InputStreamEncoder {
  private readonly rec: RunRecorder[][];
  private readonly pushed: number[];
  ticks = 0;
  constructor(readonly cars: number) {
    this.rec = Array.from({ length: cars }, () => CHANNELS.map(() => new RunRecorder()));
    this.pushed = new Array<number>(cars).fill(0);
  }
  push(car: number, q: QuantizedInput): void {
    const e = this.rec[car]!;
    const t = this.pushed[car]!++;
    e[0]!.push(q.steer, t);
    e[1]!.push(q.throttle, t);
    e[2]!.push(q.brake, t);
    e[3]!.push(q.clutch, t);
    e[4]!.push(q.handbrake, t);
    e[5]!.push(q.buttons, t);
  }
  /** Encoded section bytes of the first `ticks` ticks (recording may go on afterwards). */
  encode(ticks: number): Uint8Array {
    return encodeInputs({ cars: this.cars, ticks, channels: this.rec.map((car) => car.map((ch) => clipRuns(ch.runs(), ticks))) });
  }
}

/** The runs of the first `ticks` ticks (a channel shorter than that is held at its last value, or 0). */
function clipRuns(r: InputRuns, ticks: number): InputRuns {
  if (ticks === 0) return { values: new Int32Array(0), ends: new Int32Array(0) };
  if (r.values.length === 0) return { values: Int32Array.of(0), ends: Int32Array.of(ticks) };
  let last = 0;
  while (last < r.ends.length - 1 && r.ends[last]! < ticks) last++;
  const ends = r.ends.slice(0, last + 1);
  ends[last] = ticks;
  return { values: r.values.slice(0, last + 1), ends };
}

/** The format 5 inputs section: uvar cars, uvar ticks, per car uvar length + its range-coded stream. */
export function encodeInputs(s: InputStreams): Uint8Array {
  const w = new ByteWriter(1024);
  w.uvar(s.cars);
  w.uvar(s.ticks);
  for (const car of s.channels) {
    const bytes = encodeCarInputs(car, s.ticks);
    w.uvar(bytes.length);
    w.raw(bytes);
  }
  return w.done();
}

/**
 * Decoded inputs, kept as runs (never expanded to one value per tick, so memory follows the section's size,
 * not the ticks it declares): channels[car][channel] holds each run's value and the tick its run ends at.
 */
export type InputChannel = InputRuns;
export interface InputStreams {
  cars: number;
  ticks: number;
  channels: InputChannel[][];
}

/** What the header says the inputs must hold; checked before anything is decoded. */
export interface ExpectedInputs {
  cars: number;
  ticks: number;
  /** The file's format: 5 = range-coded streams, 3 and 4 = run streams. */
  format: number;
}

/** A format 3/4 channel: uvar run count, the zig-zag value changes, the run lengths. */
function decodeRunChannel(bytes: Uint8Array, file: string, where: string, name: Channel, ticks: number): InputChannel {
  const sub = new ByteReader(bytes, file, `inputs.${where}`);
  const [lo, hi] = CHANNEL_RANGE[name];
  const n = sub.uvar('run count');
  // every run takes at least one byte for its value and one for its length: bounded by the bytes, not the ticks
  if (n > ticks || 2 * n > sub.left) throw new ReplayFormatError(file, `inputs.${where}.runs`, `at most ${Math.min(ticks, sub.left >> 1)} runs`, String(n));
  const values = new Int32Array(n);
  const ends = new Int32Array(n);
  let v = 0;
  for (let i = 0; i < n; i++) {
    v += sub.svar('value');
    if (v < lo || v > hi) throw new ReplayFormatError(file, `inputs.${where}[run ${i}]`, `a value in [${lo}, ${hi}]`, String(v));
    values[i] = v;
  }
  let t = 0;
  for (let i = 0; i < n; i++) {
    const run = sub.uvar('run');
    if (run === 0 || t + run > ticks) throw new ReplayFormatError(file, `inputs.${where}[tick ${t}]`, `a run of 1..${ticks - t} ticks`, String(run));
    t += run;
    ends[i] = t;
  }
  if (t !== ticks) throw new ReplayFormatError(file, `inputs.${where}`, `${ticks} ticks of input`, `${t}`);
  if (sub.left !== 0) throw new ReplayFormatError(file, `inputs.${where}`, 'no bytes after the last run', `${sub.left} more`);
  return { values, ends };
}

/**
 * Decodes the inputs section. The car and tick counts it declares must equal the header's (`expect`) before
 * any channel is read; each channel's runs are bounded by its bytes (format 3/4) or by the decompression cap
 * of its car stream (format 5).
 */
export function decodeInputs(bytes: Uint8Array, file: string, expect: ExpectedInputs): InputStreams {
  const r = new ByteReader(bytes, file, 'inputs');
  const cars = r.uvar('cars');
  if (cars !== expect.cars) throw new ReplayFormatError(file, 'inputs.cars', `${expect.cars} (header.cars)`, String(cars));
  const ticks = r.uvar('ticks');
  if (ticks !== expect.ticks) throw new ReplayFormatError(file, 'inputs.ticks', `${expect.ticks} (header.ticks)`, String(ticks));
  const channels: InputChannel[][] = [];
  for (let c = 0; c < cars; c++) {
    if (expect.format >= 5) {
      const len = r.uvar(`car${c}.length`);
      channels.push(decodeCarInputs(r.take(len, `car${c}`), ticks, file, `inputs.car${c}`));
      continue;
    }
    const per: InputChannel[] = [];
    for (const name of CHANNELS) {
      const len = r.uvar(`car${c}.${name}.length`);
      per.push(decodeRunChannel(r.take(len, `car${c}.${name}`), file, `car${c}.${name}`, name, ticks));
    }
    channels.push(per);
  }
  if (r.left !== 0) throw new ReplayFormatError(file, 'inputs', 'no bytes after the last channel', `${r.left} more`);
  return { cars, ticks, channels };
}

/** Index of the run holding `tick` (binary search; `hint` = the last index, usually right or one before). */
function runIndex(ch: InputChannel, tick: number, hint: number): number {
  const e = ch.ends;
  if (hint < e.length && tick < e[hint]! && (hint === 0 || tick >= e[hint - 1]!)) return hint;
  if (hint + 1 < e.length && tick >= e[hint]! && tick < e[hint + 1]!) return hint + 1;
  let lo = 0;
  let hi = e.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (e[mid]! > tick) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Reads the recorded input of one car tick by tick (sequential reads cost O(1), a jump O(log runs)). */
export class InputCursor {
  private readonly at = new Int32Array(CHANNELS.length);
  constructor(
    private readonly s: InputStreams,
    private readonly car: number,
  ) {}
  read(tick: number, out: QuantizedInput): QuantizedInput {
    const ch = this.s.channels[this.car]!;
    const v = (k: number): number => {
      const i = runIndex(ch[k]!, tick, this.at[k]!);
      this.at[k] = i;
      return ch[k]!.values[i]!;
    };
    out.steer = v(0);
    out.throttle = v(1);
    out.brake = v(2);
    out.clutch = v(3);
    out.handbrake = v(4);
    out.buttons = v(5);
    return out;
  }
}

/** The input of `car` at `tick` (0 ≤ tick < s.ticks). */
export function inputAt(s: InputStreams, car: number, tick: number, out: QuantizedInput): QuantizedInput {
  return new InputCursor(s, car).read(tick, out);
}
