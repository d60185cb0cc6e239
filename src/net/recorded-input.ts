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
  /** Buttons added to the next live tick's input (a networked recovery's Recover press). */
  private pressed = 0;

  constructor(private readonly live: InputSource) {}

  next(world: SimWorld, eid: number): QuantizedInput {
    const t = world.tick;
    if (this.replaying) return this.byTick.get(t) ?? neutralInput();
    // a copy: the live source may rewrite its object on its next call (InputSource)
    const q = { ...this.live.next(world, eid) };
    q.buttons |= this.pressed;
    this.pressed = 0;
    this.byTick.set(t, q);
    return q;
  }

  /** `buttons` are held in the next live tick only (recorded with it, so a replay presses them too). */
  pressNext(buttons: number): void {
    this.pressed |= buttons;
  }

  /** Forgets the input of ticks in [from, to) (older than the rewind window). */
  forget(from: number, to: number): void {
    for (let t = from; t < to; t++) this.byTick.delete(t);
  }
}
