/**
 * Side-effect module: import it FIRST in a program's entry (browser main.ts, the replay CLI) so that every
 * module evaluated after it — including module-level constants of the simulation — uses the deterministic
 * elementary functions (src/ecs/dmath.ts): a replay recorded in Chromium verifies bit-exactly in Node.
 */
import { installDeterministicMath } from './dmath';

installDeterministicMath();
