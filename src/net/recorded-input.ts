/**
 * The input a networked car consumed, by sim tick, so that a rewind re-simulates with exactly the same input
 * (src/net/net-car.ts). Live, it asks its source (a held input set per packet, or the AI driver) and records the
 * answer; replaying, it answers from the record and leaves the source alone (the driver keeps its present state).
 */
import { neutralInput, type InputSource, type QuantizedInput } from '../ecs/controls';
import type { SimWorld } from '../ecs/world';

export class RecordedInput implements InputSource {
  private readonly byTick = new Map<number, QuantizedInput>();
  replaying = false;

  constructor(private readonly live: InputSource) {}

  next(world: SimWorld, eid: number): QuantizedInput {
    const t = world.tick;
    if (this.replaying) return this.byTick.get(t) ?? neutralInput();
    const q = this.live.next(world, eid);
    this.byTick.set(t, q);
    return q;
  }

  /** Forgets the input of ticks in [from, to) (older than the rewind window). */
  forget(from: number, to: number): void {
    for (let t = from; t < to; t++) this.byTick.delete(t);
  }
}
