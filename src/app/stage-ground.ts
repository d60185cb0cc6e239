/**
 * Adapts a loaded stage to the simulation's Ground interface: height and normal from the B-spline surface
 * (macro + detail), surface code from the surface map.
 */
import type { Ground, GroundSample } from '../ecs/ground';
import type { SurfaceSample } from '../../terrain/bspline';
import type { Stage } from '../../terrain/stage';

export class StageGroundAdapter implements Ground {
  private readonly tmp: SurfaceSample = { h: 0, dhdx: 0, dhdz: 0, nx: 0, ny: 1, nz: 0 };
  constructor(private readonly stage: Stage) {}
  sample(x: number, z: number, out: GroundSample): void {
    const t = this.tmp;
    this.stage.bspline.sample(x, z, t);
    out.h = t.h;
    out.nx = t.nx;
    out.ny = t.ny;
    out.nz = t.nz;
    out.surface = this.stage.surfaceMap.surfaceAt(x, z);
  }
}
