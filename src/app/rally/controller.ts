/**
 * The rally in the game: holds the rally in progress, moves it on (stage finished, retired, service), saves it
 * after every step (rally-store.ts) and starts each stage run with the damage the car carries. Rival times are
 * computed in a worker (rivals-client.ts) as soon as a stage's files are known, while the player drives.
 */
import type { AppContext } from '../app-context';
import type { RunResult } from '../game';
import type { StageRunRequest } from '../menus';
import { carChoice } from '../cars';
import { completeStage, nextRallyStep, retireStage, serviceRally, withRivalTimes, type RallyState, type RallyStep } from '../../run/rally/rally';
import type { ServiceChoice } from '../../run/rally/service';
import { clearCurrentRally, loadCurrentRally, saveRally } from './rally-store';
import { computeRivalTimes } from './rivals-client';
import { prepareRallyStage, type RallyStageReady } from './stage-source';

/** Frames a retired run stays (paused, behind the standings) so that the replay saver sees its closed replay. */
const RETIRED_SESSION_FRAMES = 3;

function afterFrames(n: number, fn: () => void): void {
  if (n <= 0) fn();
  else requestAnimationFrame(() => afterFrames(n - 1, fn));
}

export class RallyController {
  state: RallyState | null = null;
  /** The stage being driven (index), null between stages. */
  driving: number | null = null;
  /** The stage whose finish screen is showing (its rally buttons), null otherwise. */
  finishedStage: number | null = null;
  private readonly rivalJobs = new Map<number, Promise<void>>();
  /** Saves in the order the steps were made (a later state never lands before an earlier one). */
  private saving: Promise<void> = Promise.resolve();
  /** Last save error (shown on the rally screens). */
  saveError: string | null = null;
  onChange?: () => void;

  constructor(private readonly app: AppContext) {}

  /** Reads the rally in progress from IndexedDB (after a reload). */
  async load(): Promise<RallyState | null> {
    this.state = await loadCurrentRally();
    return this.state;
  }

  /** What comes next in the rally in progress. */
  next(): RallyStep | null {
    return this.state ? nextRallyStep(this.state) : null;
  }

  /** A new rally replaces the one in progress. */
  begin(s: RallyState): Promise<void> {
    this.state = s;
    this.rivalJobs.clear();
    return this.save();
  }

  private set(s: RallyState): Promise<void> {
    this.state = s;
    this.onChange?.();
    return this.save();
  }

  private save(): Promise<void> {
    const snapshot = this.state;
    this.saving = this.saving
      .then(() => (snapshot ? saveRally(snapshot) : clearCurrentRally()))
      .then(() => void (this.saveError = null))
      .catch((e: Error) => {
        this.saveError = e.message;
        console.warn(`rally: could not save: ${e.message}`);
      });
    return this.saving;
  }

  /** Waits for every save made so far (tests, leaving the page). */
  flush(): Promise<void> {
    return this.saving;
  }

  /** Goes to the screen of the next step: the stage start, the service park, or the final classification. */
  proceed(): void {
    const step = this.next();
    if (!step) return this.app.screens.show('rally');
    if (step.kind === 'stage') this.app.screens.show('rally-stage', { stage: step.stage });
    else if (step.kind === 'service') this.app.screens.show('rally-service');
    else this.app.screens.show('rally-standings', { final: true });
  }

  /** The stage's files (generated or read from the cache) and its rival times started in the worker. */
  async prepare(k: number, onProgress?: (f: number) => void): Promise<RallyStageReady> {
    const s = this.state!;
    const ready = await prepareRallyStage(s.stages[k]!, onProgress);
    this.startRivals(k, ready);
    return ready;
  }

  private startRivals(k: number, ready: RallyStageReady): void {
    const s = this.state!;
    if (s.rivalTimes[k] || this.rivalJobs.has(k)) return;
    this.rivalJobs.set(k, this.rivalJob(k, Promise.resolve(ready)));
  }

  private rivalJob(k: number, files: Promise<RallyStageReady>): Promise<void> {
    const s = this.state!;
    return files
      .then((ready) => computeRivalTimes(ready.files, carChoice(s.carId).cfg, s.rivals))
      .then((times) => {
        if (this.state?.id === s.id) return this.set(withRivalTimes(this.state, k, times));
      })
      .catch((e: Error) => console.warn(`rally: rival times of SS${k + 1}: ${e.message}`))
      .finally(() => this.rivalJobs.delete(k));
  }

  /**
   * Rival times of stage `k`, computed if they are not yet (after a reload the stage is prepared again, from the
   * generation cache): they are part of the stage's classification.
   */
  rivalsReady(k: number): Promise<void> {
    const s = this.state;
    if (!s || s.rivalTimes[k] || k >= s.stages.length) return Promise.resolve();
    let job = this.rivalJobs.get(k);
    if (!job) {
      job = this.rivalJob(k, prepareRallyStage(s.stages[k]!));
      this.rivalJobs.set(k, job);
    }
    return job;
  }

  /** Starts stage `k` (its files prepared): the car starts with the damage it carries. */
  drive(k: number, ready: RallyStageReady): void {
    const s = this.state!;
    this.driving = k;
    this.finishedStage = null;
    const run: StageRunRequest = {
      stage: ready.summary,
      carId: s.carId,
      session: { startDamage: s.damage },
      onFinish: (r) => this.stageFinished(k, r),
    };
    this.app.screens.show('loading', { run });
  }

  private stageFinished(k: number, r: RunResult): void {
    if (!this.state || this.driving !== k) return;
    this.driving = null;
    this.finishedStage = k;
    void this.set(completeStage(this.state, { timeS: r.timeS, damage: r.damage }));
  }

  /** The player quits the stage being driven: the rally's retirement rule. */
  retire(): void {
    const k = this.driving;
    if (!this.state || k === null) return;
    const session = this.app.session;
    const damage = session?.damage() ?? this.state.damage;
    this.driving = null;
    // the retired run's replay goes to the library like any run (saved by the frame loop), then the run ends
    session?.abandon();
    afterFrames(RETIRED_SESSION_FRAMES, () => this.app.session === session && this.app.startSession(null));
    void this.set(retireStage(this.state, { damage }));
    this.app.screens.show('rally-standings', { stage: k });
  }

  /** The due service park with the player's choice; then on to the next stage. */
  service(choice: ServiceChoice): void {
    if (!this.state) return;
    void this.set(serviceRally(this.state, choice));
    this.proceed();
  }

  /** The rally is over or abandoned: nothing in progress any more (it stays stored under its id). */
  async close(): Promise<void> {
    this.state = null;
    this.driving = this.finishedStage = null;
    await this.save();
  }
}
