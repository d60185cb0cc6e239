/**
 * The generated car body (src/systems/view/car/): built from each shipped car's dimensions and `[look]`, it stays
 * inside the car's box, opens an arch over every wheel, closes every closed part, is deterministic, and dents
 * only at the crushed corner.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_CARS, loadBuiltinCar, readBuiltin } from '../../src/content/cars/index';
import { loadCarConfig } from '../../src/content/car-load';
import { ContentError } from '../../src/validate/errors';
import { BODY_STYLES, lookConfig, LookSchema } from '../../src/content/car-look';
import type { CarConfig } from '../../src/content/car-schema';
import { buildCarBody } from '../../src/systems/view/car/car-body-mesh';
import { buildWheel, TYRE_SEGMENTS } from '../../src/systems/view/car/wheel-mesh';
import { crushPositions, CRUSH_IN_M, dentWeight } from '../../src/systems/view/car/car-crush';
import { ARCH_GAP_M } from '../../src/systems/view/car/body-profile';
import { triangulatePolygon } from '../../src/systems/view/car/triangulate';
import { carShapeOf } from '../../src/systems/view/car/car-shape';
import type { MeshData, MeshPart } from '../../src/systems/view/car/mesh-builder';

const CARS = BUILTIN_CARS.map((b) => ({ id: b.id, shape: carShapeOf(loadBuiltinCar(b.id)) }));
/** Every style on one car's dimensions, so each profile is checked whatever the shipped cars choose. */
const STYLES = BODY_STYLES.flatMap((style) =>
  (['none', 'lip', 'big'] as const).map((wing) => ({ id: `${style}/${wing}`, shape: { ...CARS[0]!.shape, look: { ...CARS[0]!.shape.look, style, wing } } })),
);
/** Float32 storage rounds positions to ~1e-7 relative; 1e-5 m is far below any modelled feature (4 mm decals). */
const TOL_M = 1e-5;

/** Edges of a part's triangles after welding coincident vertices (rounded to TOL_M), with their use count. */
function edgeUses(m: MeshData, part: MeshPart): Map<string, number> {
  const key = (v: number): string => {
    const p = [0, 1, 2].map((k) => Math.round(m.positions[3 * v + k]! / TOL_M));
    return p.join(',');
  };
  const uses = new Map<string, number>();
  for (let t = part.first; t < part.first + part.count; t++) {
    const v = [3 * t, 3 * t + 1, 3 * t + 2].map((i) => key(m.indices[i]!));
    for (let e = 0; e < 3; e++) {
      const [a, b] = [v[e]!, v[(e + 1) % 3]!].sort();
      const k = `${a}|${b}`;
      uses.set(k, (uses.get(k) ?? 0) + 1);
    }
  }
  return uses;
}

