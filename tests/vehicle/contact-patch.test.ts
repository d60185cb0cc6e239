/**
 * The terrain contact sampled once per tick (src/systems/sim/vehicle/suspension-contact.ts, docs/vehicle.md
 * "Contact"): the start-of-step evaluation keeps each wheel's ground patch (height, gradient, second
 * derivatives), the midpoint stage reads the patch's second-order Taylor expansion at the staged wheel centre.
 */
import { describe, expect, it } from 'vitest';
import { createSimWorld, type IntegratorKind } from '../../src/ecs/world';
import { spawnCar } from '../../src/systems/sim/vehicle/prefab-car';
import { runTick } from '../../src/run/pipeline';
import { HeldInput, setInputSource } from '../../src/ecs/controls';
import { loadBuiltinCar } from '../../src/content/cars/index';
import { groundPatch, type Ground, type GroundPatch, type GroundSample } from '../../src/ecs/ground';
import { groundFromPatch, PATCH_STRIDE } from '../../src/systems/sim/vehicle/suspension-contact';
import { BSplineGrid, BSplineSurface, DetailLayer, Heightfield, createRng, type CurvatureSample } from '../../terrain';

/**
 * h = A·sin(kx·x)·cos(kz·z): every third partial derivative is bounded by A·k³ (k = max(kx, kz)), the curvature
 * (largest second derivative) by A·k². `curvatureScale` 0 reports zero second derivatives: the tangent plane.
 */
class WavyGround implements Ground {
  samples = 0;
  patches = 0;
  samplePatchAt?: (p: Float64Array, out: GroundPatch) => void;
  constructor(
    readonly A: number,
    readonly kx: number,
    readonly kz: number,
    mode: 'patch' | 'tangent' | 'fresh',
  ) {
    const c = mode === 'tangent' ? 0 : 1;
    if (mode !== 'fresh') {
      this.samplePatchAt = (p, out) => {
        this.patches++;
        this.exact(p[0]!, p[2]!, out);
        out.hxx *= c;
        out.hxz *= c;
        out.hzz *= c;
      };
    }
  }

  exact(x: number, z: number, o: GroundPatch): void {
    const { A, kx, kz } = this;
    const sx = Math.sin(kx * x),
      cx = Math.cos(kx * x),
      sz = Math.sin(kz * z),
      cz = Math.cos(kz * z);
    o.h = A * sx * cz;
    o.dhdx = A * kx * cx * cz;
    o.dhdz = -A * kz * sx * sz;
    o.hxx = -A * kx * kx * sx * cz;
    o.hxz = -A * kx * kz * cx * sz;
    o.hzz = -A * kz * kz * sx * cz;
    const inv = 1 / Math.sqrt(1 + o.dhdx * o.dhdx + o.dhdz * o.dhdz);
    o.nx = -o.dhdx * inv;
    o.ny = inv;
    o.nz = -o.dhdz * inv;
    o.surface = 0;
  }

  /** The halt guard's height check (not a contact sample, not counted). */
  heightAt(x: number, z: number): number {
    return this.A * Math.sin(this.kx * x) * Math.cos(this.kz * z);
  }

  sample(x: number, z: number, out: GroundSample): void {
    this.samples++;
    this.exact(x, z, out as GroundPatch);
  }
}

const sampleWith = (g: WavyGround, x: number, z: number): GroundPatch => {
  const p = groundPatch();
  g.exact(x, z, p);
  return p;
};

