/**
 * src/ecs/queries.ts: `entitiesWith` keeps the last world's queries by terms; every answer is still that world's
 * live list for exactly those terms, whichever worlds and term sets were asked before.
 */
import { describe, expect, it } from 'vitest';
import { attach, createSimWorld, spawnEntity, type SimWorld } from '../../src/ecs/world';
import { entitiesWith } from '../../src/ecs/queries';

/** A world with `n` entities: all have RigidBody, every 2nd AppliedForce, every 3rd Controls. */
function worldOf(n: number): SimWorld {
  const w = createSimWorld({ capacity: 64 });
  for (let k = 0; k < n; k++) {
    const e = spawnEntity(w);
    ids.set(w, [...(ids.get(w) ?? []), e]);
    attach(w, e, w.c.RigidBody);
    if (k % 2 === 0) attach(w, e, w.c.AppliedForce);
    if (k % 3 === 0) attach(w, e, w.c.Controls);
  }
  return w;
}

/** Each world's entity ids in spawn order. */
const ids = new Map<SimWorld, number[]>();

/** The expected members, from the rule worldOf follows (the k-th entity spawned). */
const expected = (w: SimWorld, every: number[]): number[] => ids.get(w)!.filter((_, k) => every.every((m) => k % m === 0));

describe('entitiesWith', () => {
  it('alternating worlds and term sets: each answer is the asked world\'s list for those terms', () => {
    const a = worldOf(7), b = worldOf(12);
    for (let round = 0; round < 3; round++)
      for (const w of [a, b, a]) {
        const c = w.c;
        expect([...entitiesWith(w, c.RigidBody)]).toEqual(expected(w, [1]));
        expect([...entitiesWith(w, c.RigidBody, c.AppliedForce)]).toEqual(expected(w, [2]));
        expect([...entitiesWith(w, c.RigidBody, c.Controls)]).toEqual(expected(w, [3]));
        expect([...entitiesWith(w, c.RigidBody, c.AppliedForce, c.Controls)]).toEqual(expected(w, [2, 3]));
        expect([...entitiesWith(w, c.AppliedForce)]).toEqual(expected(w, [2]));
      }
  });

  it('the kept list is live: an entity added after the first ask is in the next answer', () => {
    const w = worldOf(4);
    expect(entitiesWith(w, w.c.RigidBody, w.c.Controls)).toHaveLength(2);
    const e = spawnEntity(w);
    attach(w, e, w.c.RigidBody);
    attach(w, e, w.c.Controls);
    expect([...entitiesWith(w, w.c.RigidBody, w.c.Controls)]).toEqual([...expected(w, [3]), e]);
  });
});
