/**
 * Rally mode (docs/game.md, "Rally"), wired into the app with one call from main.ts: `installRally(app)`.
 *  - 'rally': resume, new rally, daily rally;  'rally-new': the new rally's settings;
 *  - 'rally-stage': stage start;  'rally-service': service park;  'rally-standings': classifications;
 *  - the finish screen of a rally stage goes on to the standings (then the next stage or the service park), and
 *    the pause screen's "Quit" becomes "Retire from the stage" (src/app/screen-buttons.ts).
 */
import type { AppContext } from '../app-context';
import { addScreenButtons } from '../screen-buttons';
import { RallyController } from './controller';
import { registerNewRally, registerRallyMenu } from './menu-screens';
import { registerService, registerStageStart } from './run-screens';
import { registerStandings } from './standings-screen';
import { overallClassification } from '../../run/rally/classification';

const RALLY_CSS = `.rally-table{border-collapse:collapse;margin:4px 0 12px;font-size:16px;min-width:460px;font-variant-numeric:tabular-nums}
.rally-table td{padding:2px 10px;text-align:left}.rally-table .rally-me{color:#ffd23c;font-weight:600}
.rally-tables{display:flex;gap:28px;flex-wrap:wrap;justify-content:center}.rally-tables h3{margin:6px 0}
.rally-progress{width:420px;height:8px;background:#333;border-radius:4px;overflow:hidden;margin:6px 0}
.rally-progress div{height:100%;width:0;background:#ffc850;transition:width .2s}`;

export function installRally(app: AppContext): RallyController {
  const rc = new RallyController(app);
  const style = document.createElement('style');
  style.textContent = RALLY_CSS;
  document.head.appendChild(style);
  registerRallyMenu(rc);
  registerNewRally(rc);
  registerStageStart(rc);
  registerService(rc);
  registerStandings(rc);
  addScreenButtons('finish', () => {
    const k = rc.finishedStage;
    if (k === null || !rc.state) return null;
    return { buttons: [{ id: 'rally-standings', label: 'Rally standings and continue', run: () => (app.startSession(null), app.screens.show('rally-standings', { stage: k })) }], hide: ['retry', 'next'] };
  });
  addScreenButtons('pause', () => {
    if (rc.driving === null || !rc.state) return null;
    return { buttons: [{ id: 'rally-retire', label: 'Retire from the stage (slowest time + 5:00)', run: () => rc.retire() }], hide: ['restart', 'quit', 'garage'] };
  });
  // e2e test hook: the rally's state and what the player would read on the standings screen
  const hook = (window as unknown as { __bitrally?: Record<string, unknown> }).__bitrally;
  if (hook) {
    hook.rally = () => (rc.state ? { state: rc.state, next: rc.next(), overall: overallClassification(rc.state), saveError: rc.saveError } : null);
    hook.rallyFlush = () => rc.flush();
  }
  return rc;
}
