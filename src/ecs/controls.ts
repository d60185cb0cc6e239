/**
 * Driver input as the simulation consumes it. Devices, the AI and the replay player all produce a
 * `QuantizedInput` per car per tick; the controls pass (pass 1) copies it into the `Controls` component.
 * Quantising before the simulation sees the input means a replay that stores these integers feeds
 * playback exactly the same numbers (bit-exact re-simulation).
 *
 * Resolution: steer 1/1000 of full lock, pedals 1/1000; buttons are a bitmask.
 */
import { entitiesWith } from './queries';
import type { SimWorld } from './world';

export const STEER_SCALE = 1000;
export const PEDAL_SCALE = 1000;

export const Button = {
  ShiftUp: 1 << 0,
  ShiftDown: 1 << 1,
  /** Put the car back on the road (stage logic handles it). */
  Recover: 1 << 2,
  Horn: 1 << 3,
} as const;

/** Integers: steer ∈ [−1000, 1000] (+ = left), pedals ∈ [0, 1000], buttons bitmask. */
export interface QuantizedInput {
  steer: number;
  throttle: number;
  brake: number;
  clutch: number;
  handbrake: number;
  buttons: number;
}

export interface RawInput {
  steer: number;
  throttle: number;
  brake: number;
  clutch: number;
  handbrake: number;
  shiftUp?: boolean;
  shiftDown?: boolean;
  recover?: boolean;
}

const q = (v: number, lo: number, hi: number, scale: number): number => {
  if (!Number.isFinite(v)) return 0; // a NaN axis from a misbehaving pad reads as centred/released
  // + 0 turns Math.round's −0 (for −0.5 < v·scale < 0) into +0: a replay stores integers, which have no −0,
  // so the live run must not consume one either (the state hash sees the sign of zero)
  const x = Math.round(v * scale) + 0;
  return x < lo * scale ? lo * scale : x > hi * scale ? hi * scale : x;
};

export function quantizeInput(raw: RawInput): QuantizedInput {
  return quantizeInputInto(raw, neutralInput());
}

/** `quantizeInput` into `out` (a source that decides often reuses one object: no allocation per decision). */
export function quantizeInputInto(raw: RawInput, out: QuantizedInput): QuantizedInput {
  out.steer = q(raw.steer, -1, 1, STEER_SCALE);
  out.throttle = q(raw.throttle, 0, 1, PEDAL_SCALE);
  out.brake = q(raw.brake, 0, 1, PEDAL_SCALE);
  out.clutch = q(raw.clutch, 0, 1, PEDAL_SCALE);
  out.handbrake = q(raw.handbrake, 0, 1, PEDAL_SCALE);
  out.buttons = (raw.shiftUp ? Button.ShiftUp : 0) | (raw.shiftDown ? Button.ShiftDown : 0) | (raw.recover ? Button.Recover : 0);
  return out;
}

export const neutralInput = (): QuantizedInput => ({ steer: 0, throttle: 0, brake: 0, clutch: 0, handbrake: 0, buttons: 0 });

/**
 * Where each car's input for the coming tick comes from. Set per car eid by the app (device), the AI system
 * or the replay player before the tick; what each car consumed this tick is kept in `consumed` for the replay
 * recorder, which reads it after the tick. The returned object is valid until the source's next call (the AI
 * driver rewrites one object per decision): whatever keeps an input past the tick copies it.
 */
export interface InputSource {
  next(world: SimWorld, eid: number): QuantizedInput;
}

/**
 * The cars' input sources by eid. Every change (set, delete, clear: how any owner changes it) bumps `version`,
 * so the controls pass reads a dense copy by eid, rebuilt only after a change, instead of a Map look-up per car
 * per tick.
 */
export class InputSourceMap extends Map<number, InputSource> {
  version = 0;
  override set(eid: number, source: InputSource): this {
    this.version++;
    return super.set(eid, source);
  }
  override delete(eid: number): boolean {
    this.version++;
    return super.delete(eid);
  }
  override clear(): void {
    this.version++;
    super.clear();
  }
}

