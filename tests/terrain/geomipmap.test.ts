import { join } from 'node:path';
import { describe, it, expect } from 'vitest';
import { BSplineSurface, GeoMipmap, Heightfield, createRng, lookAtLodCamera, SUB_CELLS, EDGE_NEG_X, EDGE_POS_X, EDGE_NEG_Z, EDGE_POS_Z, type LodCamera, type SelectedBlock } from '../../terrain';
import { loadStageFromDir } from '../../terrain/node';
import { screenErrorPx } from './screen-px';

function terrain(n = 129, seed = 5): BSplineSurface {
  const rng = createRng(seed);
  const h = new Float32Array(n * n);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) h[j * n + i] = 30 * Math.sin(i / 9) * Math.cos(j / 13) + 4 * rng() + (i > 64 ? 10 : 0);
  return new BSplineSurface(Heightfield.fromFloat32(h, n, n, { cellSize: 2, origin: { x: -128, z: -128 } }));
}

function camera(eye: [number, number, number], target: [number, number, number]): LodCamera {
  return lookAtLodCamera(eye, target, { fovY: 1.0, aspect: 16 / 9, viewportHeightPx: 1080, near: 0.5, far: 5000 });
}

function edgeSegments(g: GeoMipmap, id: number, level: number, mask: number, axis: 0 | 2, value: number): Set<string> {
  const { positions } = g.blockMesh(id, level);
  const idx = g.indices(level, mask);
  const segs = new Set<string>();
  const key = (v: number): string => `${positions[3 * v]},${positions[3 * v + 1]},${positions[3 * v + 2]}`;
  for (let t = 0; t < idx.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = idx[t + e]!, b = idx[t + ((e + 1) % 3)]!;
      if (positions[3 * a + axis] === value && positions[3 * b + axis] === value) segs.add([key(a), key(b)].sort().join('|'));
    }
  }
  return segs;
}

/**
 * Brute force against the drawn triangles: each heightmap node's height on its block's triangles (level and
 * edge variant) and on the full-resolution mesh (the surface at the node), both projected through viewProj to
 * pixels, must be ≤ τ apart where the drawn point is on screen (an error nobody sees is not bounded). Checks
 * the selected blocks above level 0 that `which` accepts; returns how many and the worst error / τ.
 */
function checkDrawnErrorPx(g: GeoMipmap, cam: LodCamera, tau: number, which: (b: SelectedBlock) => boolean): { blocks: number; worst: number } {
  const cell = (g.blockBounds(0).maxX - g.blockBounds(0).minX) / g.blockCells;
  let blocks = 0, worst = 0;
  for (const b of g.select(cam, tau, { occlusion: false })) {
    if (b.level === 0 || !which(b)) continue;
    blocks++;
    const { positions: P } = g.blockMesh(b.id, b.level);
    const idx = g.indices(b.level, b.edgeMask), bb = g.blockBounds(b.id);
    for (let j = 0; j <= g.blockCells; j++) for (let i = 0; i <= g.blockCells; i++) {
      const x = bb.minX + i * cell, z = bb.minZ + j * cell;
      for (let t = 0; t < idx.length; t += 3) {
        const [a, c, d] = [idx[t]!, idx[t + 1]!, idx[t + 2]!].map((v) => [P[3 * v]!, P[3 * v + 1]!, P[3 * v + 2]!] as const);
        const det = (c![0] - a![0]) * (d![2] - a![2]) - (d![0] - a![0]) * (c![2] - a![2]);
        const l1 = ((x - a![0]) * (d![2] - a![2]) - (d![0] - a![0]) * (z - a![2])) / det;
        const l2 = ((c![0] - a![0]) * (z - a![2]) - (x - a![0]) * (c![2] - a![2])) / det;
        if (l1 < -1e-9 || l2 < -1e-9 || l1 + l2 > 1 + 1e-9) continue;
        const drawn = a![1] + l1 * (c![1] - a![1]) + l2 * (d![1] - a![1]);
        // the full-resolution mesh's vertex at the node (macro + detail, as blockMesh samples it)
        const e = screenErrorPx(cam, x, drawn, g.surface.height(x, z), z);
        if (e === null) break;
        worst = Math.max(worst, e / tau);
        // float32 vertex heights: ~1e-5 m of rounding, far below 1e-3 px at these depths
        expect(e).toBeLessThanOrEqual(tau + 1e-3);
        break;
      }
    }
  }
  return { blocks, worst };
}

