/**
 * A traffic car's drawn body (town mode): the generated car body (car-body-mesh.ts, by `[look]` style) less the
 * rally fittings and livery, its tail lights, and four low-poly wheels (octagonal prisms), merged into one mesh
 * so each vehicle type is one thin-instanced draw call. About 320 triangles a car (the player's car: ~1240),
 * so the near traffic stays inside the graphics presets' triangle budgets.
 */
import { buildCarBody } from './car-body-mesh';
import { MeshBuilder, type MeshData, type Vec3 } from './mesh-builder';
import { TYRE } from './palette';
import type { CarShape } from './car-shape';

/** Body parts a traffic car keeps (no rally fittings, stripes or number panels on a town car). */
const TRAFFIC_PARTS: ReadonlySet<string> = new Set(['lower body', 'greenhouse', 'side glass', 'front and rear']);
/** Sides of a traffic car's wheel prism. */
export const TRAFFIC_WHEEL_SIDES = 8;

/** A wheel as a closed prism round the X axis: the tread and two flat side walls, centred on (x, y, z). */
function addLowPolyWheel(b: MeshBuilder, x: number, y: number, z: number, radiusM: number, widthM: number): void {
  const hw = widthM / 2;
  const at = (sx: number, k: number): Vec3 => {
    const a = (2 * Math.PI * k) / TRAFFIC_WHEEL_SIDES;
    return [x + sx * hw, y + radiusM * Math.sin(a), z + radiusM * Math.cos(a)];
  };
  for (let k = 0; k < TRAFFIC_WHEEL_SIDES; k++) {
    const mid = (2 * Math.PI * (k + 0.5)) / TRAFFIC_WHEEL_SIDES;
    b.quad(at(1, k), at(1, k + 1), at(-1, k + 1), at(-1, k), TYRE, [0, Math.sin(mid), Math.cos(mid)]);
    for (const sx of [1, -1]) b.tri([x + sx * hw, y, z], at(sx, k), at(sx, k + 1), TYRE, [sx, 0, 0]);
  }
}

/** Appends the triangles [first, first + count) of `src` to the output arrays. */
function copyTriangles(src: MeshData, first: number, count: number, out: { pos: number[]; nrm: number[]; col: number[] }): void {
  for (let t = first; t < first + count; t++) {
    for (let c = 0; c < 3; c++) {
      const v = src.indices[3 * t + c]!;
      out.pos.push(src.positions[3 * v]!, src.positions[3 * v + 1]!, src.positions[3 * v + 2]!);
      out.nrm.push(src.normals[3 * v]!, src.normals[3 * v + 1]!, src.normals[3 * v + 2]!);
      out.col.push(src.colors[4 * v]!, src.colors[4 * v + 1]!, src.colors[4 * v + 2]!, src.colors[4 * v + 3]!);
    }
  }
}

/** The traffic body of `shape`: one mesh (parts: 'body', 'tail lights', 'wheels'), body frame as the car's. */
export function buildTrafficBody(shape: CarShape): MeshData {
  const gen = buildCarBody(shape);
  const wheels = new MeshBuilder();
  for (const w of shape.wheels) addLowPolyWheel(wheels, w.x, w.y, w.z, w.radiusM, w.widthM);
  wheels.endPart('wheels', true);
  const wd = wheels.build();
  const out = { pos: [] as number[], nrm: [] as number[], col: [] as number[] };
  const parts: MeshData['parts'] = [];
  const add = (name: string, src: MeshData, ranges: readonly { first: number; count: number }[], closed: boolean): void => {
    const first = out.pos.length / 9;
    for (const r of ranges) copyTriangles(src, r.first, r.count, out);
    parts.push({ name, first, count: out.pos.length / 9 - first, closed });
  };
  add('body', gen.body, gen.body.parts.filter((p) => TRAFFIC_PARTS.has(p.name)), false);
  add('tail lights', gen.brakeLights, gen.brakeLights.parts, false);
  add('wheels', wd, wd.parts, true);
  const n = out.pos.length / 3;
  const indices = new Uint32Array(n);
  for (let i = 0; i < n; i++) indices[i] = i;
  return { positions: new Float32Array(out.pos), normals: new Float32Array(out.nrm), colors: new Float32Array(out.col), indices, parts };
}
