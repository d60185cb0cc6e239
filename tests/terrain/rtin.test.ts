/**
 * The RTIN's guarantees by brute force: every drawn triangle is within τ pixels of the full-resolution mesh at
 * every heightmap node it covers (projected through the view), and the mesh conforms (no T-junctions; with
 * the whole map in view every interior edge is shared by exactly two triangles).
 */
import { join } from 'node:path';
import { describe, it, expect } from 'vitest';
import { BSplineSurface, Heightfield, RtinTerrain, createRng, lookAtLodCamera, type LodCamera } from '../../terrain';
import { loadStageFromDir } from '../../terrain/node';
import { screenErrorPx } from './screen-px';

function terrain(n: number, seed: number, noise: number): BSplineSurface {
  const rng = createRng(seed), h = new Float32Array(n * n);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) h[j * n + i] = 30 * Math.sin(i / 9) * Math.cos(j / 13) + noise * rng() + (i > n / 2 ? 10 : 0);
  return new BSplineSurface(Heightfield.fromFloat32(h, n, n, { cellSize: 2, origin: { x: -(n - 1), z: -(n - 1) } }));
}

function camera(eye: [number, number, number], target: [number, number, number], fovY = 1): LodCamera {
  return lookAtLodCamera(eye, target, { fovY, aspect: 16 / 9, viewportHeightPx: 1080, near: 0.3, far: 5000 });
}

/** Drawn triangles as global node indices (z·size + x), from the chunks' local index lists. */
function drawnTriangles(r: RtinTerrain, cam: LodCamera, tau: number, occlusion: boolean): Int32Array {
  const sel = r.select(cam, tau, { occlusion });
  const out = new Int32Array(sel.triangles * 3);
  let o = 0;
  sel.chunkIndices.forEach((idx, chunk) => {
    const cx = (chunk % r.chunksPerSide) * r.chunkCells, cz = Math.floor(chunk / r.chunksPerSide) * r.chunkCells;
    for (const v of idx) out[o++] = (cz + Math.floor(v / r.vertsPerSide)) * r.size + cx + (v % r.vertsPerSide);
  });
  return out;
}

/** Worst (screen error / τ) over every node under every drawn on-screen point; asserts each ≤ τ. */
function checkDrawnErrorPx(r: RtinTerrain, cam: LodCamera, tau: number, tris: Int32Array): number {
  const N = r.size;
  let worst = 0;
  for (let t = 0; t < tris.length; t += 3) {
    const [a, b, c] = [tris[t]!, tris[t + 1]!, tris[t + 2]!].map((k) => [k % N, Math.floor(k / N), Math.fround(r.heights[k]!)] as const);
    const ux = b![0] - a![0], uz = b![1] - a![1], vx = c![0] - a![0], vz = c![1] - a![1], det = ux * vz - vx * uz;
    for (let z = Math.min(a![1], b![1], c![1]); z <= Math.max(a![1], b![1], c![1]); z++) {
      for (let x = Math.min(a![0], b![0], c![0]); x <= Math.max(a![0], b![0], c![0]); x++) {
        const l1 = ((x - a![0]) * vz - vx * (z - a![1])) / det, l2 = (ux * (z - a![1]) - (x - a![0]) * uz) / det;
        if (l1 < 0 || l2 < 0 || l1 + l2 > 1) continue;
        const wx = r.originX + x * r.cell, wz = r.originZ + z * r.cell;
        const drawn = a![2] + l1 * (b![2] - a![2]) + l2 * (c![2] - a![2]);
        const e = screenErrorPx(cam, wx, drawn, r.surface.height(wx, wz), wz);
        if (e === null) continue;
        worst = Math.max(worst, e / tau);
        // float32 vertex heights: ~1e-5 m of rounding, far below 1e-3 px at these depths
        expect(e).toBeLessThanOrEqual(tau + 1e-3);
      }
    }
  }
  return worst;
}

/** Lattice points strictly inside each drawn edge must not be drawn vertices; returns edge → use count. */
function checkNoTJunctions(r: RtinTerrain, tris: Int32Array): Map<string, number> {
  const N = r.size, verts = new Set(tris), edges = new Map<string, number>();
  for (let t = 0; t < tris.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const p = tris[t + e]!, q = tris[t + ((e + 1) % 3)]!;
      const key = p < q ? `${p},${q}` : `${q},${p}`;
      edges.set(key, (edges.get(key) ?? 0) + 1);
      const px = p % N, pz = (p - px) / N, qx = q % N, qz = (q - qx) / N;
      const steps = Math.max(Math.abs(qx - px), Math.abs(qz - pz));
      const sx = (qx - px) / steps, sz = (qz - pz) / steps;
      for (let k = 1; k < steps; k++) expect(verts.has((pz + k * sz) * N + px + k * sx)).toBe(false);
    }
  }
  return edges;
}

