/**
 * The contact memory (src/systems/sim/collision/contact-memory.ts): the pairs a car touched during the last tick,
 * kept as CarCollider state so a contact counts and is reported once, when it starts.
 */
import { addComponent } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { componentSpecs } from '../../src/ecs/components';
import { createSimWorld, spawnEntity, type SimWorld } from '../../src/ecs/world';
import { anyContact, CONTACT_SLOTS, contactCode, TickContacts } from '../../src/systems/sim/collision/contact-memory';

function withCars(n: number): { world: SimWorld; cars: number[] } {
  const world = createSimWorld();
  const cars = Array.from({ length: n }, () => {
    const e = spawnEntity(world);
    addComponent(world, e, world.c.CarCollider);
    return e;
  });
  return { world, cars };
}

describe('contact memory', () => {
  it('codes are distinct per kind and id, never 0 (an empty slot)', () => {
    const codes = new Set<number>();
    for (const kind of ['scene', 'car', 'prop'] as const) for (let id = 0; id < 50; id++) codes.add(contactCode(kind, id));
    expect(codes.size).toBe(150);
    expect(codes.has(0)).toBe(false);
  });

  it('a pass remembers this tick\'s pairs for the next one and forgets pairs that ended', () => {
    const { world, cars: [a, b] } = withCars(2) as { world: SimWorld; cars: [number, number] };
    const t = new TickContacts('contact');
    t.begin(world);
    t.add(a, contactCode('scene', 7));
    t.add(a, contactCode('car', b));
    t.add(a, contactCode('scene', 7)); // found twice in one tick: one pair
    expect(t.had(a, contactCode('scene', 7))).toBe(false); // not in contact the tick before
    t.commit(world);
    expect([world.c.CarCollider.contact0[a], world.c.CarCollider.contact1[a], world.c.CarCollider.contact2[a]]).toEqual([contactCode('scene', 7), contactCode('car', b), 0]);
    t.begin(world);
    expect(t.had(a, contactCode('scene', 7))).toBe(true);
    expect(t.had(b, contactCode('scene', 7))).toBe(false); // remembered on its owner only
    t.add(a, contactCode('car', b));
    t.commit(world);
    t.begin(world);
    expect(t.had(a, contactCode('scene', 7))).toBe(false);
    expect(t.had(a, contactCode('car', b))).toBe(true);
    expect(anyContact(world, 'contact')).toBe(true);
    expect(anyContact(world, 'propContact')).toBe(false); // the props pass has its own slots
    t.commit(world);
    expect(anyContact(world, 'contact')).toBe(false);
  });

  it(`keeps the first ${CONTACT_SLOTS} partners of a car in one pass (the order the pass found them)`, () => {
    const { world, cars: [a] } = withCars(1) as { world: SimWorld; cars: [number] };
    const t = new TickContacts('propContact');
    t.begin(world);
    for (let i = 0; i <= CONTACT_SLOTS; i++) t.add(a, contactCode('prop', 100 + i));
    t.commit(world);
    t.begin(world);
    for (let i = 0; i < CONTACT_SLOTS; i++) expect(t.had(a, contactCode('prop', 100 + i))).toBe(true);
    expect(t.had(a, contactCode('prop', 100 + CONTACT_SLOTS))).toBe(false);
  });

  it('the slots are hashed, keyframed state (CarCollider spec)', () => {
    const state = componentSpecs.CarCollider.state as readonly string[];
    for (let k = 0; k < CONTACT_SLOTS; k++) {
      expect(state).toContain(`contact${k}`);
      expect(state).toContain(`propContact${k}`);
    }
  });
});
