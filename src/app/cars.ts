/**
 * Car catalogue and factories for the app. INTERIM until the vehicle simulation (issue 4) exports
 * `spawnCar` / `readCarTelemetry`: the car is a rigid body held at rest on the start line (gravity off,
 * no tyre forces), so menus, stage, views and HUD can be exercised; it does not drive yet.
 */
import type { SimWorld } from '../ecs/world';
import { spawnBody } from '../ecs/prefabs';
import { updateDerived } from '../systems/sim/rigid-body';
import type { CarInfo, CarTelemetryView, DrivableCar, Pose } from './car-link';
import type { CarShape } from '../systems/view/car-view';

const SHAPE = (color: [number, number, number]): CarShape => ({
  lengthM: 4.1,
  widthM: 1.78,
  heightM: 1.38,
  wheels: [
    { x: 0.76, y: -0.22, z: 1.27, radiusM: 0.32, widthM: 0.22 },
    { x: -0.76, y: -0.22, z: 1.27, radiusM: 0.32, widthM: 0.22 },
    { x: 0.76, y: -0.22, z: -1.25, radiusM: 0.32, widthM: 0.22 },
    { x: -0.76, y: -0.22, z: -1.25, radiusM: 0.32, widthM: 0.22 },
  ],
  color,
});

const INFOS: CarInfo[] = [
  { id: 'rally4wd', name: 'Rally 4WD', stats: [['Drive', '4WD'], ['Status', 'vehicle sim pending']], color: [0.1, 0.3, 0.85] },
];

export function CARS(): CarInfo[] {
  return INFOS;
}

function placeBody(world: SimWorld, eid: number, pose: Pose, rideM: number): void {
  const b = world.c.RigidBody;
  b.px[eid] = pose.x;
  b.py[eid] = pose.y + rideM;
  b.pz[eid] = pose.z;
  b.qw[eid] = Math.cos(pose.heading / 2);
  b.qx[eid] = 0;
  b.qy[eid] = Math.sin(pose.heading / 2);
  b.qz[eid] = 0;
  b.Px[eid] = b.Py[eid] = b.Pz[eid] = 0;
  b.Lx[eid] = b.Ly[eid] = b.Lz[eid] = 0;
  updateDerived(world, eid);
}

export function carFactory(id: string): (world: SimWorld, pose: Pose) => DrivableCar {
  const info = INFOS.find((c) => c.id === id) ?? INFOS[0]!;
  return (world, pose) => {
    const shape = SHAPE(info.color);
    const ride = 0.54;
    const eid = spawnBody(world, { mass: 1200, inertia: [500, 1600, 1400], gravity: false });
    placeBody(world, eid, pose, ride);
    return {
      eid,
      info,
      shape,
      place: (w, p) => placeBody(w, eid, p, ride),
      readTelemetry: (w: SimWorld, out: CarTelemetryView) => {
        const b = w.c.RigidBody;
        out.speedMS = Math.hypot(b.vx[eid]!, b.vy[eid]!, b.vz[eid]!);
        out.rpm = 900;
        out.gear = 0;
        out.contact = 1;
      },
    };
  };
}
