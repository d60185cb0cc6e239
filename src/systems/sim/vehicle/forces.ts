/**
 * The vehicle force passes 2–5 merged into one loop over the cars (suspension/contact → drivetrain → tyres →
 * brakes/aero → unsprung wheel travel for car 1, then car 2, …; all but the drivetrain in WebAssembly where the
 * world has the force kernel, force-kernel.ts). Each pass only reads and writes its own car's entities (and that
 * car's body accumulators), so running them car by car gives the same bits as running each pass over all
 * cars, with one walk over the car list per force evaluation instead of four and the car's data still in
 * cache between the passes.
 *
 * `vehicleAfterStep` (once per tick, after the integration) fills the telemetry-only accelerometer reading
 * (Car.accX / accZ) from the tick's last force evaluation's force sum, projected on the end-of-step body axes.
 * The slip angle is not stored: its readers compute it from that evaluation's contact velocities
 * (`slipAngleOf`, telemetry.ts).
 */
import type { SimWorld } from '../../../ecs/world';
import { vehicles } from './registry';
import { clearDriveSums, suspensionCar } from './suspension-contact';
import { drivetrainCar } from './drivetrain';
import { tiresCar } from './tires';
import { brakesAeroCar } from './brakes-aero';
import { unsprungCar } from './unsprung';
import { forceKernelOf, prepareForceKernel, runForceKernel } from './force-kernel';

export function vehicleForces(world: SimWorld): void {
  const list = vehicles(world).list;
  const kernel = list.length > 0 ? forceKernelOf(world) : null;
  for (let i = 0; i < list.length; i++) {
    const rt = list[i]!;
    // 2, 4, 5 and 5b in WebAssembly where the world has the kernel (force-kernel.ts: the same bits); the
    // drivetrain pass reads nothing pass 2 writes but the drive sums, so it can run first
    if (kernel !== null && prepareForceKernel(kernel, world, rt)) {
      clearDriveSums(world, rt);
      drivetrainCar(world, rt);
      runForceKernel(kernel, world, rt);
      continue;
    }
    suspensionCar(world, rt);
    drivetrainCar(world, rt);
    tiresCar(world, rt);
    brakesAeroCar(world, rt);
    unsprungCar(world, rt); // last: needs every force on the car (unsprung.ts)
  }
}

export function vehicleAfterStep(world: SimWorld): void {
  const b = world.c.RigidBody;
  const C = world.c.Car;
  const g = world.gravity;
  const list = vehicles(world).list;
  for (let c = 0; c < list.length; c++) {
    const eid = list[c]!.eid;
    // Accelerometer (specific force, gravity excluded) in the body frame, from the last evaluation's forces.
    const m = b.mass[eid]!;
    const ax = b.fx[eid]! / m - g.x * b.gravity[eid]!,
      ay = b.fy[eid]! / m - g.y * b.gravity[eid]!,
      az = b.fz[eid]! / m - g.z * b.gravity[eid]!;
    C.accX[eid] = b.R0[eid]! * ax + b.R3[eid]! * ay + b.R6[eid]! * az;
    C.accZ[eid] = b.R2[eid]! * ax + b.R5[eid]! * ay + b.R8[eid]! * az;
  }
}
