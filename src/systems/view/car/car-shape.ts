/** What the car views draw a car from: the car file's dimensions and its `[look]`. Body frame: +X left, +Y up, +Z forward. */
import type { CarLook } from '../../../content/car-look';

export interface WheelShape {
  /** Wheel centre at static ride height, body frame, m. */
  x: number;
  y: number;
  z: number;
  radiusM: number;
  widthM: number;
}

export interface CarShape {
  lengthM: number;
  widthM: number;
  heightM: number;
  /** Order FL, FR, RL, RR. */
  wheels: WheelShape[];
  look: CarLook;
}
