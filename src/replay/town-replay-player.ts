/**
 * Plays a town replay (issue 23 item 5) for the viewer: rebuilds the town run its header describes
 * (`buildTownReplayRun`, as the verifier does), steps the world and the traffic tick by tick with the recorded
 * inputs and instructor actions, and compares each recorded checksum (world + traffic: `TownRun.stateHash`)
 * as it passes. A town run records no keyframes (a world snapshot holds no traffic state), so seeking back
 * rebuilds the run and re-simulates from tick 0: a seek to tick T costs the town's generation plus T ticks
 * (about T / 500 s of simulated time at the headless rate, docs/replays.md "Town replays").
 */
import type { SimWorld } from '../ecs/world';
import type { TownRun } from '../run/town';
import type { ReplayData } from './format';
import type { Desync } from './player';
import { buildTownReplayRun, TownRecordedInput } from './town-replay';

export class TownReplayPlayer {
  run: TownRun;
  private readonly checksums: Map<number, string>;
  /** Instructor actions taken before each tick (a tick may hold several). */
  private readonly instruct = new Map<number, number>();
  /** TownRun.tick's observers: this player compares the checksum after each tick. */
  private readonly observers = { checker: this };
  /** The last tick whose checksum was counted (a re-simulation after a seek back counts none twice). */
  private lastCompared = -1;
  checksumsChecked = 0;
  checksumsMatched = 0;
  desync: Desync | null = null;
  /** Re-simulation is the only source of state (no keyframes): nothing to resync on, so these stay put. */
  readonly resyncs = 0;
  readonly trusted = true;

  constructor(
    readonly data: ReplayData,
    private readonly file = 'replay',
  ) {
    this.checksums = new Map(data.checksums.map((c) => [c.tick, c.hash]));
    for (const t of data.header.town?.instructorTicks ?? []) this.instruct.set(t, (this.instruct.get(t) ?? 0) + 1);
    this.run = this.build();
  }

  private build(): TownRun {
    const run = buildTownReplayRun(this.data.header, new TownRecordedInput(this.data.inputs), this.file);
    this.run = run;
    this.compare(0);
    return run;
  }

  get world(): SimWorld {
    return this.run.world;
  }

  get tick(): number {
    return this.run.world.tick;
  }

  get totalTicks(): number {
    return this.data.header.ticks;
  }

  get ended(): boolean {
    return this.tick >= this.totalTicks;
  }

  /** Compares the recorded checksum at `tick` (if any) with the run's state; each tick counts once. */
  private compare(tick: number): void {
    const expected = this.checksums.get(tick);
    if (expected === undefined || tick <= this.lastCompared) return;
    this.lastCompared = tick;
    const found = this.run.stateHash();
    this.checksumsChecked++;
    if (found === expected) this.checksumsMatched++;
    else this.desync ??= { tick, timeS: tick * this.run.world.dt, expected, found, differences: [], comparedAtTick: null };
  }

  /** TownRun.tick's observer: the checksum after the tick. */
  afterTick(world: SimWorld): void {
    this.compare(world.tick);
  }

  /** One tick (the instructor actions recorded before it first); false once the recording has ended. */
  step(): boolean {
    if (this.ended) return false;
    for (let i = this.instruct.get(this.tick) ?? 0; i > 0; i--) this.run.instruct();
    this.run.tick(this.observers);
    return true;
  }

  /** Moves to `tick` (clamped to the recording): on forward, or rebuilt from tick 0 when going back. */
  seek(tick: number): void {
    const target = Math.max(0, Math.min(this.totalTicks, Math.round(tick)));
    if (target < this.tick) this.build();
    while (this.tick < target) this.step();
  }

  /** Plays to the end of the recording. */
  runToEnd(): void {
    while (this.step());
  }

  /** Nothing outside the run to release (a town run holds no Havok world); kept for the viewer's lifecycle. */
  dispose(): void {}
}
