/**
 * The car–scene scenarios of system.test.ts (head-on, energy method, glancing, 5 mph, 400 km/h at three dt,
 * car–car, determinism) re-run with Havok loaded: buildScenario then finds each car's candidate obstacles
 * through the Havok static world (scenario-setup.ts), and the hand-built worlds opt in (`onHavokPath`); each
 * scene test checks that Havok queries were issued, and every number holds to the same digits as on the TS path.
 */
import { loadHavokNode } from '../../src/systems/sim/collision/havok-node';

await loadHavokNode();
await import('./system.test');