describe('GeoMipmap', () => {
  for (const subdivide of [0, 1]) {
    it(`has no cracks for any allowed LOD pair (subdivide=${subdivide})`, () => {
      const g = new GeoMipmap(terrain(), { blockSize: 17, subdivide });
      const nb = g.blocksPerSide;
      for (let a = 0; a <= g.maxLevel; a++) {
        for (const b of [a - 1, a, a + 1]) {
          if (b < 0 || b > g.maxLevel) continue;
          // X neighbours: block (1,1) and (2,1); Z neighbours: (1,1) and (1,2)
          const A = nb + 1;
          for (const [B, axis, maskA, maskB] of [[A + 1, 0, EDGE_POS_X, EDGE_NEG_X], [A + nb, 2, EDGE_POS_Z, EDGE_NEG_Z]] as const) {
            const bb = g.blockBounds(A);
            const value = axis === 0 ? bb.maxX : bb.maxZ;
            const sa = edgeSegments(g, A, a, b > a ? maskA : 0, axis, value);
            const sb = edgeSegments(g, B, b, a > b ? maskB : 0, axis, value);
            expect(sa.size).toBe(g.quadsPerSide(Math.max(a, b)));
            expect([...sa].sort()).toEqual([...sb].sort());
          }
        }
      }
    });
  }

  it('winds triangles counter-clockwise from above and covers each block', () => {
    const g = new GeoMipmap(terrain(), { blockSize: 17 });
    for (let L = 0; L <= g.maxLevel; L++) {
      for (let mask = 0; mask < 16; mask++) {
        if (L === g.maxLevel && mask) continue;
        const { positions } = g.blockMesh(5, L);
        const idx = g.indices(L, mask);
        let area = 0;
        for (let t = 0; t < idx.length; t += 3) {
          const a = idx[t]!, b = idx[t + 1]!, c = idx[t + 2]!;
          const bx = positions[3 * b]! - positions[3 * a]!, bz = positions[3 * b + 2]! - positions[3 * a + 2]!;
          const cx = positions[3 * c]! - positions[3 * a]!, cz = positions[3 * c + 2]! - positions[3 * a + 2]!;
          const ny = bz * cx - bx * cz;
          expect(ny).toBeGreaterThan(0);
          area += ny / 2;
        }
        expect(area).toBeCloseTo(32 * 32, 6);
      }
    }
  });

  it('neighbours differ by at most one level, error bound holds, LOD never increases with distance', () => {
    const s = terrain();
    const g = new GeoMipmap(s, { blockSize: 17 });
    const nb = g.blocksPerSide;
    let prev: Int32Array | null = null;
    for (let hgt = 20; hgt < 3000; hgt *= 1.5) {
      const cam = camera([-100, hgt, -100], [0, 0, 0]);
      const sel = g.select(cam, 2);
      const lv = Int32Array.from(g.lastLevels());
      for (let bz = 0; bz < nb; bz++) for (let bx = 0; bx < nb; bx++) {
        const id = bz * nb + bx;
        if (bx + 1 < nb) expect(Math.abs(lv[id]! - lv[id + 1]!)).toBeLessThanOrEqual(1);
        if (bz + 1 < nb) expect(Math.abs(lv[id]! - lv[id + nb]!)).toBeLessThanOrEqual(1);
      }
      // every coarser-than-finest choice keeps the projected error ≤ τ (level 0 is the finest there is)
      for (const b of sel) if (b.level > 0) expect(g.blockErrorPx(b.id, b.level, cam)).toBeLessThanOrEqual(2 + 1e-9);
      // camera rises: distance to every block grows → no block gets finer
      if (prev) for (let id = 0; id < lv.length; id++) expect(lv[id]!).toBeGreaterThanOrEqual(prev[id]!);
      prev = lv;
    }
    // a generous error budget lets distant blocks coarsen
    const cam = camera([0, 40, -300], [0, 0, 0]);
    const sel = g.select(cam, 200);
    expect(sel.length).toBeGreaterThan(0);
    expect(sel.some((b) => b.level > 0)).toBe(true);
  });

  it('culled blocks are outside the frustum; visible blocks have a visible sample or straddle', () => {
    const s = terrain();
    const g = new GeoMipmap(s, { blockSize: 17 });
    const rng = createRng(3);
    for (let trial = 0; trial < 12; trial++) {
      const eye: [number, number, number] = [-120 + 240 * rng(), 10 + 60 * rng(), -120 + 240 * rng()];
      const cam = camera(eye, [eye[0] + 50 * (rng() - 0.5), 0, eye[2] + 50 * (rng() - 0.5) + 1]);
      // frustum culling alone (horizon occlusion: geomipmap-occlusion.test.ts)
      const sel = g.select(cam, 1, { occlusion: false });
      const visible = new Set(sel.map((b) => b.id));
      expect(visible.size).toBeLessThan(g.blockCount);
      const m = cam.viewProj;
      for (let id = 0; id < g.blockCount; id++) {
        if (visible.has(id)) continue;
        const { positions } = g.blockMesh(id, 0);
        for (let v = 0; v < positions.length; v += 3) {
          const x = positions[v]!, y = positions[v + 1]!, z = positions[v + 2]!;
          const cx = m[0]! * x + m[4]! * y + m[8]! * z + m[12]!;
          const cy = m[1]! * x + m[5]! * y + m[9]! * z + m[13]!;
          const cz = m[2]! * x + m[6]! * y + m[10]! * z + m[14]!;
          const cw = m[3]! * x + m[7]! * y + m[11]! * z + m[15]!;
          const inside = cw > 0 && Math.abs(cx) <= cw && Math.abs(cy) <= cw && Math.abs(cz) <= cw;
          expect(inside).toBe(false);
        }
      }
    }
  });

  it('edge masks name coarser neighbours only', () => {
    const g = new GeoMipmap(terrain(), { blockSize: 17 });
    const sel = g.select(camera([0, 15, 0], [60, 0, 60]), 0.5);
    const lv = g.lastLevels();
    const nb = g.blocksPerSide;
    for (const b of sel) {
      expect(((b.edgeMask & EDGE_NEG_X) !== 0) === (b.bx > 0 && lv[b.id - 1]! > b.level)).toBe(true);
      expect(((b.edgeMask & EDGE_POS_X) !== 0) === (b.bx < nb - 1 && lv[b.id + 1]! > b.level)).toBe(true);
    }
  });
  it('every heightmap node of a drawn block is within τ pixels of the full-resolution mesh on screen', () => {
    const n = 129, hs = new Float32Array(n * n), rng = createRng(11);
    for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) hs[j * n + i] = 30 * Math.sin(i / 9) * Math.cos(j / 13) + 0.6 * rng();
    const g = new GeoMipmap(new BSplineSurface(Heightfield.fromFloat32(hs, n, n, { cellSize: 2, origin: { x: -128, z: -128 } })), { blockSize: 9 });
    const views: [[number, number, number], number][] = [[[0, 15, 0], 1], [[-100, 40, 80], 1], [[90, 120, -60], 1], [[-120, 6, -120], 3], [[0, 300, -200], 2]];
    for (let k = 0; k < 12; k++) views.push([[-120 + 240 * rng(), 5 + 80 * rng(), -120 + 240 * rng()], 1 + 3 * rng()]);
    let coarse = 0, worst = 0;
    for (const [eye, tau] of views) {
      const r = checkDrawnErrorPx(g, camera([...eye], [eye[0] + 60, 0, eye[2] + 40]), tau, () => true);
      coarse += r.blocks;
      worst = Math.max(worst, r.worst);
    }
    expect(coarse).toBeGreaterThan(20);
    // the bound is not loose by orders of magnitude: some node comes within 3× of τ
    expect(worst).toBeGreaterThan(1 / 3);
  });

  it('stitched edges on a shipped stage stay within τ pixels (col-tarmac, the game\'s chase view, τ = 1 px)', () => {
    const stage = loadStageFromDir(join(process.cwd(), 'src/content/stages/col-tarmac'));
    const g = new GeoMipmap(stage.bspline, { blockSize: 9 });
    let stitched = 0;
    for (const frac of [0, 0.75]) {
      const car = stage.road.poseAt(stage.start.distanceM + (stage.lengthM - 1) * frac);
      const fx = Math.sin(car.heading), fz = Math.cos(car.heading);
      const cam = camera([car.x - 6 * fx, car.y + 2.5, car.z - 6 * fz], [car.x + 10 * fx, car.y + 0.5, car.z + 10 * fz]);
      stitched += checkDrawnErrorPx(g, cam, 1, (b) => b.edgeMask !== 0).blocks;
    }
    expect(stitched).toBeGreaterThan(50);
  });

  it('locates the error per sub-cell: the block δ is the max of its sub-cells and never falls with level', () => {
    const g = new GeoMipmap(terrain(), { blockSize: 17 });
    const nl = g.maxLevel + 1, S2 = SUB_CELLS * SUB_CELLS;
    for (let id = 0; id < g.blockCount; id++) {
      for (let L = 0; L < nl; L++) {
        const sub = g.subDelta.subarray((id * nl + L) * S2, (id * nl + L + 1) * S2);
        expect(Math.max(...sub)).toBe(g.delta[id * nl + L]);
        if (L > 0) for (let q = 0; q < S2; q++) expect(sub[q]!).toBeGreaterThanOrEqual(g.subDelta[(id * nl + L - 1) * S2 + q]!);
      }
    }
  });
});
