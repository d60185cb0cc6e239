/**
 * A car body generated from its dimensions and `[look]` (style, livery): lower body with wheel arches, greenhouse
 * with windscreen, side and rear glass, then the details a rally car carries (lights, grille, mirrors, bumpers,
 * roof vent, mud flaps, number plates, door number panels, stripes; a wing only when the look asks for one).
 * Pure geometry (positions, normals, colours, indices); src/systems/view/car-view.ts wraps it for Babylon.
 */
import { MeshBuilder, type MeshData } from './mesh-builder';
import { ARCH_LINER, DECAL_OFFSET_M, GLASS, TAIL_RED, rgba } from './palette';
import { bodyProfile, houseHalfWidth, zAt, type BodyProfile } from './body-profile';
import type { CarShape } from './car-shape';
import { addBodyDetails } from './body-details';

export interface CarBodyMesh {
  /** Everything but the brake lights (one draw call). */
  body: MeshData;
  /** The tail lights, drawn with their own emissive material so they glow under braking. */
  brakeLights: MeshData;
  profile: BodyProfile;
}

/** The lower body: side panels in the primary colour, arch liners dark, bonnet and boot deck painted. */
function addLowerBody(b: MeshBuilder, shape: CarShape, p: BodyProfile): void {
  const paint = rgba(shape.look.primary);
  const u = p.underside;
  b.prism(p.lower, () => shape.widthM / 2, paint, (i) => (i >= u.first && i <= u.last ? ARCH_LINER : paint));
  b.endPart('lower body', true);
}

/** The greenhouse: painted pillars and roof (secondary colour), glass windscreen and rear window. */
function addGreenhouse(b: MeshBuilder, shape: CarShape, p: BodyProfile): void {
  const paint = rgba(shape.look.primary);
  const roof = rgba(shape.look.secondary);
  // house edges: 0 belt (hidden), 1 rear glass, 2 roof, 3 windscreen
  const edge = [paint, GLASS, roof, GLASS];
  b.prism(p.house, (y) => houseHalfWidth(shape, p, y), paint, (i) => edge[i]!);
  b.endPart('greenhouse', true);
}

/** Side windows: front and rear panes either side of the B pillar, inset from the pillars and the roof rail. */
function addSideGlass(b: MeshBuilder, shape: CarShape, p: BodyProfile): void {
  const yb = p.beltY + 0.03;
  const yt = p.roofY - 0.05;
  const base: [number, number] = [p.glass.base, p.beltY];
  const top: [number, number] = [p.glass.top, p.roofY];
  const rr: [number, number] = [p.glass.roofRear, p.roofY];
  const rb: [number, number] = [p.glass.rearBase, p.beltY];
  const front = (y: number): number => zAt(base, top, y) - 0.07;
  // hatches have a broad C pillar; saloons and coupés a slimmer one
  const cPillar = shape.look.style === 'hatch' ? 0.22 : 0.08;
  const rear = (y: number): number => zAt(rb, rr, y) + cPillar;
  const bPillar = (p.glass.base + p.glass.rearBase) / 2 + 0.05;
  const panes: [number, number, number, number][] = [[front(yb), bPillar + 0.05, front(yt), bPillar + 0.05]];
  // a panel van's load area has no side windows
  if (shape.look.style !== 'van') panes.push([bPillar - 0.05, rear(yb), bPillar - 0.05, rear(yt)]);
  for (const sx of [1, -1]) {
    const x = (y: number): number => sx * (houseHalfWidth(shape, p, y) + DECAL_OFFSET_M);
    for (const [zbF, zbR, ztF, ztR] of panes) {
      if (zbF - zbR < 0.1 || ztF - ztR < 0.05) continue;
      b.quad([x(yb), yb, zbF], [x(yt), yt, ztF], [x(yt), yt, ztR], [x(yb), yb, zbR], GLASS, [sx, 0, 0]);
    }
  }
  b.endPart('side glass', false);
}

/** The tail lights (their own mesh: emissive under braking). */
function buildBrakeLights(shape: CarShape, p: BodyProfile): MeshData {
  const b = new MeshBuilder();
  const z = p.rearZ - DECAL_OFFSET_M;
  const y0 = p.beltY - 0.17;
  const y1 = p.beltY - 0.06;
  const hw = shape.widthM / 2;
  for (const sx of [1, -1]) {
    const xi = sx * hw * 0.55;
    const xo = sx * hw * 0.93;
    b.quad([xi, y0, z], [xo, y0, z], [xo, y1, z], [xi, y1, z], TAIL_RED, [0, 0, -1]);
  }
  b.endPart('tail lights', false);
  return b.build();
}

/** The body of `shape` as two meshes (body, brake lights), deterministic for a given shape. */
export function buildCarBody(shape: CarShape): CarBodyMesh {
  const p = bodyProfile(shape);
  const b = new MeshBuilder();
  addLowerBody(b, shape, p);
  addGreenhouse(b, shape, p);
  addSideGlass(b, shape, p);
  addBodyDetails(b, shape, p);
  return { body: b.build(), brakeLights: buildBrakeLights(shape, p), profile: p };
}
