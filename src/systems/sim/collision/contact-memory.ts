/**
 * The pairs each car was in contact with during the last tick, kept as component state (CarCollider
 * `contact0..7` for the collision pass's scene and car–car pairs, `propContact0..7` for the props pass's car–prop
 * pairs): a collision counts (`hits`) and is reported once, when its pair was not in contact the tick before,
 * so the next tick reads this memory. As component state it is hashed and saved in every snapshot / keyframe
 * by construction.
 *
 * A pair is remembered on its owner car (the car; the lower entity id of a car–car pair) as one code:
 * partner id × 4 + kind (1 scene obstacle index, 2 car eid, 3 prop eid); 0 is an empty slot. A car touching more
 * than CONTACT_SLOTS partners in one pass keeps the first ones found (deterministic order); a further one counts
 * as a new hit on the next tick too.
 */
import { entitiesWith } from '../../../ecs/queries';
import type { SimWorld } from '../../../ecs/world';

/** Partners remembered per car and pass. */
export const CONTACT_SLOTS = 8;

/** Pair kinds in a contact code (its two low bits). */
const KIND = { scene: 1, car: 2, prop: 3 } as const;

/** Code of a pair with a scene obstacle (its index), another car (eid) or a prop (eid); never 0. */
export function contactCode(kind: keyof typeof KIND, id: number): number {
  return id * 4 + KIND[kind];
}

/** Which pass's slots: the collision pass (scene, car–car) or the props pass (car–prop). */
export type ContactGroup = 'contact' | 'propContact';

type Slots = readonly Int32Array[];

/** The slot fields' names per group, built once (the collision pass looks its slots up every tick). */
const SLOT_KEYS: Record<ContactGroup, readonly string[]> = {
  contact: Array.from({ length: CONTACT_SLOTS }, (_, k) => `contact${k}`),
  propContact: Array.from({ length: CONTACT_SLOTS }, (_, k) => `propContact${k}`),
};

/** The group's slot arrays in the world's CarCollider store. */
function slotsOf(world: SimWorld, group: ContactGroup): Slots {
  const c = world.c.CarCollider as unknown as Record<string, Int32Array>;
  const keys = SLOT_KEYS[group];
  const out: Int32Array[] = [];
  for (let k = 0; k < CONTACT_SLOTS; k++) out.push(c[keys[k]!]!);
  return out;
}

/** The owner car was in contact with the partner (`code`) during the last tick. */
export function hadContact(slots: Slots, car: number, code: number): boolean {
  for (let k = 0; k < CONTACT_SLOTS; k++) if (slots[k]![car] === code) return true;
  return false;
}

/** Some car remembers a contact of that group (e.g. a car touched a prop last tick). */
export function anyContact(world: SimWorld, group: ContactGroup): boolean {
  const slots = slotsOf(world, group);
  for (const car of entitiesWith(world, world.c.CarCollider)) if (slots[0]![car] !== 0) return true;
  return false;
}

/**
 * One pass's contacts: `begin` at the start of the pass, `had` answers from the last tick's memory, `add` notes
 * a pair found this tick, `commit` at the end replaces every car's memory of that group with this tick's pairs.
 */
export class TickContacts {
  /** The group's slot arrays of `store` (the world's CarCollider), looked up on the first `begin`. */
  private slots: Slots = [];
  private store: object | null = null;
  private readonly now = new Map<number, number[]>();
  /** The cars with a pair in `now` this tick, in the order first added. */
  private readonly touched: number[] = [];
  constructor(readonly group: ContactGroup) {}

  /**
   * The slot arrays are looked up once per store: a world's component arrays are never replaced (fixed-capacity
   * stores; a snapshot restore writes into them, src/ecs/snapshot.ts), so only another CarCollider store
   * (another world) looks them up again.
   */
  begin(world: SimWorld): void {
    const store = world.c.CarCollider;
    if (store !== this.store) {
      this.slots = slotsOf(world, this.group);
      this.store = store;
    }
    const t = this.touched;
    for (let i = 0; i < t.length; i++) this.now.get(t[i]!)!.length = 0;
    t.length = 0;
  }

  had(car: number, code: number): boolean {
    return hadContact(this.slots, car, code);
  }

  add(car: number, code: number): void {
    let list = this.now.get(car);
    if (!list) this.now.set(car, (list = []));
    if (list.length === 0) this.touched.push(car);
    if (list.length < CONTACT_SLOTS && !list.includes(code)) list.push(code);
  }

  /** Every car's memory of the group ← this tick's pairs (no pair: all slots 0). */
  commit(world: SimWorld): void {
    const any = this.touched.length > 0;
    for (const car of entitiesWith(world, world.c.CarCollider)) {
      const list = any ? this.now.get(car) : undefined;
      for (let k = 0; k < CONTACT_SLOTS; k++) this.slots[k]![car] = list?.[k] ?? 0;
    }
  }
}
