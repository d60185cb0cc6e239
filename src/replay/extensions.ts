/**
 * Snapshot extensions for simulation state other areas keep outside components (found by reading their
 * code; see docs/replays.md "State outside components"):
 *  - collision: the set of contacting pairs of the previous tick (`contactsPrev`): a collision event and
 *    its response start when a pair is not in it, so a keyframe without it could replay a hit twice.
 * Havok props mirror their state into the Prop component (hashed), but restoring a keyframe does not yet
 * write it back into Havok bodies: listed as open in docs/replays.md.
 */
import { getAllEntities, hasComponent } from 'bitecs';
import { registerSnapshotExtension, type ExtensionProblem } from '../ecs/snapshot';
import type { SimWorld } from '../ecs/world';

// Found by restoring keyframes into fresh worlds with each derived field poisoned (NaN, ±1e6, 0, 1) and by
// reading the vehicle passes: the drivetrain's lock/unlock tests read the last solve (clutch torque,
// sticking flags, lock torques), ABS reads the last peak slip.
const CARRIED: Record<string, readonly string[]> = {
  Car: ['clutchTorque', 'clutchSticking', 'diffSticking', 'lockTorqueFront', 'lockTorqueRear', 'lockTorqueCentre'],
  Wheel: ['peakSlip'],
};
import { collisionRuntime } from '../systems/sim/collision/runtime';
import { HavokProps } from '../systems/sim/collision/props';

registerSnapshotExtension({
  name: 'collision.contacts',
  save: (world) => [...collisionRuntime(world).contactsPrev].sort(),
  load: (world, data) => {
    const rt = collisionRuntime(world);
    if (!Array.isArray(data) || data.some((k) => typeof k !== 'string')) throw new Error('snapshot: extension collision.contacts: expected a list of pair keys');
    rt.contactsPrev = new Set(data as string[]);
    rt.contactsNow.clear();
  },
  check: (data) => sortedKeysProblem(data),
});

/**
 * Derived fields that the next tick reads before it recomputes them (the vehicle's lock/unlock tests use
 * the last solve's lock torques and sticking flags, ABS uses the last peak slip…): not integrable state, so
 * not hashed, but a keyframe without them replays a different first tick. Saved bit-exactly (Float64 bytes)
 * for every entity that has the component. `CARRIED_FIELDS` lists them per component; the replay tests
 * restore keyframes into fresh worlds to catch any that are missing.
 */
export const CARRIED_FIELDS: Record<string, readonly string[]> = CARRIED;

type FieldStores = Record<string, Record<string, { [i: number]: number }>>;

function carriedList(world: SimWorld): { store: Record<string, { [i: number]: number }>; fields: readonly string[]; eids: number[] }[] {
  const out: { store: Record<string, { [i: number]: number }>; fields: readonly string[]; eids: number[] }[] = [];
  const stores = world.c as unknown as FieldStores;
  const all = [...getAllEntities(world)].sort((a, b) => a - b);
  for (const name of Object.keys(CARRIED_FIELDS).sort()) {
    const store = stores[name];
    if (!store) continue;
    out.push({ store, fields: CARRIED_FIELDS[name]!, eids: all.filter((e) => hasComponent(world, e, store)) });
  }
  return out;
}

registerSnapshotExtension({
  name: 'carried-derived',
  save: (world) => {
    const list = carriedList(world);
    let n = 0;
    for (const c of list) n += c.fields.length * c.eids.length;
    const v = new Float64Array(n);
    let k = 0;
    for (const c of list) for (const f of c.fields) for (const e of c.eids) v[k++] = c.store[f]![e]!;
    return new Uint8Array(v.buffer);
  },
  load: (world, data) => {
    if (!(data instanceof Uint8Array)) throw new Error('snapshot: extension carried-derived: expected bytes');
    const list = carriedList(world);
    let n = 0;
    for (const c of list) n += c.fields.length * c.eids.length;
    if (data.byteLength !== n * 8) throw new Error(`snapshot: extension carried-derived: expected ${n * 8} bytes, found ${data.byteLength}`);
    const v = new Float64Array(data.slice().buffer);
    let k = 0;
    for (const c of list) for (const f of c.fields) for (const e of c.eids) c.store[f]![e] = v[k++]!;
  },
  check: (data, snap) => {
    if (!(data instanceof Uint8Array)) return { expected: 'bytes', found: 'JSON' };
    let n = 0;
    for (const name of Object.keys(CARRIED_FIELDS).sort()) n += CARRIED_FIELDS[name]!.length * (snap.components.find((c) => c.name === name)?.eids.length ?? 0);
    if (data.byteLength !== n * 8) return { expected: `${n * 8} bytes (${n} carried values)`, found: String(data.byteLength) };
    const v = new Float64Array(data.slice().buffer);
    const bad = v.findIndex((x) => !Number.isFinite(x));
    return bad >= 0 ? { expected: 'finite values', found: `${v[bad]} at value ${bad}` } : null;
  },
});

/** A saved contact set: a sorted list of distinct short pair keys (as `save` writes it), else the problem. */
function sortedKeysProblem(data: unknown): ExtensionProblem | null {
  if (!Array.isArray(data)) return { expected: 'a list of pair keys', found: typeof data };
  for (let i = 0; i < data.length; i++) {
    const k: unknown = data[i];
    if (typeof k !== 'string' || k.length === 0 || k.length > MAX_PAIR_KEY_CHARS) return { expected: 'pair keys (short strings)', found: String(JSON.stringify(k)).slice(0, 40) };
    if (i > 0 && !((data[i - 1] as string) < k)) return { expected: 'sorted, distinct pair keys', found: `${JSON.stringify(data[i - 1])} then ${JSON.stringify(k)}` };
  }
  return null;
}
const MAX_PAIR_KEY_CHARS = 64;

/**
 * Havok props (collision issue): the Prop component holds each prop's pose and velocities (hashed); on
 * restore they are written back into the Havok bodies (`HavokProps.restoreFromComponents`) and the car–prop
 * contact set of the last tick is restored. Havok's own solver caches are not part of a keyframe: a seek
 * while a prop is moving may differ in the last bits (the viewer then resyncs on the next recorded keyframe).
 */
registerSnapshotExtension({
  name: 'collision.props',
  save: (world) => {
    const p = collisionRuntime(world).props;
    return p instanceof HavokProps ? { contacts: [...p.contactsPrev].sort() } : { contacts: null };
  },
  load: (world, data) => {
    const p = collisionRuntime(world).props;
    const c = (data as { contacts?: unknown }).contacts;
    if (!(p instanceof HavokProps)) return;
    if (!Array.isArray(c) || c.some((k) => typeof k !== 'string')) throw new Error('snapshot: extension collision.props: expected {contacts: string[]}');
    p.restoreFromComponents(world);
    p.contactsPrev = new Set(c as string[]);
    p.contactsNow.clear();
  },
  check: (data) => {
    const keys = Object.keys(data);
    if (keys.length !== 1 || keys[0] !== 'contacts') return { expected: '{contacts}', found: JSON.stringify(keys).slice(0, 40) };
    const c = (data as { contacts: unknown }).contacts;
    return c === null ? null : sortedKeysProblem(c);
  },
});
