/**
 * Input streams: per car, the six quantised channels the controls pass consumed each tick (steer, throttle,
 * brake, clutch, handbrake, buttons; src/ecs/controls.ts). Each channel is run-length encoded: the run count,
 * then every run's zig-zag varint change from the previous run's value, then every run's varint length in
 * ticks (two streams: format 2; format 1 interleaved them). Device input
 * changes at most once per rendered frame, so at 500 Hz a held value is one pair per frame or less; the
 * whole section is then deflated with the rest of the file (fflate).
 */
import type { QuantizedInput } from '../ecs/controls';
import { ByteReader, ByteWriter, ReplayFormatError } from './bytes';

export const CHANNELS = ['steer', 'throttle', 'brake', 'clutch', 'handbrake', 'buttons'] as const;
export type Channel = (typeof CHANNELS)[number];
const RANGE: Record<Channel, [number, number]> = {
  steer: [-1000, 1000],
  throttle: [0, 1000],
  brake: [0, 1000],
  clutch: [0, 1000],
  handbrake: [0, 1000],
  buttons: [0, 0xffff],
};

/**
 * One channel as runs: the values (zig-zag varint of the change from the previous run's value) in one stream
 * and the run lengths (varint ticks) in another, so that deflate sees two homogeneous streams (the run
 * lengths of device input are nearly all one frame long and compress to almost nothing).
 * Channel bytes: uvar run count, the value stream, the run stream.
 */
class ChannelEncoder {
  private readonly values = new ByteWriter(64);
  private readonly runs = new ByteWriter(64);
  private count = 0;
  private prevRun = 0;
  private value = 0;
  private run = 0;
  push(v: number): void {
    if (this.run > 0 && v === this.value) {
      this.run++;
      return;
    }
    this.flush();
    this.value = v;
    this.run = 1;
  }
  private flush(): void {
    if (this.run === 0) return;
    this.values.svar(this.value - this.prevRun);
    this.runs.uvar(this.run);
    this.count++;
    this.prevRun = this.value;
    this.run = 0;
  }
  /** The encoded channel including the open run (recording may go on afterwards). */
  bytes(): Uint8Array {
    const w = new ByteWriter(this.values.n + this.runs.n + 32);
    const open = this.run > 0;
    w.uvar(this.count + (open ? 1 : 0));
    w.raw(this.values.buf.subarray(0, this.values.n));
    if (open) w.svar(this.value - this.prevRun);
    w.raw(this.runs.buf.subarray(0, this.runs.n));
    if (open) w.uvar(this.run);
    return w.done();
  }
}

/** Streaming encoder: `push(carIndex, input)` once per car per tick, in car order. */
export class InputStreamEncoder {
  private readonly enc: ChannelEncoder[][];
  ticks = 0;
  constructor(readonly cars: number) {
    this.enc = Array.from({ length: cars }, () => CHANNELS.map(() => new ChannelEncoder()));
  }
  push(car: number, q: QuantizedInput): void {
    const e = this.enc[car]!;
    e[0]!.push(q.steer);
    e[1]!.push(q.throttle);
    e[2]!.push(q.brake);
    e[3]!.push(q.clutch);
    e[4]!.push(q.handbrake);
    e[5]!.push(q.buttons);
  }
  /** Encoded section bytes (recording may go on afterwards). */
  encode(ticks: number): Uint8Array {
    const w = new ByteWriter(1024);
    w.uvar(this.cars);
    w.uvar(ticks);
    for (const car of this.enc) {
      for (const ch of car) {
        const bytes = ch.bytes();
        w.uvar(bytes.length);
        w.raw(bytes);
      }
    }
    return w.done();
  }
}

/**
 * Decoded inputs, kept as runs (never expanded to one value per tick, so memory follows the section's size,
 * not the ticks it declares): channels[car][channel] holds each run's value and the tick its run ends at.
 */
export interface InputChannel {
  values: Int32Array;
  /** Exclusive end tick of each run (ascending; the last one equals `ticks`). */
  ends: Int32Array;
}
export interface InputStreams {
  cars: number;
  ticks: number;
  channels: InputChannel[][];
}

/** What the header says the inputs must hold; checked before anything is decoded. */
export interface ExpectedInputs {
  cars: number;
  ticks: number;
}

function decodeChannel(bytes: Uint8Array, file: string, where: string, name: Channel, ticks: number): InputChannel {
  const sub = new ByteReader(bytes, file, `inputs.${where}`);
  const [lo, hi] = RANGE[name];
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
 * any channel is read; each channel's runs are bounded by its bytes.
 */
export function decodeInputs(bytes: Uint8Array, file: string, expect: ExpectedInputs): InputStreams {
  const r = new ByteReader(bytes, file, 'inputs');
  const cars = r.uvar('cars');
  if (cars !== expect.cars) throw new ReplayFormatError(file, 'inputs.cars', `${expect.cars} (header.cars)`, String(cars));
  const ticks = r.uvar('ticks');
  if (ticks !== expect.ticks) throw new ReplayFormatError(file, 'inputs.ticks', `${expect.ticks} (header.ticks)`, String(ticks));
  const channels: InputChannel[][] = [];
  for (let c = 0; c < cars; c++) {
    const per: InputChannel[] = [];
    for (const name of CHANNELS) {
      const len = r.uvar(`car${c}.${name}.length`);
      per.push(decodeChannel(r.take(len, `car${c}.${name}`), file, `car${c}.${name}`, name, ticks));
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
