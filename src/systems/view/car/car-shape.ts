/** What the car views draw a car from: the car file's dimensions and its `[look]`. Body frame: +X left, +Y up, +Z forward. */
import type { CarLook } from '../../../content/car-look';
import type { CarConfig } from '../../../content/car-schema';

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

/** What the car views draw of a car file: its dimensions, wheels and `[look]` (the same body in every view). */
export function carShapeOf(c: CarConfig): CarShape {
  return {
    lengthM: c.body.lengthM,
    widthM: c.body.widthM,
    heightM: c.body.heightM,
    wheels: c.wheels.map((w) => {
      const t = w.front ? c.tires.front : c.tires.rear;
      return { x: w.position[0], y: w.position[1], z: w.position[2], radiusM: t.radius, widthM: t.width };
    }),
    look: c.look,
  };
}
