/**
 * Input streams: per car, the six quantised channels the controls pass consumed each tick (steer, throttle,
 * brake, clutch, handbrake, buttons; src/ecs/controls.ts). Each channel is run-length encoded as pairs
 * (zig-zag varint of the change from the previous run's value, varint run length in ticks). Device input
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

class ChannelEncoder {
  readonly out = new ByteWriter(64);
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
  flush(): void {
    if (this.run === 0) return;
    this.out.svar(this.value - this.prevRun);
    this.out.uvar(this.run);
    this.prevRun = this.value;
    this.run = 0;
  }
  /** The encoded channel including the open run (recording may go on afterwards). */
  bytes(): Uint8Array {
    const tail = new ByteWriter(16);
    if (this.run > 0) {
      tail.svar(this.value - this.prevRun);
      tail.uvar(this.run);
    }
    const out = new Uint8Array(this.out.n + tail.n);
    out.set(this.out.buf.subarray(0, this.out.n));
    out.set(tail.buf.subarray(0, tail.n), this.out.n);
    return out;
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
      let t = 0;
      let v = 0;
      const [lo, hi] = RANGE[name];
      while (sub.left > 0) {
        v += sub.svar('value');
        const run = sub.uvar('run');
        if (v < lo || v > hi) throw new ReplayFormatError(file, `inputs.car${c}.${name}[tick ${t}]`, `a value in [${lo}, ${hi}]`, String(v));
        if (run === 0 || t + run > ticks) throw new ReplayFormatError(file, `inputs.car${c}.${name}[tick ${t}]`, `a run of 1..${ticks - t} ticks`, String(run));
        out.fill(v, t, t + run);
        t += run;
      }
      if (t !== ticks) throw new ReplayFormatError(file, `inputs.car${c}.${name}`, `${ticks} ticks of input`, `${t}`);
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
