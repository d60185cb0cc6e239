/**
 * The controls pass keeps its `consumed` map across ticks (no Map#clear per tick): each pass must still leave
 * exactly the cars that have Controls now, each with the input its source returned this pass — the replay
 * recorder reads it and treats a missing car as one that consumed nothing. The pass reads the sources through
 * a dense copy by eid and sets an entry only when a car's input object changed: a source that rewrites one object
 * (the AI's held input) and any change of the sources map between passes (set, delete, clear, as the replay player
 * and the town do directly) must still show in the very next pass.
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

  it('a source that hands over one object every tick stays consumed across losing and regaining Controls', () => {
    const world = createSimWorld({ capacity: 8 });
    const c = world.c.Controls;
    const e = spawnEntity(world);
    const held: QuantizedInput = { steer: 7, throttle: 0, brake: 0, clutch: 0, handbrake: 0, buttons: 0 };
    setInputSource(world, e, { next: () => held });
    attach(world, e, c);
    applyControls(world);
    applyControls(world);
    expect(controlsResources(world).consumed.get(e)).toBe(held);
    removeComponent(world, e, c);
    commitRemovals(world);
    applyControls(world);
    expect(controlsResources(world).consumed.has(e)).toBe(false);
    attach(world, e, c);
    held.steer = -3;
    applyControls(world);
    expect(controlsResources(world).consumed.get(e)).toBe(held);
    expect(c.steer[e]).toBe(-3 / 1000);
  });

  it('sources set, replaced, deleted or cleared on the map between passes drive the next pass', () => {
    const world = createSimWorld({ capacity: 8 });
    const c = world.c.Controls;
    const e = spawnEntity(world);
    attach(world, e, c);
    const steering = (steer: number) => ({ next: (): QuantizedInput => ({ steer, throttle: 0, brake: 0, clutch: 0, handbrake: 0, buttons: 0 }) });
    const res = controlsResources(world);
    const steerAfterPass = (): number => {
      applyControls(world);
      return c.steer[e]! * 1000;
    };
    expect(steerAfterPass()).toBe(0); // no source: neutral input
    res.sources.set(e, steering(100));
    expect(steerAfterPass()).toBe(100);
    res.sources.set(e, steering(-250));
    expect(steerAfterPass()).toBe(-250);
    res.sources.delete(e);
    expect(steerAfterPass()).toBe(0);
    setInputSource(world, e, steering(40));
    expect(steerAfterPass()).toBe(40);
    res.sources.clear();
    expect(steerAfterPass()).toBe(0);
  });
});
