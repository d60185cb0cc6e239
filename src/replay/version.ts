/**
 * Simulation version written into every replay. Bump it when a change alters simulation results (pass
 * order, equations, constants): replays from another version are still verified (the checksums decide),
 * and a desync report then names both versions.
 */
export const SIM_VERSION = 'bitrally-sim-1';
