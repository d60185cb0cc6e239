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

/** Decoded inputs: channels[car][channel] is an Int32Array of one value per tick. */
export interface InputStreams {
  cars: number;
  ticks: number;
  channels: Int32Array[][];
}

export function decodeInputs(bytes: Uint8Array, file: string, maxTicks: number): InputStreams {
  const r = new ByteReader(bytes, file, 'inputs');
  const cars = r.uvar('cars');
  if (cars > 64) throw new ReplayFormatError(file, 'inputs.cars', 'at most 64 cars', String(cars));
  const ticks = r.uvar('ticks');
  if (ticks > maxTicks) throw new ReplayFormatError(file, 'inputs.ticks', `at most ${maxTicks} ticks`, String(ticks));
  const channels: Int32Array[][] = [];
  for (let c = 0; c < cars; c++) {
    const per: Int32Array[] = [];
    for (const name of CHANNELS) {
      const len = r.uvar(`car${c}.${name}.length`);
      const sub = new ByteReader(r.take(len, `car${c}.${name}`), file, `inputs.car${c}.${name}`);
      const out = new Int32Array(ticks);
      const [lo, hi] = RANGE[name];
      const n = sub.uvar('run count');
      // every run takes at least one byte for its value and one for its length
      if (n > ticks || 2 * n > sub.left) throw new ReplayFormatError(file, `inputs.car${c}.${name}.runs`, `at most ${Math.min(ticks, sub.left >> 1)} runs`, String(n));
      const values = new Int32Array(n);
      let v = 0;
      for (let i = 0; i < n; i++) {
        v += sub.svar('value');
        if (v < lo || v > hi) throw new ReplayFormatError(file, `inputs.car${c}.${name}[run ${i}]`, `a value in [${lo}, ${hi}]`, String(v));
        values[i] = v;
      }
      let t = 0;
      for (let i = 0; i < n; i++) {
        const run = sub.uvar('run');
        if (run === 0 || t + run > ticks) throw new ReplayFormatError(file, `inputs.car${c}.${name}[tick ${t}]`, `a run of 1..${ticks - t} ticks`, String(run));
        out.fill(values[i]!, t, t + run);
        t += run;
      }
      if (t !== ticks) throw new ReplayFormatError(file, `inputs.car${c}.${name}`, `${ticks} ticks of input`, `${t}`);
      if (sub.left !== 0) throw new ReplayFormatError(file, `inputs.car${c}.${name}`, 'no bytes after the last run', `${sub.left} more`);
      per.push(out);
    }
    channels.push(per);
  }
  if (r.left !== 0) throw new ReplayFormatError(file, 'inputs', 'no bytes after the last channel', `${r.left} more`);
  return { cars, ticks, channels };
}

export function inputAt(s: InputStreams, car: number, tick: number, out: QuantizedInput): QuantizedInput {
  const ch = s.channels[car]!;
  out.steer = ch[0]![tick]!;
  out.throttle = ch[1]![tick]!;
  out.brake = ch[2]![tick]!;
  out.clutch = ch[3]![tick]!;
  out.handbrake = ch[4]![tick]!;
  out.buttons = ch[5]![tick]!;
  return out;
}
