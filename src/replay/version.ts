/**
 * Simulation version written into every replay. Bump it when a change alters simulation results (pass
 * order, equations, constants): replays from another version are still verified (the checksums decide),
 * and a desync report then names both versions.
 */
import { ReplayFormatError } from './bytes';
// 2: Havok props skip the Havok step while all rest untouched; a stage's props world holds only the scenery
//    near the props (collision issue); vehicle force passes merged per car, driveline rows reused between
//    stages, tyre constants precomputed (vehicle issue)
// 3: engine combustion torque u·(T_curve + T_fric) − T_fric (published curves are net; friction was taken off
//    twice) (vehicle issue)
// 4: the wheels have their own unsprung mass (second-order travel with a travel-rate state; keyframes of
//    earlier versions lack Wheel.travelRate and are refused on seek) (vehicle issue)
// 5: car–car impulses ±J at one shared world point (Wu eq 5-11; the pair's angular momentum is conserved);
//    RigidBody.halted (state: the last line of defence stops a car with a non-finite or runaway state; keyframes
//    of earlier versions lack it and are refused on seek) (robustness issue)
// 6: stage timing is a pipeline pass over the StageProgress component (state: hashed and keyframed); a stage
//    replay of an earlier version hashes without it and is refused (`checkStageReplayVersion`); flat-ground
//    replays are unchanged
// 7: the field-speed wave (issue #19): the midpoint stage's wheel contacts come from the start-of-step ground
//    patch (second-order Taylor expansion) instead of a fresh terrain sample; a midpoint/RK4 stage normalises the
//    quaternion once, by the reciprocal of its norm (vehicle issue)
// 8: the wheel contact's terrain patch from per-cell power-basis polynomials (terrain/cell-poly.ts: the same surface,
//    other rounding); tyre and brake formulas with fewer divisions; the AI brakes within the friction circle
//    (vehicle and AI issues)
export const SIM_VERSION = 'bitrally-sim-8';

/** The first sim version whose stage replays hash the player's StageProgress. */
export const STAGE_PROGRESS_SIM_VERSION = 6;

const SIM_VERSION_PATTERN = /^bitrally-sim-(\d+)$/;

/**
 * A stage replay recorded before StageProgress was state cannot match a single checksum now: refused up front
 * with both versions rather than reported as a desync at tick 0.
 */
export function checkStageReplayVersion(h: { simVersion: string; stage: unknown }, file = 'replay'): void {
  const m = SIM_VERSION_PATTERN.exec(h.simVersion);
  if (h.stage === null || !m || Number(m[1]) >= STAGE_PROGRESS_SIM_VERSION) return;
  throw new ReplayFormatError(
    file,
    'header.simVersion',
    `bitrally-sim-${STAGE_PROGRESS_SIM_VERSION} or later for a stage replay (this build is ${SIM_VERSION}; stage timing is hashed state since then)`,
    h.simVersion,
  );
}
