/**
 * The simulation world's defaults, defined once here (the lowest layer that needs them: car loading and the
 * scenario schema check against them; src/ecs/world.ts builds worlds with them). Code that runs inside a world
 * reads `world.gravity` and `world.dt`; these are for code outside a world and for "g" as a unit.
 */

/** Standard gravity g₀ (rounded to three figures: every shipped result and state hash uses 9.81), m/s². */
export const STANDARD_GRAVITY_M_S2 = 9.81;

/** The fixed simulation step: 500 Hz, s. */
export const DEFAULT_DT = 1 / 500;
