/**
 * What the simulation needs to know about the ground under a point: height, unit normal and surface code.
 * A flat plane for scenarios; stages adapt the B-spline terrain (terrain/) to the same interface.
 */
export interface GroundSample {
  h: number;
  nx: number;
  ny: number;
  nz: number;
  /** Index into terrain SURFACE_IDS (0 = tarmac, 1 = gravel, …). */
  surface: number;
}

/**
 * A ground sample with the height's first and second derivatives at the sample point: the ground near it to
 * second order (h + g·Δ + ½ΔᵀHΔ), what the midpoint stage's contact reads instead of a fresh sample
 * (src/systems/sim/vehicle/suspension-contact.ts, docs/vehicle.md "Contact").
 */
export interface GroundPatch extends GroundSample {
  dhdx: number;
  dhdz: number;
  hxx: number;
  hxz: number;
  hzz: number;
}

export const groundPatch = (): GroundPatch => ({ h: 0, nx: 0, ny: 1, nz: 0, surface: 0, dhdx: 0, dhdz: 0, hxx: 0, hxz: 0, hzz: 0 });

/**
 * Which force evaluation of the tick is running, set by the integrator (src/systems/sim/integrate-bodies.ts):
 * `midpointStage` is true only during the midpoint method's second evaluation, whose wheel contacts come from
 * the start-of-step patches. One flag for the process: a force evaluation runs synchronously inside one
 * world's tick, and the integrator clears it when the stage ends.
 */
export const forceStage = { midpointStage: false };

export interface Ground {
  sample(x: number, z: number, out: GroundSample): void;
  /**
   * `sampleAt`'s height and surface (the same bits; the normal to rounding) plus the gradient and second
   * derivatives of the height at (p[0], p[2]); optional: a ground without it (the planes below, whose fresh sample
   * costs next to nothing, test grounds) is sampled afresh at every force evaluation.
   */
  samplePatchAt?(p: Float64Array, out: GroundPatch): void;
  /**
   * `sample` at (p[0], p[2]) (a point's x, y, z in a Float64Array), the same numbers; optional (then `sample`).
   * Hot callers pass the point in an array: a double argument to a call the JIT did not inline is boxed on the heap.
   */
  sampleAt?(p: Float64Array, out: GroundSample): void;
  /** `sample`'s height alone (the same number), for checks that need no normal or surface; optional (then `sample`). */
  heightAt?(x: number, z: number): number;
  /**
   * An upper bound of `heightAt(x, z)` (≥ it for every finite point, NaN for a non-finite one), cheaper than the
   * height itself: a check that only asks "not far below the ground" skips the sample when the bound answers.
   * Optional (then the check samples).
   */
  heightCeilingAt?(x: number, z: number): number;
}

export const groundSample = (): GroundSample => ({ h: 0, nx: 0, ny: 1, nz: 0, surface: 0 });

export class FlatGround implements Ground {
  constructor(
    readonly height: number,
    readonly surface = 0,
  ) {}

  sample(_x: number, _z: number, out: GroundSample): void {
    out.h = this.height;
    out.nx = 0;
    out.ny = 1;
    out.nz = 0;
    out.surface = this.surface;
  }

  heightAt(): number {
    return this.height;
  }
}

/** An inclined plane through the origin rising `grade` (rise/run) along +Z: used for hill-hold tests. */
export class SlopeGround implements Ground {
  private readonly nyv: number;
  private readonly nzv: number;
  constructor(
    readonly grade: number,
    readonly surface = 0,
  ) {
    const n = Math.hypot(1, grade);
    this.nyv = 1 / n;
    this.nzv = -grade / n;
  }

  sample(_x: number, z: number, out: GroundSample): void {
    out.h = this.grade * z;
    out.nx = 0;
    out.ny = this.nyv;
    out.nz = this.nzv;
    out.surface = this.surface;
  }

  heightAt(_x: number, z: number): number {
    return this.grade * z;
  }
}

/** The ground's height at (x, z): `heightAt` where the ground has it, else `sample` into `scratch`. */
export function groundHeight(g: Ground, x: number, z: number, scratch: GroundSample): number {
  if (g.heightAt) return g.heightAt(x, z);
  g.sample(x, z, scratch);
  return scratch.h;
}
