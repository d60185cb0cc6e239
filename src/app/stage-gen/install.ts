/** Installs the New stage screen (loaded with `import()` when it is first opened). */
import type { AppContext } from '../app-context';
import { registerNewStageScreen } from './new-stage-screen';

export function installStageGen(app: AppContext): void {
  registerNewStageScreen(app);
}
