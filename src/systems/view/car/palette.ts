/** Fixed colours of the generated car (the livery colours come from the car file's `[look]`). */
import type { Rgb } from '../../../content/car-look';
import type { Rgba } from './mesh-builder';

export const GLASS: Rgba = [0.06, 0.09, 0.12, 1];
export const TRIM: Rgba = [0.05, 0.05, 0.06, 1];
export const ARCH_LINER: Rgba = [0.03, 0.03, 0.03, 1];
export const WHITE: Rgba = [0.93, 0.93, 0.9, 1];
export const TAIL_RED: Rgba = [0.75, 0.03, 0.03, 1];
export const TYRE: Rgba = [0.045, 0.045, 0.05, 1];
export const RIM: Rgba = [0.78, 0.78, 0.8, 1];
export const RIM_DARK: Rgba = [0.32, 0.32, 0.35, 1];

/** Decals sit this far off the panel they are painted on, m (no z-fighting at chase-camera distance). */
export const DECAL_OFFSET_M = 0.004;

export const rgba = (c: Rgb): Rgba => [c[0], c[1], c[2], 1];
