/**
 * The side profile of a car body per style (hatch, saloon, coupe, van), in the body frame's (z, y) plane: the lower
 * body's outline with the wheel arches cut into its bottom edge, and the greenhouse (glass house) on the belt line.
 */
import type { BodyStyle } from '../../../content/car-look';
import type { CarShape } from './car-shape';

/** Sill height above the ground, m (rally ride height). */
export const SILL_CLEARANCE_M = 0.17;
/** Gap between the tyre and its arch, m: room for the tyre to rise on bump travel. */
export const ARCH_GAP_M = 0.06;
/** Segments of each arch's half circle. */
const ARCH_SEGMENTS = 8;

/** Glass house stations as fractions of the length from the nose, and the belt height as a fraction of the height. */
interface StyleStations {
  windscreenBase: number;
  windscreenTop: number;
  roofRear: number;
  rearGlassBase: number;
  belt: number;
  /** Roof drop below the overall height, m (room for the roof vent). */
  roofDrop: number;
}

const STATIONS: Record<BodyStyle, StyleStations> = {
  hatch: { windscreenBase: 0.29, windscreenTop: 0.46, roofRear: 0.88, rearGlassBase: 0.965, belt: 0.6, roofDrop: 0.06 },
  saloon: { windscreenBase: 0.31, windscreenTop: 0.48, roofRear: 0.72, rearGlassBase: 0.84, belt: 0.58, roofDrop: 0.06 },
  coupe: { windscreenBase: 0.35, windscreenTop: 0.55, roofRear: 0.69, rearGlassBase: 0.92, belt: 0.57, roofDrop: 0.07 },
  // a panel van: short bonnet, steep windscreen, the roof running to an upright tail
  van: { windscreenBase: 0.17, windscreenTop: 0.3, roofRear: 0.975, rearGlassBase: 0.99, belt: 0.5, roofDrop: 0.06 },
};

export interface BodyProfile {
  groundY: number;
  sillY: number;
  beltY: number;
  roofY: number;
  noseY: number;
  frontZ: number;
  rearZ: number;
  /** Greenhouse corners: windscreen base, windscreen top, roof rear, rear glass base (z), on belt/roof. */
  glass: { base: number; top: number; roofRear: number; rearBase: number };
  /** Arch centre z, centre y and radius, front axle then rear. */
  arches: { z: number; y: number; r: number }[];
  /** Lower body outline, (z, y), going round: nose, bottom rearwards through the arches, tail, top forwards. */
  lower: [number, number][];
  /** Edges lower[i] → lower[i+1] for first ≤ i ≤ last run along the underside and inside the arches. */
  underside: { first: number; last: number };
  /** Greenhouse outline (z, y). */
  house: [number, number][];
}

/** Points of an arch from its front foot over the top to its rear foot, on the sill line. */
function archPoints(a: { z: number; y: number; r: number }, sillY: number): [number, number][] {
  const dy = Math.min(a.r * 0.95, Math.max(0, a.y - sillY));
  const half = Math.acos(-dy / a.r); // angle from the top to the foot (beyond 90° when the centre is above the sill)
  const out: [number, number][] = [];
  for (let k = 0; k <= ARCH_SEGMENTS; k++) {
    const t = -half + (2 * half * k) / ARCH_SEGMENTS; // -half: front foot, +half: rear foot
    out.push([a.z + a.r * Math.sin(-t), a.y + a.r * Math.cos(t)]);
  }
  return out;
}

export function bodyProfile(shape: CarShape): BodyProfile {
  const st = STATIONS[shape.look.style];
  const L = shape.lengthM;
  const H = shape.heightM;
  const groundY = Math.min(...shape.wheels.map((w) => w.y - w.radiusM));
  const sillY = groundY + SILL_CLEARANCE_M;
  const beltY = groundY + H * st.belt;
  const roofY = groundY + H - st.roofDrop;
  const noseY = beltY - 0.12;
  const frontZ = L / 2;
  const rearZ = -L / 2;
  const at = (f: number): number => frontZ - f * L;
  const glass = { base: at(st.windscreenBase), top: at(st.windscreenTop), roofRear: at(st.roofRear), rearBase: at(st.rearGlassBase) };
  const axle = (front: boolean) => shape.wheels.filter((w) => (w.z >= 0) === front);
  const arches = [true, false].map((front) => {
    const ws = axle(front);
    const z = ws.reduce((s, w) => s + w.z, 0) / ws.length;
    const y = ws.reduce((s, w) => s + w.y, 0) / ws.length;
    return { z, y, r: Math.max(...ws.map((w) => w.radiusM)) + ARCH_GAP_M };
  });
  const lower: [number, number][] = [
    [frontZ, noseY],
    [frontZ, sillY + 0.12],
    [frontZ - 0.1, sillY],
    ...archPoints(arches[0]!, sillY),
    ...archPoints(arches[1]!, sillY),
    [rearZ + 0.08, sillY],
    [rearZ, sillY + 0.12],
    [rearZ, beltY - 0.05],
    [rearZ + 0.06, beltY],
    [glass.base, beltY],
    [frontZ - 0.06, noseY + 0.07],
  ];
  const house: [number, number][] = [
    [glass.base, beltY],
    [glass.rearBase, beltY],
    [glass.roofRear, roofY],
    [glass.top, roofY],
  ];
    // lower[2] is the chin's foot; 2 + 2 arches' points later comes the tail's foot
  const underside = { first: 2, last: 2 + 2 * (ARCH_SEGMENTS + 1) };
  return { groundY, sillY, beltY, roofY, noseY, frontZ, rearZ, glass, arches, underside, lower, house };
}

/** Half width of the greenhouse at height y: the belt's half width less the tumblehome (sides lean in). */
export function houseHalfWidth(shape: CarShape, p: BodyProfile, y: number): number {
  const belt = shape.widthM / 2 - 0.03;
  const roof = shape.widthM * 0.39;
  return belt + ((roof - belt) * (y - p.beltY)) / (p.roofY - p.beltY);
}

/** z on the segment a→b at height y (a, b as (z, y)). */
export function zAt(a: [number, number], b: [number, number], y: number): number {
  return a[0] + ((b[0] - a[0]) * (y - a[1])) / (b[1] - a[1]);
}
