/**
 * Rallycross mode screens (issue 8), wired into the app with one call from main.ts: `installRallycross(app)`.
 *  - 'rallycross': setup (circuit, your car, AI opponents 1–7, laps);
 *  - 'rallycross-race': the race (standing start, laps, positions; Escape / B leaves);
 *  - 'rallycross-results': final standings.
 */
import { adjustable, html, registerScreen } from '../screens';
import type { AppContext } from '../app-context';
import { listStages, loadStageWithFiles, type StageSummary } from '../stages';
import { CARS } from '../cars';
import { RallycrossSession, type RallycrossSetup } from './session';
import { resultRowHtml, type Standing } from './standings-html';

const RESULTS_CSS = `.rx-results{border-collapse:collapse;margin:6px 0 14px;font-size:16px;min-width:420px}
.rx-results td{padding:3px 10px;text-align:left}.rx-results .rx-car{opacity:.7}.rx-results .rx-time{font-variant-numeric:tabular-nums}
.rx-results .rx-me{color:#ffd23c;font-weight:600}.rx-results .rx-pen{color:#ff6b5a;font-size:13px}`;


/** The mode's state across its screens: the setup chosen, the race running and the last final standings. */
interface RallycrossState {
  setup: RallycrossSetup & { circuit?: StageSummary };
  session: RallycrossSession | null;
  last: Standing[];
}

export function installRallycross(app: AppContext): void {
  const rx: RallycrossState = { setup: { playerCarId: 'rally-awd', opponents: 5, laps: 3 }, session: null, last: [] };
  const style = document.createElement('style');
  style.textContent = RESULTS_CSS;
  document.head.appendChild(style);
  registerSetupScreen(rx);
  registerRaceScreen(app, rx);
  registerResultsScreen(rx);
}

/** 'rallycross': circuit, car, opponents and laps, each changed with left/right. */
function registerSetupScreen(rx: RallycrossState): void {
  const { setup } = rx;
  registerScreen('rallycross', (ctx) => {
    const el = html(`<h2>Rallycross</h2><div class="sub">A closed tarmac + gravel circuit, up to 7 AI rivals, standing start</div>
      <button class="item" data-k="circuit"></button>
      <button class="item" data-k="car"></button>
      <button class="item" data-k="opp"></button>
      <button class="item" data-k="laps"></button>
      <button class="item default" data-k="go">Start the race</button>
      <button class="item" data-k="back">Back</button>
      <div class="hint">Left / right: change · A: start · B: back</div>`);
    let circuits: StageSummary[] = [];
    const cars = CARS();
    const item = (k: string): HTMLElement => el.querySelector<HTMLElement>(`[data-k="${k}"]`)!;
    const render = (): void => {
      item('circuit').textContent = `Circuit: ${setup.circuit?.name ?? '(loading…)'}`;
      item('car').textContent = `Your car: ${cars.find((c) => c.id === setup.playerCarId)?.name ?? setup.playerCarId}`;
      item('opp').textContent = `AI opponents: ${setup.opponents}`;
      item('laps').textContent = `Laps: ${setup.laps}`;
    };
    void listStages().then(({ stages }) => {
      circuits = stages.filter((s) => s.id.startsWith('rallycross-'));
      setup.circuit ??= circuits[0];
      render();
    });
    const cycle = <T,>(list: T[], cur: T, d: number): T => list[(list.indexOf(cur) + d + list.length) % list.length] ?? cur;
    adjustable(item('circuit'), (d) => {
      if (circuits.length) setup.circuit = cycle(circuits, setup.circuit ?? circuits[0]!, d);
      render();
    });
    adjustable(item('car'), (d) => {
      setup.playerCarId = cycle(cars.map((c) => c.id), setup.playerCarId, d);
      render();
    });
    adjustable(item('opp'), (d) => {
      setup.opponents = Math.max(1, Math.min(7, setup.opponents + d));
      render();
    });
    adjustable(item('laps'), (d) => {
      setup.laps = Math.max(1, Math.min(10, setup.laps + d));
      render();
    });
    item('opp').onclick = () => {
      setup.opponents = (setup.opponents % 7) + 1;
      render();
    };
    item('laps').onclick = () => {
      setup.laps = (setup.laps % 10) + 1;
      render();
    };
    item('go').onclick = () => setup.circuit && ctx.show('rallycross-race');
    item('back').onclick = () => ctx.show('title');
    render();
    return { el, back: () => ctx.show('title') };
  });
}

/** 'rallycross-race': loads the circuit and runs the race session until it finishes or is left. */
function registerRaceScreen(app: AppContext, rx: RallycrossState): void {
  const hook = (window as unknown as { __bitrally?: Record<string, unknown> }).__bitrally;
  const { setup } = rx;
  registerScreen('rallycross-race', (ctx) => {
    const el = html(`<h2>Rallycross</h2><div class="sub" data-msg>Loading the circuit…</div>`, 'screen loading');
    const msg = el.querySelector<HTMLElement>('[data-msg]')!;
    void (async () => {
      try {
        const { stage } = await loadStageWithFiles(setup.circuit!);
        app.startSession(null);
        rx.session?.dispose();
        rx.session = new RallycrossSession(app.kit, stage, { ...setup, simCapS: app.simCapS }, app.settings, app.devices, document.getElementById('ui')!);
        rx.session.onFinish = (st) => {
          rx.last = st;
          ctx.show('rallycross-results');
        };
        el.style.display = 'none';
        if (hook) {
          hook.rallycross = () => (rx.session ? rx.session.testState() : null);
          hook.rallycrossAutopilot = (on: boolean) => rx.session?.race.setPlayerAutopilot(on) ?? false;
        }
      } catch (e) {
        msg.textContent = `Could not start: ${(e as Error).message}`;
      }
    })();
    return {
      el,
      overlay: true,
      update: (dt) => rx.session?.frame(dt),
      back: () => {
        rx.session?.dispose();
        rx.session = null;
        ctx.show('rallycross');
      },
    };
  });
}

/** 'rallycross-results': the final standings, following the rivals still racing behind them. */
function registerResultsScreen(rx: RallycrossState): void {
  registerScreen('rallycross-results', (ctx) => {
    // the race runs on behind the results (the rivals still racing finish): the table follows it
    const table = (st: Standing[]): string => st.map(resultRowHtml).join('');
    const el = html(`<h2>Race result</h2><table class="rx-results" data-results>${table(rx.last)}</table>
      <button class="item default" data-k="again">Race again</button>
      <button class="item" data-k="menu">Rallycross menu</button>`);
    const close = (): void => {
      rx.session?.dispose();
      rx.session = null;
    };
    el.querySelector<HTMLElement>('[data-k="again"]')!.onclick = () => {
      close();
      ctx.show('rallycross-race');
    };
    el.querySelector<HTMLElement>('[data-k="menu"]')!.onclick = () => {
      close();
      ctx.show('rallycross');
    };
    const tbl = el.querySelector<HTMLElement>('[data-results]')!;
    let n = 0;
    const update = (dt: number): void => {
      rx.session?.frame(dt);
      if (rx.session && ++n % 15 === 0) tbl.innerHTML = table(rx.session.standings());
    };
    return { el, overlay: true, update, back: () => (close(), ctx.show('rallycross')) };
  });
}
