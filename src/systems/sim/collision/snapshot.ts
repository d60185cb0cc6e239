/**
 * Collision state kept outside components, saved in replay keyframes / snapshots (src/ecs/snapshot.ts):
 * the pairs in contact during the last tick (so a restored run reports and counts a continuing contact exactly
 * as the recorded one did) and, with Havok props, the prop bodies re-placed from their hashed `Prop` state.
 * Havok's internal caches (contact manifolds, sleep timers) are not part of a snapshot: a restore mid-prop-
 * contact can differ from the recording in float32 detail.
 */
import { registerSnapshotExtension } from '../../../ecs/snapshot';
import type { SimWorld } from '../../../ecs/world';
import { collisionRuntime } from './runtime';

interface CollisionSnapshot {
  contacts: string[];
  propContacts: string[];
}

registerSnapshotExtension({
  name: 'collision',
  save(world: SimWorld): object {
    const rt = collisionRuntime(world);
    const props = rt.props;
    const snap: CollisionSnapshot = {
      contacts: [...rt.contactsPrev].sort(),
      propContacts: props ? [...props.contactsPrev].sort() : [],
    };
    return snap;
  },
  load(world: SimWorld, data: Uint8Array | object): void {
    const d = data as Partial<CollisionSnapshot>;
    if (!Array.isArray(d.contacts) || !Array.isArray(d.propContacts))
      throw new Error('snapshot extension "collision": expected { contacts: string[], propContacts: string[] }');
    const rt = collisionRuntime(world);
    rt.contactsPrev = new Set(d.contacts);
    rt.contactsNow.clear();
    if (rt.props) {
      rt.props.contactsPrev = new Set(d.propContacts);
      rt.props.contactsNow.clear();
      rt.props.restoreFromComponents(world);
    }
  },
});
