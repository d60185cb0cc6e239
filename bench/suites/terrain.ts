/**
 * Terrain benchmarks (issue 3): B-spline height+normal queries/s vs Babylon GroundMesh, LOD selection +
 * culling time per frame on a 2049² map, triangles drawn vs full resolution along a chase-camera path.
 */
import { join } from 'node:path';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine';
import { Scene } from '@babylonjs/core/scene';
import { CreateGround } from '@babylonjs/core/Meshes/Builders/groundBuilder';
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import type { BenchResult, BenchSuite } from '../types';
import { BSplineSurface, GeoMipmap, Heightfield, createRng, lookAtLodCamera, type LodCamera, type Stage, type SurfaceSample } from '../../terrain/index';
import { loadStageFromDir } from '../../terrain/node';

const STAGE_DIR = join(process.cwd(), 'src/content/stages/forest-gravel');

/** The game's chase view of a car on the road at `d` (6 m behind, 2.5 m up, looking 10 m ahead), 16:9. */
function chaseCamera(stage: Stage, d: number, fovY: number, heightPx: number): LodCamera {
  const car = stage.road.poseAt(d);
  const fx = Math.sin(car.heading), fz = Math.cos(car.heading);
  const eye = [car.x - 6 * fx, car.y + 2.5, car.z - 6 * fz] as const;
  const target = [car.x + 10 * fx, car.y + 0.5, car.z + 10 * fz] as const;
  return lookAtLodCamera(eye, target, { fovY, aspect: 16 / 9, viewportHeightPx: heightPx, near: 0.3, far: 4000 });
}

