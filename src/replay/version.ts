/**
 * Simulation version written into every replay. Bump it when a change alters simulation results (pass
 * order, equations, constants): replays from another version are still verified (the checksums decide),
 * and a desync report then names both versions.
 */
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
export const SIM_VERSION = 'bitrally-sim-5';
