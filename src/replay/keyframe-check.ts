/**
 * Keyframes checked against the checksum stream when a replay loads. A keyframe is restored by seeking without
 * re-simulating the ticks before it, so a corrupted one would show a wrong state; verification alone (which
 * re-simulates from the inputs) cannot see it. Each keyframe must therefore:
 *  - describe a world of this build: every component of componentSpecs once, its entities ascending and in the
 *    entity set, exactly its state fields (a stray field name could write a derived field on restore); a
 *    component the keyframe lacks is read as held by no entity (`withAbsentComponentsEmpty`: a build before that
 *    component existed wrote it) — if entities did hold it, the recorded checksum covers them and the hash check
 *    below refuses the keyframe;
 *  - hash (`snapshotHash`, the same walk as `stateHash`) to the checksum recorded at its tick: tick, PRNG and
 *    every state value are hashed, so any changed bit there is caught (64-bit hash);
 *  - have time = tick × dt exactly (how the pipeline and the recorder compute it).
 * A keyframe holds nothing else (every value a tick leaves for the next is component state), so these checks
 * cover all of it.
 */
import { componentSpecs } from '../ecs/components';
import { snapshotHash } from '../ecs/hash';
import type { WorldSnapshot } from '../ecs/snapshot';
import { ReplayFormatError } from './bytes';

const specs = componentSpecs as Record<string, { state: readonly string[] }>;

function ascending(a: Int32Array): boolean {
  for (let i = 1; i < a.length; i++) if (!(a[i]! > a[i - 1]!)) return false;
  return a.length === 0 || a[0]! >= 0;
}

/**
 * The snapshot with an empty entry (no entities) for each component of this build it lacks, in spec order after
 * its own: keyframes of replays written before a component existed (e.g. StageProgress, flat-ground runs).
 */
export function withAbsentComponentsEmpty(s: WorldSnapshot): WorldSnapshot {
  const present = new Set(s.components.map((c) => c.name));
  const absent = Object.entries(specs).filter(([n]) => !present.has(n));
  if (absent.length === 0) return s;
  const empty = absent.map(([name, spec]) => ({ name, eids: new Int32Array(0), fields: new Map(spec.state.map((f) => [f, new Float64Array(0)])) }));
  return { ...s, components: [...s.components, ...empty] };
}

/** What is wrong with the snapshot's layout for this build, or null. */
export function snapshotLayoutProblem(s: WorldSnapshot): string | null {
  if (!ascending(s.entities)) return 'entity ids ascending and distinct';
  const all = new Set(s.entities);
  const seen = new Set<string>();
  for (const c of s.components) {
    const spec = specs[c.name];
    if (!spec) return `components of this build, found "${c.name.slice(0, 40)}"`;
    if (seen.has(c.name)) return `each component once, found "${c.name}" twice`;
    seen.add(c.name);
    if (!ascending(c.eids) || c.eids.some((e) => !all.has(e))) return `${c.name}: entities ascending and in the entity set`;
    if (c.fields.size !== spec.state.length || spec.state.some((f) => !c.fields.has(f))) return `${c.name}: exactly the state fields ${spec.state.join(', ')}`;
  }
  const missing = Object.keys(specs).find((n) => !seen.has(n));
  return missing ? `every component of this build, "${missing}" missing` : null;
}

/**
 * Checks every keyframe against the header's dt and the recorded checksums (see the file comment); throws a
 * ReplayFormatError naming `keyframes[i]` (tick t) and what differs. Cost: one hash per keyframe.
 */
export function checkKeyframes(keyframes: readonly { tick: number; snapshot: WorldSnapshot }[], checksums: readonly { tick: number; hash: string }[], dt: number, file: string): void {
  const recorded = new Map<number, string>();
  for (const c of checksums) recorded.set(c.tick, c.hash);
  for (const [i, { tick, snapshot: s }] of keyframes.entries()) {
    const field = `keyframes[${i}] (tick ${tick})`;
    const layout = snapshotLayoutProblem(s);
    if (layout) throw new ReplayFormatError(file, field, layout, 'a keyframe that does not describe a world of this build (corrupted)');
    if (!Object.is(s.time, tick * dt)) throw new ReplayFormatError(file, `${field}.time`, `${tick * dt} s (tick × dt)`, `${s.time} (corrupted)`);
    const want = recorded.get(tick);
    if (want === undefined) throw new ReplayFormatError(file, field, `a recorded checksum at tick ${tick} (every keyframe is checked against one)`, 'none');
    const found = snapshotHash(s);
    if (found !== want) {
      throw new ReplayFormatError(file, `${field}.state`, `state hash ${want} (the checksum recorded at tick ${tick})`, `${found ?? 'an unhashable state'} (the keyframe is corrupted)`);
    }
  }
}
