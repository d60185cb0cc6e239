/**
 * The one place where the app meets the vehicle simulation (issue 4). Everything else in the app and the
 * views talks to `DrivableCar`. When the vehicle module's API changes, only this file changes.
 */
import type { SimWorld } from '../ecs/world';
import type { CarShape, WheelPose } from '../systems/view/car-view';

export interface CarInfo {
  id: string;
  name: string;
  /** Short stats lines for the car select screen. */
  stats: [string, string][];
  color: [number, number, number];
}

export interface CarTelemetryView {
  speedMS: number;
  rpm: number;
  redlineRpm: number;
  maxRpm: number;
  gear: number;
  /** The gear being engaged while a shift is under way (the gearbox sits in neutral meanwhile), else null. */
  shiftTo: number | null;
  throttle: number;
  brake: number;
  wheels: WheelPose[];
  /** Max tyre slip 0..1+. */
  slip: number;
  /** Surface id under most wheels. */
  surface: string;
  /** Fraction of wheels with ground contact. */
  contact: number;
  /** Per-corner damage 0..1 (FL, FR, RL, RR). */
  damage: number[];
}

export interface Pose {
  x: number;
  y: number;
  z: number;
  heading: number;
}

export interface DrivableCar {
  eid: number;
  info: CarInfo;
  shape: CarShape;
  readTelemetry(world: SimWorld, out: CarTelemetryView): void;
  /** Put the car at rest at `pose` (recovery, restart). */
  place(world: SimWorld, pose: Pose): void;
}

export const emptyTelemetry = (): CarTelemetryView => ({
  speedMS: 0,
  rpm: 0,
  redlineRpm: 7000,
  maxRpm: 8000,
  gear: 0,
  shiftTo: null,
  throttle: 0,
  brake: 0,
  wheels: [0, 1, 2, 3].map(() => ({ steer: 0, spin: 0, travel: 0 })),
  slip: 0,
  surface: 'gravel',
  contact: 0,
  damage: [0, 0, 0, 0],
});
