/**
 * Horizon occlusion (terrain/geomipmap-occlusion.ts): a block left out as hidden must hold no point that a
 * ray from the eye reaches first. Checked by marching rays through a grid of pixels against the B-spline
 * surface (`raycast`, bisected to 1e-5 m): the block under every first hit is one that `select` returns.
 */
import { join } from 'node:path';
import { describe, it, expect } from 'vitest';
import { BSplineSurface, DRAW_BLOCK_SIZE, GeoMipmap, Heightfield, OCCLUSION_EYE_CLEARANCE_M, lookAtLodCamera, type LodCamera, type Stage } from '../../terrain';
import { loadStageFromDir } from '../../terrain/node';

const FOV_Y = 1, ASPECT = 16 / 9;
/** Rays per image side (a coarse image: every first hit is checked). */
const RAYS_X = 64, RAYS_Y = 36;

function view(eye: [number, number, number], target: [number, number, number], far = 1200): LodCamera {
  return lookAtLodCamera(eye, target, { fovY: FOV_Y, aspect: ASPECT, viewportHeightPx: 1080, near: 0.3, far });
}

/** Ids of the blocks holding the first surface hit of each ray through a RAYS_X × RAYS_Y pixel grid. */
function blocksSeen(g: GeoMipmap, eye: [number, number, number], target: [number, number, number], far: number): Set<number> {
  const [ex, ey, ez] = eye;
  let fx = target[0] - ex, fy = target[1] - ey, fz = target[2] - ez;
  const fl = Math.hypot(fx, fy, fz);
  fx /= fl; fy /= fl; fz /= fl;
  const sl = Math.hypot(fz, fx), sx = -fz / sl, sz = fx / sl; // right = forward × up
  const ux = -sz * fy, uy = sz * fx - sx * fz, uz = sx * fy; // up = right × forward
  const ty = Math.tan(FOV_Y / 2), tx = ty * ASPECT, seen = new Set<number>();
  const b0 = g.blockBounds(0), side = b0.maxX - b0.minX;
  for (let r = 0; r < RAYS_Y; r++) {
    for (let c = 0; c < RAYS_X; c++) {
      const a = ((c + 0.5) / RAYS_X * 2 - 1) * tx, b = (1 - (r + 0.5) / RAYS_Y * 2) * ty;
      const dir = { x: fx + a * sx + b * ux, y: fy + b * uy, z: fz + a * sz + b * uz };
      const hit = g.surface.raycast({ x: ex, y: ey, z: ez }, dir, far);
      if (!hit) continue;
      const bx = Math.min(g.blocksPerSide - 1, Math.floor((hit.x - b0.minX) / side));
      const bz = Math.min(g.blocksPerSide - 1, Math.floor((hit.z - b0.minZ) / side));
      seen.add(bz * g.blocksPerSide + bx);
    }
  }
  return seen;
}

function chaseEye(stage: Stage, frac: number): { eye: [number, number, number]; target: [number, number, number] } {
  const car = stage.road.poseAt(stage.start.distanceM + (stage.lengthM - 1) * frac);
  const fx = Math.sin(car.heading), fz = Math.cos(car.heading);
  return { eye: [car.x - 6 * fx, car.y + 2.5, car.z - 6 * fz], target: [car.x + 10 * fx, car.y + 0.5, car.z + 10 * fz] };
}

describe('geomipmap horizon occlusion', () => {
  it('hides the valley behind a ridge and nothing in front of it', () => {
    // a 40 m ridge across z = 0 between two flat valleys; the eye 3 m up in the south valley looks north
    const n = 129, h = new Float32Array(n * n);
    for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) h[j * n + i] = 40 * Math.exp(-(((j - 64) * 2) ** 2) / 200);
    const g = new GeoMipmap(new BSplineSurface(Heightfield.fromFloat32(h, n, n, { cellSize: 2, origin: { x: -128, z: -128 } })), { blockSize: 9 });
    const eye: [number, number, number] = [0, 3, -100], target: [number, number, number] = [0, 3, 0];
    const cam = view(eye, target);
    const all = g.select(cam, 1, { occlusion: false });
    const shown = g.select(cam, 1);
    expect(g.lastOccludedBlocks).toBeGreaterThan(0);
    expect(shown.length + g.lastOccludedBlocks).toBe(all.length);
    const shownIds = new Set(shown.map((b) => b.id));
    for (const b of all) {
      const bb = g.blockBounds(b.id);
      // far side of the ridge (its crest at z = 0 is 40 m up; the slope past z = 20 m is under the eye's sight line)
      if (bb.minZ >= 32) expect(shownIds.has(b.id)).toBe(false);
      // the near valley floor is seen
      if (bb.maxZ <= -40) expect(shownIds.has(b.id)).toBe(true);
    }
    for (const id of blocksSeen(g, eye, target, 1200)) expect(shownIds.has(id)).toBe(true);
  });

  it('is off when the eye is not clear of the terrain drawn under it', () => {
    const n = 129, h = new Float32Array(n * n);
    for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) h[j * n + i] = 40 * Math.exp(-(((j - 64) * 2) ** 2) / 200);
    const g = new GeoMipmap(new BSplineSurface(Heightfield.fromFloat32(h, n, n, { cellSize: 2, origin: { x: -128, z: -128 } })), { blockSize: 9 });
    const ground = g.surface.height(0, -100);
    const all = g.select(view([0, ground + OCCLUSION_EYE_CLEARANCE_M / 2, -100], [0, 3, 0]), 1, { occlusion: false }).length;
    expect(g.select(view([0, ground + OCCLUSION_EYE_CLEARANCE_M / 2, -100], [0, 3, 0]), 1).length).toBe(all);
    expect(g.lastOccludedBlocks).toBe(0);
    // outside the map: off
    expect(g.select(view([-300, 10, -300], [0, 0, 0]), 1).length).toBe(g.select(view([-300, 10, -300], [0, 0, 0]), 1, { occlusion: false }).length);
    expect(g.lastOccludedBlocks).toBe(0);
  });

  for (const [id, frac] of [['forest-gravel', 0], ['snow-ridge', 0.75], ['col-tarmac', 0.25]] as const) {
    it(`${id} at ${frac} of the road: every block a pixel ray reaches first is drawn`, () => {
      const stage = loadStageFromDir(join(process.cwd(), 'src/content/stages', id));
      const g = new GeoMipmap(stage.bspline, { blockSize: DRAW_BLOCK_SIZE });
      const { eye, target } = chaseEye(stage, frac);
      const shown = new Set(g.select(view(eye, target), 1).map((b) => b.id));
      // the views where occlusion matters most (README "Triangle budget")
      expect(g.lastOccludedBlocks).toBeGreaterThan(shown.size);
      const seen = blocksSeen(g, eye, target, 1200);
      expect(seen.size).toBeGreaterThan(0);
      for (const b of seen) expect(shown.has(b)).toBe(true);
    });
  }
});