describe('generated car body', () => {
  it.each([...CARS, ...STYLES])('$id: every vertex lies inside the car box (length × width × height, mirrors and wing overhang aside)', ({ shape }) => {
    const { body } = buildCarBody(shape);
    const groundY = Math.min(...shape.wheels.map((w) => w.y - w.radiusM));
    // mirrors stand 0.11 m proud of each side; spotlights and bumpers 0.1 m beyond the nose (real cars: same)
    const MIRROR_M = 0.11 + TOL_M;
    const BUMPER_M = 0.1 + TOL_M;
    for (let i = 0; i < body.positions.length; i += 3) {
      expect(Math.abs(body.positions[i]!)).toBeLessThanOrEqual(shape.widthM / 2 + MIRROR_M);
      expect(body.positions[i + 1]!).toBeGreaterThanOrEqual(groundY - TOL_M);
      expect(body.positions[i + 1]!).toBeLessThanOrEqual(groundY + shape.heightM + TOL_M);
      expect(Math.abs(body.positions[i + 2]!)).toBeLessThanOrEqual(shape.lengthM / 2 + BUMPER_M);
    }
  });

  it.each([...CARS, ...STYLES])('$id: no body panel enters the space a wheel sweeps (its arch is open over it)', ({ shape }) => {
    const { body, profile } = buildCarBody(shape);
    const lower = body.parts.find((p) => p.name === 'lower body')!;
    for (const w of shape.wheels) {
      const arch = profile.arches[w.z >= 0 ? 0 : 1]!;
      expect(arch.z).toBeCloseTo(w.z, 12);
      expect(arch.r).toBeCloseTo(w.radiusM + ARCH_GAP_M, 12);
      // every vertex of the lower body in the wheel's plane keeps out of the tyre's circle (radius + travel room)
      for (let v = 3 * lower.first; v < 3 * (lower.first + lower.count); v++) {
        const y = body.positions[3 * v + 1]!;
        const z = body.positions[3 * v + 2]!;
        expect(Math.hypot(z - w.z, y - w.y)).toBeGreaterThanOrEqual(w.radiusM + ARCH_GAP_M - TOL_M);
      }
    }
  });

  it.each([...CARS, ...STYLES])('$id: closed parts are watertight (each welded edge shared by exactly two triangles)', ({ shape }) => {
    const { body } = buildCarBody(shape);
    const closed = body.parts.filter((p) => p.closed);
    expect(closed.map((p) => p.name)).toEqual(expect.arrayContaining(['lower body', 'greenhouse', 'fittings']));
    for (const part of closed) for (const [edge, n] of edgeUses(body, part)) expect(n, `${part.name} edge ${edge}`).toBe(2);
  });

  it('normals are unit length and point out of the lower body (away from its centre line)', () => {
    const { body } = buildCarBody(CARS[0]!.shape);
    const part = body.parts.find((p) => p.name === 'lower body')!;
    for (let v = 3 * part.first; v < 3 * (part.first + part.count); v++) {
      const n = [0, 1, 2].map((k) => body.normals[3 * v + k]!);
      expect(Math.hypot(n[0]!, n[1]!, n[2]!)).toBeCloseTo(1, 5);
      // side caps face ±x with the vertex's side
      if (Math.abs(n[0]!) > 0.99) expect(Math.sign(n[0]!)).toBe(Math.sign(body.positions[3 * v]!));
    }
  });

  it('is deterministic: the same shape gives bit-identical arrays', () => {
    const a = buildCarBody(CARS[1]!.shape);
    const b = buildCarBody(CARS[1]!.shape);
    expect(Buffer.from(a.body.positions.buffer).equals(Buffer.from(b.body.positions.buffer))).toBe(true);
    expect(Buffer.from(a.body.colors.buffer).equals(Buffer.from(b.body.colors.buffer))).toBe(true);
  });

  it('each shipped car has its own style or livery, painted in its primary colour', () => {
    const keys = new Set(CARS.map((c) => `${c.shape.look.style} ${c.shape.look.primary.join(',')}`));
    expect(keys.size).toBe(CARS.length);
    for (const { shape } of CARS) {
      const { body } = buildCarBody(shape);
      // the most-used colour by triangle area... counted by vertex here: the primary paint covers the most vertices of the sides
      let primary = 0;
      for (let v = 0; v < body.colors.length; v += 4) if ([0, 1, 2].every((k) => Math.abs(body.colors[v + k]! - shape.look.primary[k]!) < 1e-6)) primary++;
      expect(primary).toBeGreaterThan(0);
    }
  });

  it('the big wing is only there when the look asks for it', () => {
    const has = (wing: 'none' | 'lip' | 'big'): boolean => buildCarBody({ ...CARS[0]!.shape, look: { ...CARS[0]!.shape.look, style: 'saloon', wing } }).body.parts.some((p) => p.name === 'wing');
    expect(has('none')).toBe(false);
    expect(has('big')).toBe(true);
  });
});

describe('generated wheel', () => {
  it('spans exactly 2r along Z and Y and w across its axle, and its tyre is closed', () => {
    const r = 0.318;
    const w = 0.225;
    const m = buildWheel(r, w);
    const ext = (k: number): number => {
      let lo = Infinity;
      let hi = -Infinity;
      for (let i = k; i < m.positions.length; i += 3) {
        lo = Math.min(lo, m.positions[i]!);
        hi = Math.max(hi, m.positions[i]!);
      }
      return hi - lo;
    };
    expect(ext(2)).toBeCloseTo(2 * r, 6); // vertices at angles 0 and π
    expect(ext(0)).toBeCloseTo(w, 6);
    // y extent: the nearest vertices to ±90° are at k = 4, 5 of 18 → 2r·sin(100°) ≥ … ≤ 2r
    expect(ext(1)).toBeLessThanOrEqual(2 * r + TOL_M);
    expect(ext(1)).toBeCloseTo(2 * r * Math.sin((2 * Math.PI * Math.round(TYRE_SEGMENTS / 4)) / TYRE_SEGMENTS), 6);
    for (const [, n] of edgeUses(m, m.parts.find((p) => p.name === 'tyre')!)) expect(n).toBe(2);
  });
});