export interface ControlsResources {
  sources: InputSourceMap;
  /** The input each car consumed in the last controls pass (what the replay records); cleared every pass. */
  consumed: Map<number, QuantizedInput>;
  /** `sources` by eid as of `sources.version` = `denseVersion` (the controls pass's copy). */
  sourceByEid: (InputSource | undefined)[];
  denseVersion: number;
  /** `consumed` by eid (the pass sets a map entry only when the car's input object changed). */
  consumedByEid: (QuantizedInput | undefined)[];
}

declare module './world-types' {
  interface WorldRuntime {
    controls?: ControlsResources;
  }
}

export function controlsResources(world: SimWorld): ControlsResources {
  // the dense copies span every eid the world can hand out (packed arrays: no growth, no holes)
  return (world.runtime.controls ??= {
    sources: new InputSourceMap(), consumed: new Map(), denseVersion: -1,
    sourceByEid: new Array<InputSource | undefined>(world.capacity).fill(undefined),
    consumedByEid: new Array<QuantizedInput | undefined>(world.capacity).fill(undefined),
  });
}

export function setInputSource(world: SimWorld, eid: number, source: InputSource): void {
  controlsResources(world).sources.set(eid, source);
}

/** The sources by eid, copied again from the map after it changed. */
function sourcesByEid(res: ControlsResources): (InputSource | undefined)[] {
  if (res.denseVersion !== res.sources.version) {
    const dense = res.sourceByEid.fill(undefined);
    for (const [eid, src] of res.sources) dense[eid] = src;
    res.denseVersion = res.sources.version;
  }
  return res.sourceByEid;
}

/** A source that returns whatever was last set (the app writes device input into it every frame). */
export class HeldInput implements InputSource {
  input: QuantizedInput = neutralInput();
  next(): QuantizedInput {
    return this.input;
  }
}

/**
 * Pass 1: controls. Shift buttons are edge-triggered: `shift` is +1/−1 only on the tick the button goes down.
 */
export function applyControls(world: SimWorld): void {
  const c = world.c.Controls;
  const res = controlsResources(world);
  const cars = entitiesWith(world, c);
  const sources = sourcesByEid(res), consumedOf = res.consumedByEid;
  // every car with Controls sets its entry below, and an entry of a car without Controls any more is dropped
  // after (the map is not cleared every tick: Map#clear allocates a fresh table)
  for (const eid of cars) {
    const src = sources[eid];
    const input = src ? src.next(world, eid) : neutralInput();
    const prev = c.buttons[eid]!;
    // + 0: any source (AI, device, replay) that hands over −0 drives exactly like +0 (replays cannot store −0)
    c.steer[eid] = (input.steer + 0) / STEER_SCALE;
    c.throttle[eid] = (input.throttle + 0) / PEDAL_SCALE;
    c.brake[eid] = (input.brake + 0) / PEDAL_SCALE;
    c.clutch[eid] = (input.clutch + 0) / PEDAL_SCALE;
    c.handbrake[eid] = (input.handbrake + 0) / PEDAL_SCALE;
    const pressed = input.buttons & ~prev;
    c.shift[eid] = pressed & Button.ShiftUp ? 1 : pressed & Button.ShiftDown ? -1 : 0;
    c.buttons[eid] = input.buttons;
    // a source that rewrites one object (the AI's held input) leaves the entry as it is
    if (consumedOf[eid] !== input) {
      res.consumed.set(eid, input);
      consumedOf[eid] = input;
    }
  }
  // the keys hold every car set above: the sizes match only when they hold nothing else
  if (res.consumed.size !== cars.length) dropStaleConsumed(res, cars);
}

function dropStaleConsumed(res: ControlsResources, cars: readonly number[]): void {
  const live = new Set(cars);
  for (const eid of res.consumed.keys()) {
    if (live.has(eid)) continue;
    res.consumed.delete(eid);
    res.consumedByEid[eid] = undefined;
  }
}
