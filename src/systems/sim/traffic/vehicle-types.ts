/**
 * Traffic vehicle types (Félez §5: each automatic vehicle has its own mass, geometry and power): the shipped
 * cars' dimensions read from their configs, plus a delivery van. Axle cornering stiffness is the slope of the
 * tyre's lateral force at the static axle load (two tyres per axle), as the bicycle-model test of the full car
 * derives it (tests/vehicle/bicycle.test.ts).
 */
import type { CarConfig } from '../../../content/car-schema';
import { stiffnessAtLoad } from '../vehicle/tires';
import { peakPower } from '../ai/car-params';
import { STANDARD_GRAVITY_M_S2 } from '../../../content/world-constants';

export interface TrafficVehicleType {
  id: string;
  lengthM: number;
  widthM: number;
  massKg: number;
  /** Yaw inertia I_z, kg·m². */
  izzKgM2: number;
  /** CG to front axle a and to rear axle b (eqs 3–5), m. */
  aM: number;
  bM: number;
  /** Axle cornering stiffness C_f, C_r, N/rad. */
  cfNPerRad: number;
  crNPerRad: number;
  /** Peak power (the hyperbolic constant-power gearbox of §5), W; driven share of the weight; front share of the drive. */
  powerW: number;
  drivenWeightFraction: number;
  frontDriveFraction: number;
  /** Drag coefficient × frontal area (m²) and rolling-resistance coefficient. */
  dragAreaM2: number;
  rollingResistance: number;
  /** Objective-speed factor of the type (a van keeps below the car's speed), and its road-wheel lock, rad. */
  speedFactor: number;
  maxSteerRad: number;
}

export function trafficTypeFromCar(cfg: CarConfig): TrafficVehicleType {
  const b = cfg.body;
  const frontLoad = (b.massKg * STANDARD_GRAVITY_M_S2 * b.cgToRearM) / b.wheelbaseM / 2;
  const rearLoad = (b.massKg * STANDARD_GRAVITY_M_S2 * b.cgToFrontM) / b.wheelbaseM / 2;
  const axle = (t: CarConfig['tires']['front'], load: number): number => 2 * stiffnessAtLoad(t.corneringStiffness, load, t.nominalLoad, t.stiffnessLoadExponent);
  const frontShare = b.cgToRearM / b.wheelbaseM;
  const layout = cfg.drivetrain.layout;
  return {
    id: cfg.id,
    lengthM: b.lengthM,
    widthM: b.widthM,
    massKg: b.massKg,
    izzKgM2: b.inertia[1],
    aM: b.cgToFrontM,
    bM: b.cgToRearM,
    cfNPerRad: axle(cfg.tires.front, frontLoad),
    crNPerRad: axle(cfg.tires.rear, rearLoad),
    powerW: peakPower(cfg),
    drivenWeightFraction: layout === 'awd' ? 1 : layout === 'fwd' ? frontShare : 1 - frontShare,
    frontDriveFraction: layout === 'awd' ? cfg.drivetrain.frontTorqueFraction : layout === 'fwd' ? 1 : 0,
    dragAreaM2: b.dragCoefficient * b.frontalAreaM2,
    rollingResistance: cfg.tires.rear.rollingResistance,
    speedFactor: 1,
    maxSteerRad: cfg.steering.maxAngle,
  };
}

/**
 * A 3.5 t class panel van (Ford Transit / Mercedes Sprinter size: 5.5 m long, 2.05 m wide, 3.5 m wheelbase,
 * 2.4 t laden, 100 kW); I_z from a uniform box m(L² + W²)/12; C ≈ 9 N/rad per N of axle load (light-truck
 * tyres); front-wheel drive.
 */
export const VAN: TrafficVehicleType = {
  id: 'van',
  lengthM: 5.5,
  widthM: 2.05,
  massKg: 2400,
  izzKgM2: (2400 * (5.5 * 5.5 + 2.05 * 2.05)) / 12,
  aM: 1.6,
  bM: 1.9,
  cfNPerRad: 9 * ((2400 * STANDARD_GRAVITY_M_S2 * 1.9) / 3.5),
  crNPerRad: 9 * ((2400 * STANDARD_GRAVITY_M_S2 * 1.6) / 3.5),
  powerW: 100_000,
  drivenWeightFraction: 1.9 / 3.5,
  frontDriveFraction: 1,
  dragAreaM2: 0.38 * 4.2,
  rollingResistance: 0.012,
  speedFactor: 0.9,
  maxSteerRad: 0.6,
};
