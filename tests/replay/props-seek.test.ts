/**
 * Seeking in a run whose car knocks Havok props about. Havok's solver caches (contact manifolds, islands,
 * sleep timers) are not in a keyframe, so restoring a keyframe while a prop moves (or into a props world with
 * another history) cannot promise the same bits. The player therefore seeks only from keyframes at which
 * every prop was asleep since the start (recorded per keyframe) or from the start, and this test proves the
 * result equals linear playback bit for bit at targets while the props fly, tumble and settle.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadHavokNode } from '../../src/systems/sim/collision/havok-node';
import { enableHavokProps, spawnProp } from '../../src/systems/sim/collision/props';
import { neutralInput, type InputSource, type QuantizedInput } from '../../src/ecs/controls';
import { diffSnapshots, saveSnapshot, type WorldSnapshot } from '../../src/ecs/snapshot';
import { vehicleCarAdapter, type CarAdapter } from '../../src/run/cars';
import { collisionRuntime } from '../../src/systems/sim/collision/runtime';
import { decodeReplay, type ReplayData } from '../../src/replay/format';
import { ReplayPlayer } from '../../src/replay/player';
import { recordRun } from '../../src/replay/record-run';
import { buildRunWorld } from '../../src/run/run-world';
import type { HavokPhysicsWithBindings } from '@babylonjs/havok';
import { hatchCar, SETUP } from './helpers';

/** Straight ahead (+z), throttle on: the car ploughs through the cones and bales on its line. */
class Straight implements InputSource {
  private readonly q: QuantizedInput = { ...neutralInput(), throttle: 800 };
  next(): QuantizedInput {
    return this.q;
  }
}

let hp: HavokPhysicsWithBindings;
// the worlds of this run get props on the flat ground before their car (as stage worlds get the stage's props):
// the cars enter through an adapter that lays the props out first
const propsCars: CarAdapter = {
  ...vehicleCarAdapter,
  spawn(world, car) {
    if (!collisionRuntime(world).props) layProps(world);
    return vehicleCarAdapter.spawn(world, car);
  },
};
function layProps(world: Parameters<CarAdapter['spawn']>[0]): void {
  enableHavokProps(world, hp, 0);
  for (const [kind, x, z] of [
    ['cone', 0.3, 14],
    ['cone', -0.4, 19],
    ['hay-bale', 0.2, 27],
    ['cone', 0.6, 33],
    ['cone', 8, 6], // never touched: stays asleep the whole run
  ] as const) {
    spawnProp(world, kind, x, 0, z);
  }
}

const propsMoving = (s: WorldSnapshot): boolean => {
  const P = s.components.find((c) => c.name === 'Prop')!;
  return ['vx', 'vy', 'vz', 'wx', 'wy', 'wz'].some((f) => P.fields.get(f)!.some((v) => v !== 0));
};

describe('seeking while Havok props move is exact', () => {
  let data: ReplayData;
  beforeAll(async () => {
    hp = await loadHavokNode();
    const rec = recordRun({ setup: SETUP, cars: [hatchCar()], sources: [new Straight()], maxSeconds: 12, checksumEveryTicks: 250, keyframeEverySeconds: 1, adapter: propsCars });
    data = decodeReplay(rec.bytes, 'props.bitrally');
  }, 120_000);

  it('linear playback matches; keyframes taken while props move are not used for seeking', () => {
    expect(data.header.props).toBe(true);
    const moving = data.keyframes.filter((k) => propsMoving(k.snapshot)).map((k) => k.tick);
    // the car really hit the props: several keyframes have a prop in motion
    expect(moving.length).toBeGreaterThanOrEqual(2);
    const p = new ReplayPlayer(data, buildRunWorld(data.header, null, propsCars), propsCars, { cacheEveryTicks: 1 << 30 });
    for (const t of moving) expect(p.seekableKeyframe(t)).toBe(false);
    expect(p.seekableKeyframe(500)).toBe(true); // before the car reaches the first cone
  });

  it('a fresh player seeking to points while props fly and after they settle equals linear playback bit for bit', () => {
    const targets = [1_777, 2_345, 2_900, 3_456, 4_100, 5_010, 5_999];
    const truth = new Map<number, WorldSnapshot>();
    const linear = new ReplayPlayer(data, buildRunWorld(data.header, null, propsCars), propsCars, { cacheEveryTicks: 1 << 30 });
    while (linear.step()) if (targets.includes(linear.tick)) truth.set(linear.tick, saveSnapshot(linear.world));
    expect(linear.desync).toBeNull();
    expect(targets.some((t) => propsMoving(truth.get(t)!))).toBe(true);
    // backwards and forwards, with the player's own cached keyframes enabled (1 s) as in the viewer
    const p = new ReplayPlayer(data, buildRunWorld(data.header, null, propsCars), propsCars);
    for (const t of [5_010, 2_345, 3_456, 1_777, 5_999, 2_900, 4_100, 2_345]) {
      p.seek(t);
      expect(p.tick).toBe(t);
      expect(diffSnapshots(truth.get(t)!, saveSnapshot(p.world))).toEqual([]);
    }
    while (p.step());
    expect(p.desync).toBeNull();
  });
});
