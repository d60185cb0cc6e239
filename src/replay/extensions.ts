/**
 * Snapshot extensions for simulation state other areas keep outside components (found by reading their
 * code; see docs/replays.md "State outside components"):
 *  - collision: the set of contacting pairs of the previous tick (`contactsPrev`): a collision event and
 *    its response start when a pair is not in it, so a keyframe without it could replay a hit twice.
 * Havok props mirror their state into the Prop component (hashed), but restoring a keyframe does not yet
 * write it back into Havok bodies: listed as open in docs/replays.md.
 */
import { registerSnapshotExtension } from '../ecs/snapshot';
import { collisionRuntime } from '../systems/sim/collision/runtime';

registerSnapshotExtension({
  name: 'collision.contacts',
  save: (world) => [...collisionRuntime(world).contactsPrev].sort(),
  load: (world, data) => {
    const rt = collisionRuntime(world);
    if (!Array.isArray(data) || data.some((k) => typeof k !== 'string')) throw new Error('snapshot: extension collision.contacts: expected a list of pair keys');
    rt.contactsPrev = new Set(data as string[]);
    rt.contactsNow.clear();
  },
});
