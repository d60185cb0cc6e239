/**
 * Telemetry of the running session: an observer the session's `stepRun` calls after each tick (read-only) samples the car
 * into the live ring buffer and the run log; when the run finishes the log is stored with the run
 * (run-store.ts) for the analysis screen. The service polls the host once per animation frame to notice
 * new sessions and finishes; it never writes simulation state.
 */
import type { SimWorld } from '../../ecs/world';
import type { RunObservers } from '../../run/step';
import { DEFAULT_SURFACES } from '../../content/surfaces';
import { NCH, TelemetrySampler } from './channels';
import { TelemetryRing } from './ring';
import { RunLog } from './run-log';
import { listRuns, saveRun } from './run-store';

export interface TelemetrySession {
  world: SimWorld;
  car: { eid: number; info: { id: string } };
  stage: { id: string; road: { project(x: number, z: number, out: { distanceM: number; lateralM: number; index: number }): unknown } };
  finished: boolean;
  run: { finishTimeS: number | null; timeS: number };
  /** What the session's `stepRun` calls after each tick: the service sets `telemetry` while attached. */
  observers: RunObservers;
}

export interface TelemetryHost {
  session: TelemetrySession | null;
}

/** Live window: 40 s at 120 Hz. */
export const RING_SAMPLES = 4800;

export class TelemetryService {
  readonly ring = new TelemetryRing(RING_SAMPLES);
  log: RunLog | null = null;
  private session: TelemetrySession | null = null;
  private sampler: TelemetrySampler | null = null;
  private readonly sample = new Float64Array(NCH);
  private readonly proj = { distanceM: 0, lateralM: 0, index: 0 };
  private saved = false;
  private seq = 0;
  /** Text of the car file the session drives (set by the garage / game when known). */
  carText: string | null = null;
  onRunSaved?: (id: string) => void;

  constructor(private readonly host: TelemetryHost) {
    void listRuns().then((r) => (this.seq = Math.max(this.seq, ...r.map((x) => x.seq), 0)));
  }

  /** Call once per animation frame. */
  poll(): void {
    const s = this.host.session;
    if (s !== this.session) this.attach(s);
    if (s && s.finished && !this.saved && this.log && this.log.n > 1) {
      this.saved = true;
      const t = s.run.finishTimeS ?? s.run.timeS;
      const id = `${s.stage.id}:${s.car.info.id}:${++this.seq}`;
      const stored = this.log.toStored({ id, stageId: s.stage.id, carId: s.car.info.id, label: `${s.car.info.id} #${this.seq} · ${t.toFixed(2)} s`, timeS: t, carText: this.carText, seq: this.seq });
      void saveRun(stored).then(() => this.onRunSaved?.(id));
    }
  }

  private attach(s: TelemetrySession | null): void {
    if (this.session) this.session.observers.telemetry = null;
    this.session = s;
    this.ring.clear();
    this.log = null;
    this.saved = false;
    if (!s) return;
    const surfaces = DEFAULT_SURFACES;
    this.sampler = new TelemetrySampler(s.car.eid, (code) => surfaces[code]?.muStatic ?? 1);
    this.log = new RunLog(6); // 120 Hz ticks → 20 Hz stored
    const afterTick = (w: SimWorld): void => {
      const b = w.c.RigidBody;
      const e = s.car.eid;
      s.stage.road.project(b.px[e]!, b.pz[e]!, this.proj);
      this.sampler!.sample(w, this.proj.distanceM, this.sample, w.time);
      this.ring.push(this.sample);
      this.log!.offer(this.sample);
    };
    s.observers.telemetry = { afterTick };
  }

  dispose(): void {
    this.attach(null);
  }
}
