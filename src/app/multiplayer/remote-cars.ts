/**
 * The other players' cars in the drive: each drawn with the game's car view from its relayed states through
 * RemoteCarView (snapshot interpolation, dead reckoning; src/net/remote-car.ts), on its grid pose until its first
 * state arrives. A car's shape is its seat's car (the lobby lists it).
 */
import type { Scene } from '@babylonjs/core/scene';
import type { ShadowGenerator } from '@babylonjs/core/Lights/Shadows/shadowGenerator';
import type { Stage } from '../../../terrain/stage';
import { RemoteCarView, type RemotePose } from '../../net/remote-car';
import { gridPose } from '../../net/grid';
import type { CarState } from '../../net/packets';
import type { LobbySeat } from '../../net/room-client';
import { CarView } from '../../systems/view/car-view';
import { carShape } from '../cars';

const NO_WHEELS = [0, 1, 2, 3].map(() => ({ steer: 0, spin: 0, travel: 0 }));
/** Height of the CG above the ground drawn for a car with no state yet, m (about a car's at rest). */
const REST_CG_HEIGHT_M = 0.5;

interface RemoteCar {
  seat: LobbySeat;
  states: RemoteCarView;
  view: CarView;
  pose: RemotePose;
}

export class RemoteCars {
  private readonly cars = new Map<number, RemoteCar>();

  constructor(
    private readonly scene: Scene,
    private readonly shadows: ShadowGenerator | null,
    private readonly stage: Stage,
    private readonly dt: number,
  ) {}

  /** Adds the seats not drawn yet (all but `mySlot`) and removes the cars whose seats have gone. */
  sync(seats: readonly LobbySeat[], mySlot: number): void {
    const present = new Set<number>();
    for (const seat of seats) {
      if (seat.slot === mySlot) continue;
      present.add(seat.slot);
      if (this.cars.has(seat.slot)) continue;
      const g = gridPose(this.stage, seat.slot);
      const pose: RemotePose = { x: g.x, y: this.stage.bspline.height(g.x, g.z) + REST_CG_HEIGHT_M, z: g.z, heading: g.heading, mode: 'none' };
      this.cars.set(seat.slot, { seat, states: new RemoteCarView(this.dt), view: new CarView(this.scene, carShape(seat.car), this.shadows), pose });
    }
    for (const [slot, car] of this.cars) {
      if (present.has(slot)) continue;
      car.view.dispose();
      this.cars.delete(slot);
    }
  }

  /** A relayed state of the car in `slot` (ignored for a slot with no seat). */
  push(slot: number, s: CarState): void {
    this.cars.get(slot)?.states.push(s);
  }

  /** Draws every car at the (fractional) sim tick `tick`. */
  draw(tick: number): void {
    for (const car of this.cars.values()) {
      const had = car.pose.mode;
      car.states.sample(tick, car.pose);
      // no state yet: the car stays on its grid pose
      if (car.pose.mode === 'none') car.pose.mode = had;
      const h = car.pose.heading;
      // a rotation by the heading about +y turns +z (the car's forward) to (sin h, 0, cos h)
      car.view.update(car.pose.x, car.pose.y, car.pose.z, { w: Math.cos(h / 2), x: 0, y: Math.sin(h / 2), z: 0 }, NO_WHEELS, false);
    }
  }

  /** The drawn pose of each car (the test hook). */
  poses(): { slot: number; name: string; x: number; z: number; mode: RemotePose['mode'] }[] {
    return [...this.cars.values()].map((c) => ({ slot: c.seat.slot, name: c.seat.name, x: c.pose.x, z: c.pose.z, mode: c.pose.mode }));
  }

  nameOf(slot: number): string {
    return this.cars.get(slot)?.seat.name ?? `car ${slot + 1}`;
  }

  dispose(): void {
    for (const c of this.cars.values()) c.view.dispose();
    this.cars.clear();
  }
}
