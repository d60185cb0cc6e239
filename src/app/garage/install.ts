/**
 * One call wires the tuning workflow (issue 9) into the app: the garage and analysis screens, the telemetry
 * service (per-tick samples, run storage) with its live panel (key T or the left-stick click toggles it while driving), the dev live
 * reload of car files, and the custom cars' cache. main.ts calls `installTuning(app, ui)` once.
 */
import { registerGarageScreen, type GarageHost } from './garage-screen';
import { registerAnalysisScreen } from '../telemetry/analysis-screen';
import { TelemetryService, type TelemetryHost } from '../telemetry/service';
import { TelemetryPanel } from '../telemetry/live-panel';
import { installCarLiveReload } from './live-reload';
import { refreshCustom } from './car-sources';
import { carOverride, setLiveCar } from './live-car';
import { BUILTIN_CARS } from '../../content/cars';
import { carRuntime } from '../../systems/sim/vehicle/registry';
import './garage.css';

export interface TuningApp {
  session: (GarageHost['session'] & TelemetryHost['session']) | null;
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
  let lsWas = false;
  const loop = (now: number): void => {
    const s = app.session;
    if (s !== lastSession) {
      lastSession = s;
      // the car text the run is driven with, kept with its telemetry
      const id = s?.car.info.id;
      telemetry.carText = id ? (carOverride(id)?.text ?? BUILTIN_CARS.find((b) => b.id === id)?.text ?? null) : null;
      if (!s) panel.setVisible(false);
      // the running car is the target of "apply" and of the dev live reload
      setLiveCar(s ? { world: s.world, eid: s.car.eid, carId: s.car.info.id, onSwapped: (cfg) => s.onCarSwapped?.(cfg) } : null);
    }
    // gamepad: left-stick click (standard button 10, unused by the driving bindings) toggles the panel
    const pads = typeof navigator !== 'undefined' && navigator.getGamepads ? navigator.getGamepads() : [];
    let ls = false;
    for (const p of pads) if (p && (p.buttons[10]?.pressed ?? false)) ls = true;
    if (ls && !lsWas && app.session) panel.toggle();
    lsWas = ls;
    telemetry.poll();
    panel.frame(now);
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
  window.addEventListener('keydown', (e) => {
    if (e.code !== 'KeyT' || e.repeat || !app.session) return;
    const t = e.target as HTMLElement | null;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.isContentEditable)) return;
    panel.toggle();
  });
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
