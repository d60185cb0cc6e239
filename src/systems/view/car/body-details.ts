/**
 * The details on a generated car body: lights, grille, bumpers, plates, mirrors, roof vent, mud flaps, livery
 * stripes and door number panels, and the wing the look asks for. Each piece is a box (closed) or a decal quad a
 * few millimetres off its panel.
 */
import { MeshBuilder, type Rgba } from './mesh-builder';
import type { BodyProfile } from './body-profile';
import type { CarShape } from './car-shape';
import { DECAL_OFFSET_M, TRIM, WHITE, rgba } from './palette';

const HEADLIGHT: Rgba = [1, 0.96, 0.82, 1];
const SPOTLIGHT: Rgba = [0.98, 0.98, 0.92, 1];
const PLATE_W_M = 0.52;
const PLATE_H_M = 0.11;

/** A decal on the vertical plane z = const, facing +z (front) or −z (rear). */
function faceDecal(b: MeshBuilder, z: number, facing: 1 | -1, x0: number, x1: number, y0: number, y1: number, c: Rgba): void {
  b.quad([x0, y0, z], [x1, y0, z], [x1, y1, z], [x0, y1, z], c, [0, 0, facing]);
}

/** A decal on a side panel x = ±const, spanning z0..z1 and y0..y1. */
function sideDecal(b: MeshBuilder, x: number, z0: number, z1: number, y0: number, y1: number, c: Rgba): void {
  const s = Math.sign(x);
  b.quad([x, y0, z0], [x, y0, z1], [x, y1, z1], [x, y1, z0], c, [s, 0, 0]);
}

function addFront(b: MeshBuilder, shape: CarShape, p: BodyProfile): void {
  const z = p.frontZ + DECAL_OFFSET_M;
  const hw = shape.widthM / 2;
  for (const sx of [1, -1]) {
    faceDecal(b, z, 1, sx * hw * 0.5, sx * hw * 0.9, p.noseY - 0.12, p.noseY - 0.025, HEADLIGHT);
    // rally spotlights on the bumper
    b.box([sx * hw * 0.3, p.noseY - 0.2, p.frontZ + 0.06], [0.17, 0.17, 0.07], SPOTLIGHT);
  }
  faceDecal(b, z, 1, -hw * 0.45, hw * 0.45, p.noseY - 0.11, p.noseY - 0.035, TRIM);
  b.box([0, p.sillY + 0.07, p.frontZ - 0.04], [shape.widthM + 0.02, 0.14, 0.12], TRIM);
  faceDecal(b, p.frontZ + 0.02 + DECAL_OFFSET_M, 1, -PLATE_W_M / 2, PLATE_W_M / 2, p.sillY + 0.16, p.sillY + 0.16 + PLATE_H_M, WHITE);
}

function addRear(b: MeshBuilder, shape: CarShape, p: BodyProfile): void {
  const z = p.rearZ - DECAL_OFFSET_M;
  b.box([0, p.sillY + 0.07, p.rearZ + 0.04], [shape.widthM + 0.02, 0.14, 0.12], TRIM);
  faceDecal(b, z, -1, -PLATE_W_M / 2, PLATE_W_M / 2, p.beltY - 0.32, p.beltY - 0.32 + PLATE_H_M, WHITE);
  b.endPart('front and rear', false);
}

