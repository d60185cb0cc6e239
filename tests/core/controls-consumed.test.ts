/**
 * The controls pass keeps its `consumed` map across ticks (no Map#clear per tick): each pass must still leave
 * exactly the cars that have Controls now, each with the input its source returned this pass — the replay
 * recorder reads it and treats a missing car as one that consumed nothing.
 */
import { describe, expect, it } from 'vitest';
import { commitRemovals, removeComponent } from 'bitecs';
import { applyControls, controlsResources, setInputSource, type QuantizedInput } from '../../src/ecs/controls';
import { attach, createSimWorld, spawnEntity } from '../../src/ecs/world';

describe('controls pass: consumed inputs', () => {
  it('holds exactly the cars with Controls after each pass, each with its input of that pass', () => {
    const world = createSimWorld({ capacity: 8 });
    const c = world.c.Controls;
    const eids = [0, 1, 2].map(() => spawnEntity(world));
    let tick = 0;
    for (const e of eids) setInputSource(world, e, { next: (): QuantizedInput => ({ steer: 10 * e + tick, throttle: 0, brake: 0, clutch: 0, handbrake: 0, buttons: 0 }) });
    const pass = (live: number[]): void => {
      commitRemovals(world);
      applyControls(world);
      const consumed = controlsResources(world).consumed;
      expect([...consumed.keys()].sort()).toEqual([...live].sort());
      for (const e of live) expect(consumed.get(e)!.steer).toBe(10 * e + tick);
      tick++;
    };
    attach(world, eids[0]!, c);
    attach(world, eids[1]!, c);
    pass([eids[0]!, eids[1]!]);
    pass([eids[0]!, eids[1]!]);
    // one car loses Controls: fewer cars than entries
    removeComponent(world, eids[1]!, c);
    pass([eids[0]!]);
    // one gains while another loses in the same tick: as many entries as cars, but not the same keys
    attach(world, eids[1]!, c);
    pass([eids[0]!, eids[1]!]);
    removeComponent(world, eids[0]!, c);
    attach(world, eids[2]!, c);
    pass([eids[1]!, eids[2]!]);
  });
});
