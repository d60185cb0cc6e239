/**
 * Ground adapter for stages (simulation side): height and unit normal from terrain's B-spline surface
 * (macro + detail layer), surface code from the stage's surface map. Pure (no fs, no Babylon).
 */
import type { Ground, GroundPatch, GroundSample } from '../../../ecs/ground';
import type { BSplineSurface, SurfaceSample } from '../../../../terrain/bspline';
import type { SurfaceMap } from '../../../../terrain/surface';
import { HeightCeiling } from '../../../../terrain/height-ceiling';

export class StageGround implements Ground {
  private readonly tmp: SurfaceSample = { h: 0, dhdx: 0, dhdz: 0, nx: 0, ny: 1, nz: 0 };
  /** Built on the first `heightCeilingAt` (null: the surface has no bound, undefined: not built yet). */
  private ceiling: HeightCeiling | null | undefined = undefined;
  constructor(
    readonly surface: BSplineSurface,
    readonly surfaceMap: SurfaceMap | null = null,
    /** Surface code used where there is no map. */
    readonly defaultSurface = 0,
  ) {}

  /** Adapter for a loaded terrain Stage ({ bspline, surfaceMap }). */
  static fromStage(stage: { bspline: BSplineSurface; surfaceMap: SurfaceMap }): StageGround {
    const g = new StageGround(stage.bspline, stage.surfaceMap);
    g.heightCeilingAt(0, 0); // the height ceiling built now, with the stage, rather than in the first tick
    stage.bspline.prepareCurvature(); // likewise the contact patch's kernel (terrain/patch-kernel.ts)
    return g;
  }

  sample(x: number, z: number, out: GroundSample): void {
    const t = this.tmp;
    this.surface.sample(x, z, t);
    out.h = t.h;
    out.nx = t.nx;
    out.ny = t.ny;
    out.nz = t.nz;
    out.surface = this.surfaceMap ? this.surfaceMap.surfaceAt(x, z) : this.defaultSurface;
  }

  sampleAt(p: Float64Array, out: GroundSample): void {
    this.sample(p[0]!, p[2]!, out);
  }

  /** `sampleAt` with the height's gradient and second derivatives (BSplineSurface.sampleCurvature). */
  samplePatchAt(p: Float64Array, out: GroundPatch): void {
    this.surface.sampleCurvatureAt(p, out);
    out.surface = this.surfaceMap ? this.surfaceMap.surfaceAtPoint(p) : this.defaultSurface;
  }

  heightAt(x: number, z: number): number {
    return this.surface.height(x, z);
  }

  /** Per-tile bound of the height (terrain/height-ceiling.ts); +Infinity where the surface has none. */
  heightCeilingAt(x: number, z: number): number {
    if (this.ceiling === undefined) this.ceiling = HeightCeiling.of(this.surface);
    return this.ceiling === null ? Number.POSITIVE_INFINITY : this.ceiling.at(x, z);
  }
}
