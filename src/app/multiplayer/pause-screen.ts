/**
 * 'multiplayer-pause': the pause menu of a room's drive. The room's world cannot stop (the other cars race on and
 * the room's timeline runs), so the menu opens over the running car: it is stepped on with neutral controls and
 * the handbrake (MultiplayerSession.frame's `paused`), its packets keep going to the room. Resume (or B / Start)
 * goes back to the drive; Retire gives up the race (DNF, the results come up); Leave the room leaves it (DNF
 * "left" after 'go') and goes back to the setup screen.
 */
import { html, registerScreen } from '../screens';
import { raceOverFor } from './results-view';
import { leaveRoom, type MultiplayerState } from './state';

export function registerPauseScreen(mp: MultiplayerState): void {
  registerScreen('multiplayer-pause', (ctx) => {
    const racing = mp.session?.pacer.started === true;
    const el = html(`<h2>Paused</h2>
      <div class="sub">The race goes on: your car holds the handbrake while this menu is open</div>
      <button class="item default" data-k="resume">Resume</button>
      <button class="item" data-k="retire" ${racing ? '' : 'disabled'}>Retire (DNF)</button>
      <button class="item" data-k="leave">Leave the room</button>
      <div class="hint">A: choose · B / Start: resume</div>`, 'screen overlay');
    const resume = (): void => ctx.show('multiplayer-drive', { resume: true });
    const item = (k: string): HTMLElement => el.querySelector<HTMLElement>(`[data-k="${k}"]`)!;
    item('resume').onclick = resume;
    item('retire').onclick = () => {
      if (!mp.session?.pacer.started || !mp.client) return;
      mp.client.retire();
      // the drive hands over to the results when the room lists this car as retired
      resume();
    };
    item('leave').onclick = () => void leaveRoom(mp).then(() => ctx.show('multiplayer'));
    const update = (dt: number): void => (raceOverFor(mp.results, mp.client?.seat.slot) ? ctx.show('multiplayer-results') : mp.session?.frame(dt, true));
    return { el, overlay: true, update, back: resume, onKey: (k) => k === 'start' && (resume(), true) };
  });
}
