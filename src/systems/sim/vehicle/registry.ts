/**
 * Per-world vehicle resources: the car list (ascending eids, iterated in that order for determinism, no
 * bitecs query in the inner loops) and each car's runtime parameters (its CarConfig), plus the surface table.
 */
import type { SimWorld } from '../../../ecs/world';
import type { CarConfig } from '../../../content/car-schema';
import { DEFAULT_SURFACES, type SurfaceTable } from '../../../content/surfaces';

/** Air density (kg/m³, ISA sea level). */
export const AIR_DENSITY = 1.225;

export interface CarRuntime {
  eid: number;
  cfg: CarConfig;
  /** Wheel entity ids FL, FR, RL, RR. */
  wheels: [number, number, number, number];
  /** Torque split of the gearbox output to each wheel through open diffs (sums to 1). */
  split: [number, number, number, number];
  /** Scratch for the driveline solve. */
  scratch: Float64Array;
}

export interface VehicleResources {
  cars: number[];
  byEid: Map<number, CarRuntime>;
  list: CarRuntime[];
  surfaces: SurfaceTable;
}

export function vehicles(world: SimWorld): VehicleResources {
  const w = world as SimWorld & { vehicleRes?: VehicleResources };
  w.vehicleRes ??= { cars: [], byEid: new Map(), list: [], surfaces: DEFAULT_SURFACES };
  return w.vehicleRes;
}

/** Replace the surface friction table of this world (e.g. after loading a modded surfaces.toml). */
export function setSurfaces(world: SimWorld, table: SurfaceTable): void {
  vehicles(world).surfaces = table;
}

export function registerCar(world: SimWorld, rt: CarRuntime): void {
  const res = vehicles(world);
  res.byEid.set(rt.eid, rt);
  res.list = [...res.byEid.values()].sort((a, b) => a.eid - b.eid);
  res.cars = res.list.map((r) => r.eid);
}

export function unregisterCar(world: SimWorld, eid: number): void {
  const res = vehicles(world);
  res.byEid.delete(eid);
  res.list = [...res.byEid.values()].sort((a, b) => a.eid - b.eid);
  res.cars = res.list.map((r) => r.eid);
}

export function carRuntime(world: SimWorld, eid: number): CarRuntime {
  const rt = vehicles(world).byEid.get(eid);
  if (!rt) throw new Error(`vehicle: entity ${eid} is not a car`);
  return rt;
}

/** Open-diff torque split of the gearbox output over FL, FR, RL, RR. */
export function openSplit(cfg: CarConfig): [number, number, number, number] {
  const f = cfg.drivetrain.frontTorqueFraction;
  return [f / 2, f / 2, (1 - f) / 2, (1 - f) / 2];
}
