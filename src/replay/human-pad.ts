/**
 * A deterministic synthetic "human on a gamepad" input stream (the replay-size benchmark and its tests): what a
 * pad polled once per rendered frame at 60 Hz delivers, quantised like device input. Unlike ScriptedDriver it
 * carries the features that make real pad input hard to compress:
 *
 * * steering: the thumb follows a target (two slow sines = corners) through a first-order lag, with analog
 *   stick noise of a few thousandths (≈ ±2 quantisation steps) on every frame;
 * * triggers: throttle held at a level for a random hold time (exponential, mean 1.2 s), then ramped to a new
 *   level over ≈ 0.1 s; the held level drifts (a random walk of the resting finger) and jitters;
 * * braking zones: brake pressed and ramped in, throttle released, a few times a minute;
 * * buttons: shift up/down taps lasting 3–6 frames every few seconds, a short handbrake pull now and then.
 *
 * The pad stream recorded in Chromium (tests/replay/fixtures/pad-chromium-forest-gravel.bitrally, docs/replays.md
 * "The browser pad fixture") is the real thing; this one runs any length and seed, headless.
 */
import { Prng } from '../../terrain/prng';
import { Button, quantizeInput, type InputSource, type QuantizedInput } from '../ecs/controls';
import type { SimWorld } from '../ecs/world';
import { dlog, dsin } from '../../terrain/dmath';

const POLL_HZ = 60;
/** Stick/trigger noise amplitude (fraction of full scale): a cheap pad's analog jitter. */
const ANALOG_NOISE = 0.004;
/** Thumb lag time constant, seconds. */
const STEER_LAG_S = 0.12;
const MEAN_HOLD_S = 1.2;
const RAMP_S = 0.1;
/** Random-walk step of a held trigger per frame (fraction of full scale). */
const DRIFT_PER_FRAME = 0.0015;
const BUTTON_TAP_FRAMES = [3, 6] as const;
/** Per-frame chances: a gear change, a handbrake pull, a braking zone starting. */
const SHIFT_CHANCE = 1 / (POLL_HZ * 4);
const HANDBRAKE_CHANCE = 1 / (POLL_HZ * 30);
const BRAKE_ZONE_CHANCE = 1 / (POLL_HZ * 12);

export class HumanPadDriver implements InputSource {
  private readonly rng: Prng;
  private current: QuantizedInput = quantizeInput({ steer: 0, throttle: 0, brake: 0, clutch: 0, handbrake: 0 });
  private frame = -1;
  private steer = 0;
  private throttle = 0.7;
  private throttleTarget = 0.7;
  private holdFrames = 0;
  private brakeFrames = 0;
  private buttonFrames = 0;
  private button = 0;
  private handbrakeFrames = 0;
  private readonly phase: number;

  constructor(seed: number) {
    this.rng = new Prng(seed);
    this.phase = this.rng.range(0, 6.283);
  }

  /** Frames of an exponential hold time with the given mean (seconds). */
  private holdTime(meanS: number): number {
    return Math.max(1, Math.round(-dlog(1 - this.rng.next()) * meanS * POLL_HZ));
  }

  private noise(): number {
    return ANALOG_NOISE * (this.rng.next() + this.rng.next() - 1);
  }

  /** One 60 Hz poll: advance the thumb, the triggers and the buttons by one frame. */
  private poll(t: number): QuantizedInput {
    const target = 0.5 * dsin(0.37 * t + this.phase) + 0.25 * dsin(1.3 * t + 2 * this.phase);
    this.steer += (target - this.steer) * (1 / (POLL_HZ * STEER_LAG_S));
    if (--this.holdFrames <= 0) {
      this.throttleTarget = 0.45 + 0.55 * this.rng.next();
      this.holdFrames = this.holdTime(MEAN_HOLD_S);
    }
    this.throttleTarget = Math.min(1, Math.max(0, this.throttleTarget + DRIFT_PER_FRAME * (this.rng.next() - 0.5) * 2));
    const rampStep = 1 / (POLL_HZ * RAMP_S);
    this.throttle += Math.max(-rampStep, Math.min(rampStep, this.throttleTarget - this.throttle));
    if (this.brakeFrames <= 0 && this.rng.next() < BRAKE_ZONE_CHANCE) this.brakeFrames = this.holdTime(0.8);
    const braking = this.brakeFrames-- > 0;
    // a tap holds its button for buttonFrames frames; the frame it is released starts none (taps stay apart)
    if (this.button !== 0) {
      if (--this.buttonFrames === 0) this.button = 0;
    } else if (this.rng.next() < SHIFT_CHANCE) {
      this.button = this.rng.next() < 0.5 ? Button.ShiftUp : Button.ShiftDown;
      this.buttonFrames = BUTTON_TAP_FRAMES[0] + Math.floor(this.rng.next() * (BUTTON_TAP_FRAMES[1] - BUTTON_TAP_FRAMES[0] + 1));
    }
    if (this.handbrakeFrames <= 0 && this.rng.next() < HANDBRAKE_CHANCE) this.handbrakeFrames = this.holdTime(0.4);
    const handbrake = this.handbrakeFrames-- > 0;
    const q = quantizeInput({
      steer: this.steer + this.noise(),
      throttle: braking ? 0 : this.throttle + this.noise(),
      brake: braking ? 0.7 + this.noise() : 0,
      clutch: 0,
      handbrake: handbrake ? 1 : 0,
    });
    q.buttons = this.button;
    return q;
  }

  next(world: SimWorld): QuantizedInput {
    const frame = Math.floor(world.tick * world.dt * POLL_HZ);
    if (frame !== this.frame) {
      this.frame = frame;
      this.current = this.poll(frame / POLL_HZ);
    }
    return this.current;
  }
}
