/** terrain/: heightfield, B-spline surface, surface maps, geomipmap LOD, stages. No ECS, Babylon, DOM or fs. */
export { TerrainError } from './errors';
export { createRng, type Rng } from './prng';
export { encodeGrayPng } from './png';
export { Heightfield, isPow2Plus1, type HeightfieldMeta, type HeightPngMeta } from './heightfield';
export {
  BSplineGrid,
  BSplineSurface,
  DetailLayer,
  type HeightSample,
  type SurfaceSample,
  type ScalarField,
  type SampleManyOut,
  type RayHit,
  type Vec3,
} from './bspline';
export {
  SURFACE_IDS,
  SURFACE_PROPS,
  SurfaceMap,
  surfaceCode,
  type SurfaceId,
  type SurfaceProperty,
  type SurfaceRenderProps,
} from './surface';
