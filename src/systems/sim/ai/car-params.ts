/**
 * What an AI driver knows about its car, read from the car config (issue 4's CarConfig), and the friction
 * the driver expects on a surface (the surfaces table × the car's tyre grip).
 */
import type { CarConfig } from '../../../content/car-schema';
import { DEFAULT_SURFACES, type SurfaceTable } from '../../../content/surface-table';
import { AIR_DENSITY } from '../vehicle/registry';
import { G } from './driver-model';
import type { DriverVehicle } from './driver';
import { dcbrt } from '../../../../terrain/dmath';

/** Peak engine power from the torque table, W (max of T·ω over the table's points). */
export function peakPower(cfg: CarConfig): number {
  let p = 0;
  for (let i = 0; i < cfg.engine.curveOmega.length; i++) p = Math.max(p, cfg.engine.curveOmega[i]! * cfg.engine.curveTorque[i]!);
  return p;
}

export function driverVehicleFromConfig(cfg: CarConfig): DriverVehicle {
  const b = cfg.body;
  const frontShare = b.cgToRearM / b.wheelbaseM; // static weight on the front axle
  const driven = cfg.drivetrain.layout === 'awd' ? 1 : cfg.drivetrain.layout === 'fwd' ? frontShare : 1 - frontShare;
  const r = cfg.tires.rear.radius;
  const P = peakPower(cfg);
  // top speed: the lower of the drag limit P = ½ ρ C_d A v³ and the redline in top gear
  const vDrag = dcbrt((2 * P) / (AIR_DENSITY * b.dragCoefficient * b.frontalAreaM2));
  const top = cfg.gearbox.ratios[cfg.gearbox.forwardGears]!;
  const vGear = (cfg.engine.redline / (top * cfg.gearbox.finalDrive)) * r;
  // brakes: total brake torque / radius / mass, limited by tarmac grip
  const grip = Math.min(cfg.tires.front.grip, cfg.tires.rear.grip);
  const brake = Math.min(cfg.brakes.maxTorque / (cfg.tires.front.radius * b.massKg), DEFAULT_SURFACES[0]!.muStatic * grip * G);
  return {
    wheelbaseM: b.wheelbaseM,
    maxSteerRad: cfg.steering.maxAngle,
    massKg: b.massKg,
    powerW: P,
    drivenWeightFraction: driven,
    brakeDecelMS2: brake,
    topSpeedMS: Math.min(vDrag, vGear),
    peakWheelForceN: cfg.gearbox.ratios.map((ratio, g) => (g === 0 ? 0 : (cfg.engine.peakTorque * Math.abs(ratio) * cfg.gearbox.finalDrive * cfg.gearbox.efficiency) / r)),
    dragAreaM2: b.dragCoefficient * b.frontalAreaM2,
    rollingResistance: cfg.tires.rear.rollingResistance,
  };
}

/**
 * Friction a driver plans with on surface code `code`: the mean of the static and sliding μ of the surface
 * table times the tyres' grip factor.
 */
export function plannedMu(cfg: CarConfig, code: number, table: SurfaceTable = DEFAULT_SURFACES): number {
  const s = table[code] ?? table[0]!;
  const grip = 0.5 * (cfg.tires.front.grip + cfg.tires.rear.grip);
  return 0.5 * (s.muStatic + s.muSliding) * grip;
}
