/** Town traffic (issue 23): Félez et al.'s traffic model around the player. docs/traffic.md. */
export { TrafficSim, TRAFFIC_DT_S, type TrafficOptions, type TrafficStats, type PlayerPose } from './sim';
export { stepTraffic, startTraffic, distanceDrivenM } from './step';
export { TrafficState, hashTraffic, INCIDENT_NONE, INCIDENT_BLIND, INCIDENT_WRECKED } from './state';
export { VAN, trafficTypeFromCar, type TrafficVehicleType } from './vehicle-types';
export { stepBicycle, stepLateral, steadyYawRate, TRAFFIC_MU } from './bicycle';
export { desiredGap, STANDSTILL_GAP_M, leaderRef, targetRef } from './references';
export { visibilityAngle, grantPlayer } from './junction';
export { findLeader, findPlayerLeader, type Leader } from './leader';
export { boxesOverlap } from './collisions';
export { STREET_SPEED_MS } from './spawn';
export { ZONE_AHEAD_M, ZONE_BEHIND_M, ZONE_HALF_WIDTH_M } from './zone';
export { pedalsFor } from './drive';
export { SPEED_TAU_S, GAP_TAU_S } from './references';