describe('ground patch: the second-order Taylor expansion of the start-of-step sample', () => {
  it('stays within the third-derivative bound, far inside the tangent plane’s ½κd², over half a tick’s travel', () => {
    const A = 0.03,
      k = (2 * Math.PI) / 0.7; // detail-layer scale: 3 cm over 0.35 m cells
    const g = new WavyGround(A, k, 0.8 * k, 'patch');
    const M3 = A * k ** 3;
    const kappa = A * k * k;
    const rng = createRng(3);
    const patch = new Float64Array(PATCH_STRIDE);
    const at = groundPatch();
    for (let n = 0; n < 2000; n++) {
      const x = 100 * rng() - 50,
        z = 100 * rng() - 50;
      const p = sampleWith(g, x, z);
      patch.set([x, z, p.h, p.dhdx, p.dhdz, p.hxx, p.hxz, p.hzz, 1, 1]);
      // up to 0.1 m: half a 500 Hz tick at 100 m/s
      const d = 0.1 * rng(),
        a = 2 * Math.PI * rng();
      const dx = d * Math.cos(a),
        dz = d * Math.sin(a);
      expect(groundFromPatch(patch, 0, Float64Array.of(x + dx, 0, z + dz), at)).toBe(true);
      const t = sampleWith(g, x + dx, z + dz);
      const l1 = Math.abs(dx) + Math.abs(dz);
      // Taylor remainders: |Σ ∂³h Δ^α|/6 ≤ M3·|Δ|₁³/6 (height), M3·|Δ|₁²/2 (each gradient component); + rounding
      expect(Math.abs(at.h - t.h)).toBeLessThanOrEqual((M3 * l1 ** 3) / 6 + 1e-15);
      expect(Math.abs(at.dhdx - t.dhdx)).toBeLessThanOrEqual((M3 * l1 * l1) / 2 + 1e-14);
      expect(Math.abs(at.dhdz - t.dhdz)).toBeLessThanOrEqual((M3 * l1 * l1) / 2 + 1e-14);
      expect(Math.abs(at.h - t.h)).toBeLessThanOrEqual(0.5 * kappa * d * d + 1e-15);
      // the contact distance d = (y − h)·n_y of a wheel centre 0.3 m up, from the patch and from a fresh sample:
      // |Δd| ≤ |Δh| + |y − h|·|Δn_y| with |Δn_y| ≤ |Δ∇h| (n_y = 1/√(1 + |∇h|²) is 1-Lipschitz in ∇h)
      const y = t.h + 0.3;
      const dPatch = (y - at.h) * at.ny,
        dFresh = (y - t.h) * t.ny;
      expect(Math.abs(dPatch - dFresh)).toBeLessThanOrEqual((M3 * l1 ** 3) / 6 + 0.3 * Math.SQRT2 * (M3 * l1 * l1) / 2 + 1e-14);
      expect(at.surface).toBe(1);
    }
  });

  it('is refused beyond its reach (a centre moved between the evaluations is sampled afresh)', () => {
    const patch = new Float64Array([0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    const at = groundPatch();
    expect(groundFromPatch(patch, 0, Float64Array.of(0.2, 0, 0.1), at)).toBe(true);
    expect(groundFromPatch(patch, 0, Float64Array.of(0.2, 0, 0.2), at)).toBe(false);
  });
});

function noiseField(n: number, seed: number, cell: number, amp: number): Heightfield {
  const rng = createRng(seed);
  const h = new Float32Array(n * n);
  for (let i = 0; i < h.length; i++) h[i] = amp * rng();
  return Heightfield.fromFloat32(h, n, n, { cellSize: cell, origin: { x: -10, z: 5 } });
}

const C = (): CurvatureSample => ({ h: 0, dhdx: 0, dhdz: 0, nx: 0, ny: 1, nz: 0, hxx: 0, hxz: 0, hzz: 0 });

describe('BSplineSurface.sampleCurvature', () => {
  it('second derivatives match central differences of the gradient (macro; macro + detail weighted on its grid or another)', () => {
    const hf = noiseField(33, 3, 2, 20);
    const weight = new BSplineGrid(noiseField(33, 8, 2, 1).heights, 33, 33, 2, hf.origin.x, hf.origin.z);
    // a weight on a coarser grid of its own (evaluated apart from the macro grid)
    const coarse = new BSplineGrid(noiseField(17, 9, 4, 1).heights, 17, 17, 4, hf.origin.x, hf.origin.z);
    for (const detail of [null, DetailLayer.random(createRng(5), { amplitude: 0.05, weight }), DetailLayer.random(createRng(6), { amplitude: 0.05, weight: coarse })]) {
      const s = new BSplineSurface(hf, detail);
      const rng = createRng(41);
      const out = C(),
        plain = C(),
        a = C(),
        b = C();
      const e = 1e-5;
      for (let n = 0; n < 500; n++) {
        const x = s.minX + 0.5 + rng() * (s.maxX - s.minX - 1);
        const z = s.minZ + 0.5 + rng() * (s.maxZ - s.minZ - 1);
        s.sampleCurvature(x, z, out);
        s.sample(x, z, plain);
        // the same spline in the power basis (terrain/cell-poly.ts) against sample's basis weights: the same 16
        // control points (≤ 20 m here) with weights ≤ 28 in absolute value, each side rounded over ≤ 12 operations:
        // ≤ 700 ε of the height scale (tests/terrain/cell-poly.test.ts); the gradient and normal within 1e-12 as before
        expect(Math.abs(out.h - plain.h)).toBeLessThan(1024 * Number.EPSILON * 20);
        expect(Math.abs(out.dhdx - plain.dhdx)).toBeLessThan(1e-12);
        expect(Math.abs(out.dhdz - plain.dhdz)).toBeLessThan(1e-12);
        expect(Math.abs(out.ny - plain.ny)).toBeLessThan(1e-12);
        // The gradient is piecewise quadratic with continuous first derivatives (the spline is C²): a central
        // difference is exact inside a span, off by ≤ e·|third-derivative jump| across a border; + rounding.
        s.sample(x + e, z, a);
        s.sample(x - e, z, b);
        const tol = 1e-3 * (1 + Math.abs(out.hxx) + Math.abs(out.hxz) + Math.abs(out.hzz));
        expect(Math.abs((a.dhdx - b.dhdx) / (2 * e) - out.hxx)).toBeLessThan(tol);
        expect(Math.abs((a.dhdz - b.dhdz) / (2 * e) - out.hxz)).toBeLessThan(tol);
        s.sample(x, z + e, a);
        s.sample(x, z - e, b);
        expect(Math.abs((a.dhdz - b.dhdz) / (2 * e) - out.hzz)).toBeLessThan(tol);
        expect(Math.abs((a.dhdx - b.dhdx) / (2 * e) - out.hxz)).toBeLessThan(tol);
      }
    }
  });
});

const CAR = loadBuiltinCar('rally-awd');

/** A rally car at 20 m/s, part throttle and a little steer, over the wavy ground for `seconds`; its body state. */
function drive(ground: WavyGround, dt: number, seconds: number, integrator: IntegratorKind = 'midpoint'): number[] {
  const world = createSimWorld({ dt, integrator, ground });
  const eid = spawnCar(world, CAR, { x: 0.3, z: 0, heading: 0.4, speed: 20 });
  const input = new HeldInput();
  input.input.throttle = 300;
  input.input.steer = 50;
  setInputSource(world, eid, input);
  const n = Math.round(seconds / dt);
  for (let i = 0; i < n; i++) runTick(world);
  const b = world.c.RigidBody;
  return [b.px[eid]!, b.py[eid]!, b.pz[eid]!, b.vx[eid]!, b.vy[eid]!, b.vz[eid]!, b.wx[eid]!, b.wy[eid]!, b.wz[eid]!];
}

const maxDiff = (a: number[], b: number[]): number => Math.max(...a.map((v, i) => Math.abs(v - b[i]!)));

describe('the car on a curved ground', () => {
  const wave = (mode: 'patch' | 'tangent' | 'fresh'): WavyGround => new WavyGround(0.05, (2 * Math.PI) / 6, (2 * Math.PI) / 9, mode);

  it('samples each wheel’s ground once per midpoint tick (the patch), at every stage with RK4', () => {
    const g = wave('patch');
    drive(g, 1 / 500, 0.1);
    expect(g.patches).toBe(4 * 50);
    // the only plain samples are the spawn's (the car's frame on the ground)
    expect(g.samples).toBeLessThan(10);
    const r = wave('patch');
    drive(r, 1 / 500, 0.1, 'rk4');
    expect(r.patches).toBe(0);
    expect(r.samples).toBeGreaterThanOrEqual(4 * 4 * 50);
  });

  it('the patch changes the run by O(dt²) (the midpoint method stays second order); the tangent plane by O(dt)', () => {
    // Against the same run with a fresh sample at both evaluations: the patch's stage-derivative error is O(dt²)
    // (height O(d³), gradient O(d²), d = half a tick's travel), so the runs part by O(dt²) after 1 s and the
    // gap shrinks 4× per halving of dt; the tangent plane's normal is O(d) off, a first-order gap (2×).
    const gaps = (mode: 'patch' | 'tangent'): number[] => [1 / 500, 1 / 1000, 1 / 2000].map((dt) => maxDiff(drive(wave(mode), dt, 1), drive(wave('fresh'), dt, 1)));
    const p = gaps('patch');
    const t = gaps('tangent');
    for (let i = 1; i < p.length; i++) {
      // 4 = 2², ±15 % for the higher-order terms at these steps (tests/core/convergence.test.ts)
      expect(p[i - 1]! / p[i]!).toBeGreaterThan(4 * 0.85);
      expect(p[i - 1]! / p[i]!).toBeLessThan(4 * 1.15);
      expect(t[i - 1]! / t[i]!).toBeLessThan(2 * 1.3);
    }
    // at the shipped 500 Hz the patch's gap is a small fraction of the tangent plane's
    expect(p[0]!).toBeLessThan(0.2 * t[0]!);
  });
});