describe('crush', () => {
  it('moves only the crushed corner, by CRUSH_IN_M at the very end, and leaves the doors alone', () => {
    const shape = CARS[2]!.shape;
    const { body } = buildCarBody(shape);
    const out = new Float32Array(body.positions.length);
    const nrm = new Float32Array(body.positions.length);
    crushPositions(body.positions, shape.lengthM, [1, 0, 0, 0], out, nrm);
    for (let i = 0; i < out.length; i += 3) {
      const x = body.positions[i]!;
      const z = body.positions[i + 2]!;
      const moved = Math.abs(out[i + 2]! - z);
      if (z >= 0 && x >= 0) expect(moved).toBeCloseTo(CRUSH_IN_M * dentWeight(z, shape.lengthM), 5);
      else expect(moved).toBe(0);
    }
    expect(dentWeight(shape.lengthM / 2, shape.lengthM)).toBe(1);
    expect(dentWeight(0.1 * shape.lengthM, shape.lengthM)).toBe(0);
  });
});

describe('[look] table', () => {
  it('reads colours and the style, and "coupé" is "coupe"', () => {
    const l = lookConfig(LookSchema.parse({ style: 'coupé', primary: '#ff8000' }));
    expect(l.style).toBe('coupe');
    expect(l.wing).toBe('none');
    expect(l.primary).toEqual([1, 128 / 255, 0]);
    expect(lookConfig(LookSchema.parse({})).wing).toBe('lip'); // hatch by default, with its roof lip
  });

  it('refuses a bad colour and an unknown style with the expected form', () => {
    const bad = LookSchema.safeParse({ primary: 'yellow' });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]!.message).toMatch(/expected a colour "#rrggbb"/);
    const style = LookSchema.safeParse({ style: 'estate' });
    expect(style.error!.issues[0]!.message).toMatch(/expected one of hatch, saloon, coupe/);
  });
});

describe('[look] in a car file', () => {
  const HATCH = BUILTIN_CARS.find((c) => c.id === 'hatch-gti')!;

  it('a bad colour is refused with a ContentError naming the file, the key, the expected form and the value', () => {
    const text = HATCH.text.replace(/primary = "#[0-9a-f]{6}"/, 'primary = "#12345"');
    let err: unknown;
    try {
      loadCarConfig(text, 'bad-look.toml', readBuiltin);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ContentError);
    const msg = (err as Error).message;
    expect(msg).toContain('bad-look.toml');
    expect(msg).toContain('look.primary');
    expect(msg).toMatch(/expected a colour "#rrggbb"/);
  });

  it('never reaches the simulation: a car differing only in its look loads the same physics', () => {
    const a = loadBuiltinCar('hatch-gti');
    const b = loadCarConfig(HATCH.text.replace(/\[look\][\s\S]*$/, ''), HATCH.file, readBuiltin);
    const physics = (c: CarConfig) => ({ ...c, look: null, source: null });
    expect(physics(b)).toEqual(physics(a));
    expect(b.look.primary).not.toEqual(a.look.primary);
  });
});

describe('triangulatePolygon', () => {
  it('gives n − 2 triangles covering a concave outline (area conserved)', () => {
    // a U shape: area 3·2 − 1·1 = 5
    const u: [number, number][] = [[0, 0], [3, 0], [3, 2], [2, 2], [2, 1], [1, 1], [1, 2], [0, 2]];
    const tris = triangulatePolygon(u);
    expect(tris).toHaveLength(u.length - 2);
    const area = tris.reduce((s, [a, b, c]) => {
      const [A, B, C] = [u[a]!, u[b]!, u[c]!];
      return s + Math.abs((B[0] - A[0]) * (C[1] - A[1]) - (B[1] - A[1]) * (C[0] - A[0])) / 2;
    }, 0);
    expect(area).toBeCloseTo(5, 12);
  });
});
