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
  type CurvatureSample,
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
export { Road, type RoadProjection, type RoadPose } from './road';
export {
  loadStage,
  parseStageToml,
  stageTomlToString,
  StageTomlSchema,
  SCENERY_KINDS,
  type SceneryKind,
  type Stage,
  type StageFiles,
  PACE_NOTES_FILE,
  type StagePose,
  type StageRoad,
  type StageToml,
  type Checkpoint,
  type StageJoker,
  JOKER_JOIN_TOLERANCE_M,
  type SceneryItem,
} from './stage';
export { generateStage, optionsFromGeneratorTable, GENERATOR_VERSION, roadLimits, type GenerateOptions, type GeneratedStage, type RoadLimits, type StageStyle } from './generate';
export {
  GeoMipmap,
  EDGE_NEG_X,
  EDGE_POS_X,
  EDGE_NEG_Z,
  EDGE_POS_Z,
  SUB_CELLS,
  OCCLUSION_EYE_CLEARANCE_M,
  type GeoMipmapOptions,
  type SelectOptions,
  type LodCamera,
  type SelectedBlock,
  type BlockMesh,
} from './geomipmap';
export { SHIPPED_STAGES } from './shipped';
export type { PaceNote, Severity, Direction, CornerModifier, Caution, RoadFeature, Link } from './pacenotes/types';
export { generatePaceNotes, generatePaceNotesFromRoad, type PaceNoteRoadInput, type RoadObstacle } from './pacenotes/generate';
export { parsePaceNotes, formatPaceNotes, mergeRegenerated } from './pacenotes/file';
export { noteWords, VOCABULARY } from './pacenotes/words';
export { GeoMipmapChunks, DRAW_BLOCK_SIZE, DRAW_BLOCKS_PER_CHUNK, chunkBlocksFor } from './geomipmap-chunks';
export { lookAtLodCamera, type LookAtOptions } from './lod-camera';
export { RtinTerrain, RTIN_CHUNK_CELLS, type RtinOptions, type RtinSelection } from './rtin';
export { measureRtin, type RtinMeasure } from './rtin-measure';
export { sampleVertexGrid, type VertexGrid } from './vertex-grid';