export const suite: BenchSuite = {
  name: 'terrain',
  async run({ quick }) {
    const out: BenchResult[] = [];
    const res = (name: string, value: number, unit: string, note?: string, extra: Partial<BenchResult> = {}): void => {
      out.push({ suite: 'terrain', name, value, unit, note, ...extra });
    };
    const stage = loadStageFromDir(STAGE_DIR);
    const surf = stage.bspline;
    const hf = stage.heightfield;

    // 1. height + normal queries
    const n = quick ? 200_000 : 2_000_000;
    const rng = createRng(1);
    const xs = new Float64Array(n), zs = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      xs[k] = surf.minX + 1 + rng() * (surf.maxX - surf.minX - 2);
      zs[k] = surf.minZ + 1 + rng() * (surf.maxZ - surf.minZ - 2);
    }
    const smp: SurfaceSample = { h: 0, dhdx: 0, dhdz: 0, nx: 0, ny: 1, nz: 0 };
    const macro = new BSplineSurface(hf);
    const time = (fn: () => void): number => {
      fn(); // warm-up
      const t0 = performance.now();
      fn();
      return (performance.now() - t0) / 1000;
    };
    let sink = 0;
    const tDetail = time(() => { for (let k = 0; k < n; k++) { surf.sample(xs[k]!, zs[k]!, smp); sink += smp.ny; } });
    const tMacro = time(() => { for (let k = 0; k < n; k++) { macro.sample(xs[k]!, zs[k]!, smp); sink += smp.ny; } });
    const qDetail = n / tDetail, qMacro = n / tMacro;
    res('bspline height+normal (macro)', qMacro, 'queries/s', `${hf.width}² forest-gravel map, random points`, { target: 4 * 500 * 32, lowerIsBetter: false });
    res('bspline height+normal (macro+detail)', qDetail, 'queries/s', 'with the gravel detail displacement layer');

    // 2. Babylon GroundMesh on the same map (vertex heights = heightmap samples)
    const engine = new NullEngine();
    const scene = new Scene(engine);
    const side = (hf.width - 1) * hf.cellSize;
    const ground = CreateGround('g', { width: side, height: side, subdivisions: hf.width - 1, updatable: true }, scene);
    ground.position.x = hf.origin.x + side / 2;
    ground.position.z = hf.origin.z + side / 2;
    ground.computeWorldMatrix(true);
    const pos = ground.getVerticesData(VertexBuffer.PositionKind)!;
    const W = hf.width;
    for (let row = 0; row < W; row++) {
      for (let col = 0; col < W; col++) {
        const v = row * W + col;
        pos[3 * v + 1] = hf.heights[(W - 1 - row) * W + col]!; // Babylon row 0 is +Z
      }
    }
    ground.updateVerticesData(VertexBuffer.PositionKind, pos);
    ground.updateCoordinateHeights();
    const nrm = new Vector3();
    const tBab = time(() => { for (let k = 0; k < n; k++) sink += ground.getHeightAtCoordinates(xs[k]!, zs[k]!); });
    const tBabN = time(() => { for (let k = 0; k < n; k++) { sink += ground.getHeightAtCoordinates(xs[k]!, zs[k]!); ground.getNormalAtCoordinatesToRef(xs[k]!, zs[k]!, nrm); sink += nrm.y; } });
    // sanity: same map (B-spline approximates, so a small difference is expected)
    let diff = 0;
    for (let k = 0; k < 1000; k++) diff = Math.max(diff, Math.abs(ground.getHeightAtCoordinates(xs[k]!, zs[k]!) - macro.heightMacro(xs[k]!, zs[k]!)));
    res('babylon GroundMesh height', n / tBab, 'queries/s', `getHeightAtCoordinates (height only, piecewise planar); max |Δh| vs B-spline ${diff.toFixed(2)} m`);
    res('babylon GroundMesh height+normal', n / tBabN, 'queries/s', '+ getNormalAtCoordinatesToRef');
    res('bspline/babylon ratio (height+normal)', qMacro / (n / tBabN), 'x', 'B-spline macro height+normal vs Babylon height+normal', { lowerIsBetter: false });
    res('bspline/babylon ratio (bspline h+n vs babylon h only)', qMacro / (n / tBab), 'x', undefined, { lowerIsBetter: false });
    scene.dispose();
    engine.dispose();

    // 3. LOD selection + culling per frame on a 2049² map (forest stage resampled through the B-spline at 1 m)
    const N2 = 2049;
    const cell2 = side / (N2 - 1);
    const h2 = new Float32Array(N2 * N2);
    for (let j = 0; j < N2; j++) for (let i = 0; i < N2; i++) h2[j * N2 + i] = macro.heightMacro(hf.origin.x + i * cell2, hf.origin.z + j * cell2);
    const big = new BSplineSurface(Heightfield.fromFloat32(h2, N2, N2, { cellSize: cell2, origin: hf.origin }));
    const t0 = performance.now();
    const gBig = new GeoMipmap(big, { blockSize: 65 });
    res('geomipmap build 2049²', performance.now() - t0, 'ms', `${gBig.blockCount} blocks of 65², δ for ${gBig.maxLevel + 1} levels`, { lowerIsBetter: true });
    const frames = quick ? 200 : 2000;
    const path = (k: number): number => stage.start.distanceM + ((stage.lengthM - 1) * k) / frames;
    for (let k = 0; k < 20; k++) gBig.select(chaseCamera(stage, path(k), 1.0, 1080), 1);
    const cams = Array.from({ length: frames }, (_, k) => chaseCamera(stage, path(k), 1.0, 1080));
    const ts = performance.now();
    let visible = 0;
    for (const c of cams) visible += gBig.select(c, 1).length;
    const perFrame = (performance.now() - ts) / frames;
    res('LOD select + cull per frame (2049²)', perFrame * 1000, 'µs', `chase camera along forest-gravel, ${(visible / frames).toFixed(0)} of ${gBig.blockCount} blocks visible`, { target: 1000, lowerIsBetter: true });

    // 4. triangles drawn vs full resolution (1025² forest stage, chase camera, 1 px and 2 px)
    const g = new GeoMipmap(surf, { blockSize: 65 });
    for (const px of [1, 2]) {
      let tris = 0, visFull = 0;
      for (const c of cams.filter((_, k) => k % 4 === 0)) {
        const sel = g.select({ ...c }, px);
        for (const b of sel) tris += g.triangleCount(b.level, b.edgeMask);
        visFull += sel.length * 2 * g.blockCells * g.blockCells;
      }
      const fr = Math.ceil(frames / 4);
      res(`triangles drawn @${px}px`, tris / fr, 'triangles/frame', `full resolution ${g.fullResTriangles} (${((100 * tris) / fr / g.fullResTriangles).toFixed(2)}%), visible blocks at full res ${(visFull / fr).toFixed(0)} (${((100 * tris) / visFull).toFixed(1)}%)`, { lowerIsBetter: true });
    }
    if (sink === 42) process.stderr.write('');
    return out;
  },
};
