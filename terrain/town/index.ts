/** terrain/town: the town generator (streets, lane paths, signs and lights, scenery, ground). docs/traffic.md. */
export { generateTown, townHash, DEFAULT_TOWN_OPTIONS, type Town, type TownOptions, type LaneCrossing } from './town';
export { LANE_WIDTH_M, CONFLICT_CLEARANCE_M, laneOffsetM, type TownPath, type Turn } from './lanes';
export { evalPath, evalPrim, pathPoint, pathLength, turnPath, segmentPath, type PathPrim, type PathPoint } from './geometry';
export { lightColour, lightCycleS, crossingOccupied, crossingFreeForS, LIGHT_YELLOW_S, LIGHT_ALL_RED_S, type TrafficLight, type LightColour, type ArmControl, type PedestrianCrossing, type TownControl } from './control';
export { DIR_PSI, armCount, type TownNode, type TownEdge, type Network } from './network';
export { PAVEMENT_WIDTH_M, type SceneryBox, type Pole, type TownScenery } from './scenery';
