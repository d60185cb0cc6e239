/**
 * Who drives the player's networked car, tick by tick: the pad's held input, or an AI driver (the autopilot the
 * browser test turns on through `window.__bitrally.multiplayer.autopilot`); while the pause menu is open, the held
 * input, whoever drives. NetCar records whatever this answers
 * (RecordedInput), so a rewind replays the same input whichever drove.
 */
import { HeldInput, type InputSource, type QuantizedInput } from '../../ecs/controls';
import type { SimWorld } from '../../ecs/world';

export class PilotSwitch implements InputSource {
  readonly held = new HeldInput();
  /** The AI driver while the autopilot is on, else null (the pad drives). */
  ai: InputSource | null = null;
  /** The pause menu is open: the held input (neutral, handbrake) drives even when the AI would. */
  paused = false;

  next(world: SimWorld, eid: number): QuantizedInput {
    return this.ai && !this.paused ? this.ai.next(world, eid) : this.held.next();
  }
}
