/**
 * Town mode screens (issue 23), wired into the app with one call from main.ts: `installTown(app)`.
 *  - 'town': setup (town seed, traffic density, your car), each changed with left/right;
 *  - 'town-drive': the drive (the instructor action: I or D-pad up by default, remappable in Controls);
 *  - 'town-pause': B / Escape / Start in the drive: resume, restart, leave (a left or restarted run is saved
 *    to the replay library).
 */
import { adjustable, html, registerScreen } from '../screens';
import type { AppContext } from '../app-context';
import { CARS } from '../cars';
import { TownSession, type TownSetup } from './session';
import { sharedReplayLibrary } from '../replay/library';

/** Traffic densities offered: vehicles kept around the player (200: the figure, the default). */
export const TOWN_DENSITIES = [50, 100, 200, 300] as const;
export const DEFAULT_TOWN_SEED = 1;
const DEFAULT_TOWN_CARS = 200;
/** Seeds offered by left/right (any other comes from the `town-seed` URL flag). */
const MAX_TOWN_SEED = 999;

interface TownState {
  setup: TownSetup;
  session: TownSession | null;
}

export function installTown(app: AppContext): void {
  const seedFlag = Number(new URLSearchParams(location.search).get('town-seed'));
  const town: TownState = { setup: { seed: Number.isInteger(seedFlag) && seedFlag > 0 ? seedFlag : DEFAULT_TOWN_SEED, cars: DEFAULT_TOWN_CARS, carId: 'hatch-gti' }, session: null };
  registerSetupScreen(town);
  registerDriveScreen(app, town);
  registerPauseScreen(town);
}

function registerSetupScreen(town: TownState): void {
  const { setup } = town;
  registerScreen('town', (ctx) => {
    const el = html(`<h2>Town</h2><div class="sub">Drive through a generated town with its traffic (Félez et al.'s urban traffic model); I / D-pad up: the instructor makes a driver cause an accident</div>
      <button class="item" data-k="seed"></button>
      <button class="item" data-k="density"></button>
      <button class="item" data-k="car"></button>
      <button class="item default" data-k="go">Drive</button>
      <button class="item" data-k="back">Back</button>
      <div class="hint">Left / right: change · A: drive · B: back</div>`);
    const cars = CARS();
    const item = (k: string): HTMLElement => el.querySelector<HTMLElement>(`[data-k="${k}"]`)!;
    const render = (): void => {
      item('seed').textContent = `Town seed: ${setup.seed}`;
      item('density').textContent = `Traffic: ${setup.cars} cars`;
      item('car').textContent = `Your car: ${cars.find((c) => c.id === setup.carId)?.name ?? setup.carId}`;
    };
    const cycle = <T,>(list: readonly T[], cur: T, d: number): T => list[(list.indexOf(cur) + d + list.length) % list.length] ?? list[0]!;
    adjustable(item('seed'), (d) => {
      setup.seed = ((setup.seed - 1 + d + MAX_TOWN_SEED) % MAX_TOWN_SEED) + 1;
      render();
    });
    adjustable(item('density'), (d) => {
      setup.cars = cycle(TOWN_DENSITIES, setup.cars as (typeof TOWN_DENSITIES)[number], d);
      render();
    });
    adjustable(item('car'), (d) => {
      setup.carId = cycle(cars.map((c) => c.id), setup.carId, d);
      render();
    });
    item('go').onclick = () => ctx.show('town-drive');
    item('back').onclick = () => ctx.show('title');
    render();
    return { el, back: () => ctx.show('title') };
  });
}

/** Saves a left town run to the replay library, like a stage run at its finish (test hook: townReplaySaved). */
function saveTownReplay(bytes: Uint8Array, hook: Record<string, unknown> | undefined): void {
  sharedReplayLibrary()
    .save(bytes)
    .then((e) => {
      if (hook) hook.townReplaySaved = { id: e.id, error: null };
    })
    .catch((e: Error) => {
      if (hook) hook.townReplaySaved = { id: null, error: e.message };
      console.warn(`town replay: could not save it to the library: ${e.message}`);
    });
}

/** Ends the running session: its recording closed, kept for the test hook and saved to the replay library. */
function endSession(town: TownState, hook: Record<string, unknown> | undefined): void {
  const s = town.session;
  if (!s) return;
  s.dispose();
  // the closed recording (a town replay: `npm run replay -- verify` rebuilds the town from its header)
  if (hook) hook.townReplay = s.replayBytes;
  if (s.replayBytes) saveTownReplay(s.replayBytes, hook);
  town.session = null;
}

/**
 * 'town-drive': builds the town and its traffic, then runs the session; B / Escape / Start pause it
 * ('town-pause'). Shown again with `{ resume: true }` it goes on with the running session.
 */
function registerDriveScreen(app: AppContext, town: TownState): void {
  const hook = (window as unknown as { __bitrally?: Record<string, unknown> }).__bitrally;
  registerScreen('town-drive', (ctx, params) => {
    const el = html(`<h2>Town</h2><div class="sub" data-msg>Building the town…</div>`, 'screen loading');
    const msg = el.querySelector<HTMLElement>('[data-msg]')!;
    const pause = (): void => ctx.show('town-pause');
    const screen = { el, overlay: true, update: (dt: number) => town.session?.frame(dt), back: pause, onKey: (k: string) => k === 'start' && (pause(), true) };
    if (params.resume === true && town.session) {
      el.style.display = 'none';
      return screen;
    }
    // a frame to show the message before the town is generated (a second or so)
    requestAnimationFrame(() => {
      try {
        app.startSession(null);
        endSession(town, hook);
        town.session = new TownSession(app.kit, { ...town.setup, simCapS: app.simCapS }, app.settings, app.devices, document.getElementById('ui')!);
        el.style.display = 'none';
        if (hook) {
          hook.town = () => town.session?.testState() ?? null;
          hook.townInstruct = () => town.session?.instruct() ?? null;
        }
      } catch (e) {
        msg.textContent = `Could not start: ${(e as Error).message}`;
      }
    });
    return screen;
  });
}

/** 'town-pause': the session stands still (its screen's frame is not run) until resumed, restarted or left. */
function registerPauseScreen(town: TownState): void {
  const hook = (window as unknown as { __bitrally?: Record<string, unknown> }).__bitrally;
  registerScreen('town-pause', (ctx) => {
    const el = html(`<h2>Paused</h2><div class="sub">Town ${town.setup.seed} · ${town.setup.cars} cars</div>
      <button class="item default" data-a="resume">Resume</button>
      <button class="item" data-a="restart">Restart (the same town, a new recording)</button>
      <button class="item" data-a="leave">Leave town (the run is saved to Replays)</button>
      <div class="hint">Start / B: resume</div>`, 'screen overlay');
    const act = (a: string): void => {
      if (a === 'resume') ctx.show('town-drive', { resume: true });
      else if (a === 'restart') {
        endSession(town, hook);
        ctx.show('town-drive');
      } else if (a === 'leave') {
        endSession(town, hook);
        ctx.show('town');
      }
    };
    el.querySelectorAll<HTMLElement>('[data-a]').forEach((b) => (b.onclick = () => act(b.dataset.a!)));
    const resume = (): void => act('resume');
    return { el, overlay: true, back: resume, onKey: (k) => k === 'start' && (resume(), true) };
  });
}