/** Side stripe, sill band and door number panel between the arches, both sides. */
function addLivery(b: MeshBuilder, shape: CarShape, p: BodyProfile): void {
  const [fa, ra] = p.arches as [BodyProfile['arches'][0], BodyProfile['arches'][0]];
  const z0 = ra.z + ra.r + 0.04;
  const z1 = fa.z - fa.r - 0.04;
  const stripe = rgba(shape.look.stripe);
  const second = rgba(shape.look.secondary);
  const midY = (p.sillY + p.beltY) / 2;
  const door = (p.glass.base + p.glass.rearBase) / 2 + 0.25;
  for (const sx of [1, -1]) {
    const x = sx * (shape.widthM / 2 + DECAL_OFFSET_M);
    sideDecal(b, x, p.rearZ + 0.1, p.frontZ - 0.1, p.beltY - 0.09, p.beltY - 0.04, stripe);
    sideDecal(b, x, z0, z1, p.sillY, p.sillY + 0.09, second);
    // number panel: a stripe-coloured frame with a white card on top of it
    sideDecal(b, x, door - 0.2, door + 0.2, midY - 0.15, midY + 0.13, stripe);
    sideDecal(b, x + sx * DECAL_OFFSET_M, door - 0.17, door + 0.17, midY - 0.12, midY + 0.1, WHITE);
  }
  // bonnet and roof stripes down the middle
  const bonnetA: [number, number] = [p.glass.base, p.beltY];
  const bonnetB: [number, number] = [p.frontZ - 0.06, p.noseY + 0.07];
  const yOn = (z: number): number => bonnetA[1] + ((bonnetB[1] - bonnetA[1]) * (z - bonnetA[0])) / (bonnetB[0] - bonnetA[0]) + DECAL_OFFSET_M;
  for (const sx of [1, -1]) {
    const xa = sx * 0.08;
    const xb = sx * 0.2;
    b.quad([xa, yOn(bonnetA[0]), bonnetA[0]], [xb, yOn(bonnetA[0]), bonnetA[0]], [xb, yOn(bonnetB[0]), bonnetB[0]], [xa, yOn(bonnetB[0]), bonnetB[0]], stripe, [0, 1, 0]);
    const yr = p.roofY + DECAL_OFFSET_M;
    b.quad([xa, yr, p.glass.roofRear + 0.05], [xb, yr, p.glass.roofRear + 0.05], [xb, yr, p.glass.top - 0.05], [xa, yr, p.glass.top - 0.05], stripe, [0, 1, 0]);
  }
  b.endPart('livery', false);
}

/** Mirrors, roof vent and mud flaps (closed boxes). */
function addFittings(b: MeshBuilder, shape: CarShape, p: BodyProfile): void {
  const paint = rgba(shape.look.primary);
  for (const sx of [1, -1]) b.box([sx * (shape.widthM / 2 + 0.05), p.beltY + 0.09, p.glass.base - 0.12], [0.12, 0.09, 0.1], paint);
  b.box([0, p.roofY + 0.02, (p.glass.top + p.glass.roofRear) / 2 + 0.1], [0.32, 0.04, 0.26], TRIM, -0.06);
  for (const w of shape.wheels) {
    const a = p.arches[w.z >= 0 ? 0 : 1]!;
    b.box([w.x, p.sillY - 0.055, a.z - a.r + 0.02], [w.widthM * 0.95, 0.17, 0.015], w.z >= 0 ? TRIM : rgba(shape.look.stripe));
  }
  b.endPart('fittings', true);
}

/** A lip on the roof (hatch) or the boot edge, or a big rally wing on posts. */
function addWing(b: MeshBuilder, shape: CarShape, p: BodyProfile): void {
  const wing = shape.look.wing;
  if (wing === 'none') return;
  const second = rgba(shape.look.secondary);
  if (wing === 'lip') {
    if (shape.look.style === 'hatch') b.box([0, p.roofY - 0.01, p.glass.roofRear - 0.1], [shape.widthM * 0.74, 0.03, 0.24], second, -0.12);
    else b.box([0, p.beltY + 0.03, p.rearZ + 0.1], [shape.widthM * 0.85, 0.03, 0.16], second, -0.15);
  } else {
    const y = Math.min(p.roofY - 0.08, p.beltY + 0.24);
    b.box([0, y, p.rearZ + 0.2], [shape.widthM * 0.9, 0.04, 0.3], second, -0.1);
    for (const sx of [1, -1]) b.box([sx * shape.widthM * 0.3, (y + p.beltY) / 2, p.rearZ + 0.2], [0.04, y - p.beltY, 0.12], TRIM);
  }
  b.endPart('wing', true);
}

export function addBodyDetails(b: MeshBuilder, shape: CarShape, p: BodyProfile): void {
  addFront(b, shape, p);
  addRear(b, shape, p);
  addLivery(b, shape, p);
  addFittings(b, shape, p);
  addWing(b, shape, p);
}
