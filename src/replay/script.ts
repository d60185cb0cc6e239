/**
 * A deterministic scripted driver (tests, `replay record`, the bench): steering is a sum of two slow sines
 * plus seeded noise, throttle/brake follow a seeded on/off pattern, updated every `holdTicks` ticks like a
 * device polled once per rendered frame (60 Hz at 500 Hz ≈ every 8 ticks). Quantised like device input.
 */
import { Prng } from '../../terrain/prng';
import { neutralInput, quantizeInput, type InputSource, type QuantizedInput } from '../ecs/controls';
import type { SimWorld } from '../ecs/world';
import { dsin } from '../../terrain/dmath';

export class ScriptedDriver implements InputSource {
  private readonly rng: Prng;
  private current: QuantizedInput = neutralInput();
  private phase = 0;
  private throttle = 0.8;
  constructor(
    seed: number,
    readonly holdTicks = 8,
    /** Seconds of "lights" (handbrake on, no throttle) before driving. */
    readonly waitS = 0,
  ) {
    this.rng = new Prng(seed);
    this.phase = this.rng.range(0, 6.283);
  }
  next(world: SimWorld): QuantizedInput {
    if (world.tick % this.holdTicks !== 0) return this.current;
    const t = world.tick * world.dt;
    if (t < this.waitS) {
      this.current = { ...neutralInput(), brake: 1000, handbrake: 1000 };
      return this.current;
    }
    const r = this.rng;
    const steer = 0.35 * dsin(0.45 * t + this.phase) + 0.2 * dsin(1.7 * t) + 0.05 * (r.next() - 0.5);
    const braking = dsin(0.21 * t + this.phase) > 0.85;
    // the throttle foot moves a few times a second, not every frame
    if (r.next() < 0.06) this.throttle = 0.55 + 0.4 * r.next();
    this.current = quantizeInput({
      steer,
      throttle: braking ? 0 : this.throttle,
      brake: braking ? 0.6 : 0,
      clutch: 0,
      handbrake: 0,
    });
    return this.current;
  }
}