describe('RtinTerrain', () => {
  it('every node under a drawn triangle is within τ pixels of the full-resolution mesh on screen', () => {
    const r = new RtinTerrain(terrain(129, 11, 0.6), { chunkCells: 32 });
    const rng = createRng(4);
    const views: [[number, number, number], number][] = [[[0, 15, 0], 1], [[-100, 40, 80], 1], [[90, 120, -60], 1], [[-120, 6, -120], 3], [[0, 300, -200], 2]];
    for (let k = 0; k < 10; k++) views.push([[-120 + 240 * rng(), 5 + 80 * rng(), -120 + 240 * rng()], 0.5 + 3 * rng()]);
    let worst = 0, coarse = 0;
    for (const [eye, tau] of views) {
      const cam = camera(eye, [eye[0] + 60, 0, eye[2] + 40]);
      const tris = drawnTriangles(r, cam, tau, false);
      coarse += tris.length / 3;
      worst = Math.max(worst, checkDrawnErrorPx(r, cam, tau, tris));
    }
    expect(coarse).toBeGreaterThan(1000);
    // the bound is not loose by orders of magnitude: some node comes within 3× of τ
    expect(worst).toBeGreaterThan(1 / 3);
  });

  it('holds τ = 1 px in the game\'s chase view on a shipped stage (col-tarmac, with and without occlusion)', () => {
    const stage = loadStageFromDir(join(process.cwd(), 'src/content/stages/col-tarmac'));
    const r = new RtinTerrain(stage.bspline);
    for (const frac of [0]) {
      const car = stage.road.poseAt(stage.start.distanceM + (stage.lengthM - 1) * frac);
      const fx = Math.sin(car.heading), fz = Math.cos(car.heading);
      const cam = camera([car.x - 6 * fx, car.y + 2.5, car.z - 6 * fz], [car.x + 10 * fx, car.y + 0.5, car.z + 10 * fz]);
      const all = drawnTriangles(r, cam, 1, false);
      expect(checkDrawnErrorPx(r, cam, 1, all)).toBeGreaterThan(1 / 3);
      checkNoTJunctions(r, all);
      const shown = drawnTriangles(r, cam, 1, true);
      // occlusion only leaves triangles out (the active set, so every kept triangle, is the same)
      const keys = new Set<string>();
      for (let t = 0; t < all.length; t += 3) keys.add(`${all[t]},${all[t + 1]},${all[t + 2]}`);
      for (let t = 0; t < shown.length; t += 3) expect(keys.has(`${shown[t]},${shown[t + 1]},${shown[t + 2]}`)).toBe(true);
      expect(shown.length).toBeLessThan(all.length);
    }
  });

  it('is crack-free: no T-junctions, and with the whole map in view every interior edge has two triangles', () => {
    const r = new RtinTerrain(terrain(129, 5, 4), { chunkCells: 32 });
    const S = (r.size - 1) * r.cell;
    for (const [h, tau] of [[400, 0.05], [300, 0.3], [250, 1]] as const) {
      // a wide view from above one corner over the whole map: nothing culled, refinement varies with depth
      const cam = camera([-S / 2 - 40, h, -S / 2 - 40], [0, 0, 0], 2);
      const tris = drawnTriangles(r, cam, tau, false);
      let area = 0;
      for (let t = 0; t < tris.length; t += 3) {
        const N = r.size, [a, b, c] = [tris[t]!, tris[t + 1]!, tris[t + 2]!];
        const bx = (b % N) - (a % N), bz = Math.floor(b / N) - Math.floor(a / N), cx = (c % N) - (a % N), cz = Math.floor(c / N) - Math.floor(a / N);
        // counter-clockwise seen from +Y (the geomipmap's convention)
        expect(bz * cx - bx * cz).toBeGreaterThan(0);
        area += (bz * cx - bx * cz) / 2;
      }
      // the triangles tile the map exactly once
      expect(area).toBe((r.size - 1) ** 2);
      const edges = checkNoTJunctions(r, tris);
      for (const [key, uses] of edges) {
        const [p, q] = key.split(',').map(Number) as [number, number];
        const onBorder = (k: number, f: (x: number, z: number) => boolean): boolean => f(k % r.size, Math.floor(k / r.size));
        const border = [(x: number) => x === 0, (x: number) => x === r.size - 1].some((f) => onBorder(p, (x) => f(x)) && onBorder(q, (x) => f(x)))
          || [(z: number) => z === 0, (z: number) => z === r.size - 1].some((f) => onBorder(p, (_x, z) => f(z)) && onBorder(q, (_x, z) => f(z)));
        expect(uses).toBe(border ? 1 : 2);
      }
      expect(tris.length / 3).toBeLessThan(r.fullResTriangles);
    }
  });

  it('refuses a map that is not 2ⁿ+1 or a chunk size that does not divide it', () => {
    const h = new Float32Array(100 * 100);
    expect(() => new RtinTerrain(new BSplineSurface(Heightfield.fromFloat32(h, 100, 100, { cellSize: 2, origin: { x: 0, z: 0 } })))).toThrow(/2ⁿ\+1/);
    expect(() => new RtinTerrain(terrain(129, 1, 0), { chunkCells: 48 })).toThrow(/power of two/);
  });
});
