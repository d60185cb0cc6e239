/**
 * One call wires the tuning workflow (issue 9) into the app: the garage and analysis screens, the telemetry
 * service (per-tick samples, run storage) with its live panel (the remappable `telemetry` action toggles it
 * while driving: T / left-stick click by default), the dev live reload of car files, and the custom cars'
 * cache. main.ts calls `installTuning(app, ui)` once.
 */
import { registerGarageScreen, type GarageHost } from './garage-screen';
import { registerAnalysisScreen } from '../telemetry/analysis-screen';
import { TelemetryService, type TelemetryHost } from '../telemetry/service';
import { TelemetryPanel } from '../telemetry/live-panel';
import { installCarLiveReload } from './live-reload';
import { refreshCustom } from './car-sources';
import { carOverride, onCarOverride, setLiveCar } from './live-car';
import { BUILTIN_CARS } from '../../content/cars';
import { carRuntime } from '../../systems/sim/vehicle/registry';
import './garage.css';

export interface TuningApp {
  /** `telemetryPresses`: presses of the remappable `telemetry` action (GameSession counts them while driving). */
  session: (GarageHost['session'] & TelemetryHost['session'] & { telemetryPresses?: number }) | null;
}

export interface Tuning {
  telemetry: TelemetryService;
  panel: TelemetryPanel;
}

export function installTuning(app: TuningApp, ui: HTMLElement): Tuning {
  registerGarageScreen(app as GarageHost);
  registerAnalysisScreen();
  const telemetry = new TelemetryService(app as TelemetryHost);
  const panel = new TelemetryPanel(ui, telemetry.ring);
  installCarLiveReload(ui);
  void refreshCustom();
  let lastSession: unknown = null;
  let lastPresses = 0;
  // a swap of the running car (Apply, dev live reload): the run's telemetry is kept with the newest text
  onCarOverride((carId, o) => {
    if (o && app.session?.car.info.id === carId) telemetry.carText = o.text;
  });
  const loop = (now: number): void => {
    const s = app.session;
    if (s !== lastSession) {
      lastSession = s;
      lastPresses = s?.telemetryPresses ?? 0;
      // the car text the run is driven with, kept with its telemetry
      const id = s?.car.info.id;
      telemetry.carText = id ? (carOverride(id)?.text ?? BUILTIN_CARS.find((b) => b.id === id)?.text ?? null) : null;
      if (!s) panel.setVisible(false);
      // the running car is the target of "apply" and of the dev live reload
      setLiveCar(s ? { world: s.world, eid: s.car.eid, carId: s.car.info.id, onSwapped: (cfg) => s.onCarSwapped?.(cfg) } : null);
    }
    // the `telemetry` action (src/app/input/actions.ts; default T / left-stick click, remappable in
    // Settings → Controls) toggles the panel: one toggle per press the session counted
    const presses = s?.telemetryPresses ?? 0;
    if (s && (presses - lastPresses) % 2 !== 0) panel.toggle();
    lastPresses = presses;
    telemetry.poll();
    panel.frame(now);
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
  // e2e / debugging: what the running car is configured with right now
  window.__tuning = {
    liveSource: () => {
      const s = app.session;
      return s ? (carRuntime(s.world, s.car.eid).cfg.source as unknown as Record<string, unknown>) : null;
    },
    drawnCar: () => app.session?.drawnCar?.() ?? null,
    carState: () => {
      const s = app.session;
      if (!s) return null;
      const b = s.world.c.RigidBody;
      const e = s.car.eid;
      return { pos: [b.px[e]!, b.py[e]!, b.pz[e]!], vel: [b.vx[e]!, b.vy[e]!, b.vz[e]!], tick: s.world.tick };
    },
  };
  return { telemetry, panel };
}

declare global {
  interface Window {
    __tuning?: {
      liveSource(): Record<string, unknown> | null;
      /** The running car as drawn: tyre mesh radii, body length, tacho redline (follows live swaps). */
      drawnCar(): { wheelRadiusM: number[]; lengthM: number; redlineRpm: number } | null;
      /** The running car's body position, velocity (world frame, SI) and the world's tick. */
      carState(): { pos: number[]; vel: number[]; tick: number } | null;
    };
  }
}
