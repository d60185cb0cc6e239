/**
 * Plays a replay back by deterministic re-simulation: every car's input source reads the recorded
 * quantised inputs, recorded edits are applied between ticks, and after each tick (`stepRun`) the state hash is compared with
 * every recorded checksum. The first mismatch is kept (tick, hashes, and the differing fields as soon as a
 * recorded keyframe is reached); from then on the player resyncs on each recorded keyframe so that a viewer
 * shows recorded truth rather than a diverged simulation (`trusted` is false in between).
 *
 * Seeking restores the nearest keyframe at or before the target (recorded keyframes plus the ones this
 * player cached while playing) and re-simulates the rest.
 */
import { controlsResources, neutralInput, type InputSource, type QuantizedInput } from '../ecs/controls';
import { stepRun, type RunObservers } from '../run/step';
import { stateHash } from '../ecs/hash';
import { diffSnapshots, saveSnapshot, type SnapshotDifference, type WorldSnapshot } from '../ecs/snapshot';
import { restoreSnapshot } from '../run/snapshot';
import type { SimWorld } from '../ecs/world';
import type { CarFilesSource, ReplayData, ReplayEdit } from './format';
import { InputCursor } from './inputs';
import { checkTickBudget } from './budget';
import { ReplayFormatError } from './bytes';
import { checkStageReplayVersion } from './version';
import { buildRunWorld, type RunWorld } from '../run/run-world';
import { checkReplayCars } from './stage-check';
import { type CarAdapter } from '../run/cars';
import { addStageRecovery } from '../run/stage-progress';
import type { Stage } from '../../terrain/stage';
import { collisionRuntime, releaseCollisionWorld } from '../systems/sim/collision/runtime';
import { HavokProps } from '../systems/sim/collision/props';

export interface Desync {
  /** First tick whose checksum did not match (ticks completed). */
  tick: number;
  timeS: number;
  expected: string;
  found: string;
  /** Fields that differed, from the first recorded keyframe at or after the mismatch (empty until then). */
  differences: SnapshotDifference[];
  /** Tick of the keyframe the differences come from, or null if none was reached. */
  comparedAtTick: number | null;
}

class RecordedInput implements InputSource {
  private readonly q: QuantizedInput = neutralInput();
  private readonly cursor: InputCursor;
  constructor(
    private readonly player: ReplayPlayer,
    car: number,
  ) {
    this.cursor = new InputCursor(player.data.inputs, car);
  }
  next(world: SimWorld): QuantizedInput {
    if (world.tick >= this.player.data.inputs.ticks) return neutralInput();
    return this.cursor.read(world.tick, this.q);
  }
}

/** A recorded keyframe that differs from the state re-simulated from the inputs (it is not restored again). */
export interface KeyframeMismatch {
  tick: number;
  differences: SnapshotDifference[];
}

export interface PlayerOptions {
  /** Cache a keyframe in memory every this many ticks while playing (seeking backwards). Default 1 s. */
  cacheEveryTicks?: number;
  /** Resync on recorded keyframes after a desync (viewer). Default true. */
  resync?: boolean;
  /** Refuse replays of more car-ticks than this (default MAX_REPLAY_CAR_TICKS, src/replay/limits.ts). */
  maxCarTicks?: number;
  /** File name for errors. */
  file?: string;
}

export class ReplayPlayer {
  readonly world: SimWorld;
  readonly cars: number[];
  readonly checksums = new Map<number, string>();
  readonly fileKeyframes = new Map<number, WorldSnapshot>();
  private readonly cache = new Map<number, WorldSnapshot>();
  private readonly editsAt = new Map<number, ReplayEdit[]>();
  /** Config edits (mid-run car swaps) in recorded order. */
  private readonly configEdits: Extract<ReplayEdit, { kind: 'config' }>[] = [];
  private readonly cacheEvery: number;
  private readonly resync: boolean;
  private readonly stage: Stage | null;
  /** Keyframes at ticks below this may be restored (Havok props untouched so far); Infinity without props. */
  private readonly pristineBefore: number;
  desync: Desync | null = null;
  /** False between a detected desync and the next recorded keyframe. */
  trusted = true;
  /** Recorded keyframe ticks equal to the state re-simulated from tick 0 (through confirmed keyframes only). */
  private readonly confirmed = new Set<number>();
  private readonly cacheLineage = new Map<number, boolean>();
  /** The world's state descends from tick 0 through confirmed keyframes only (it may confirm the next one). */
  private lineageConfirmed = true;
  /** Recorded keyframes found to differ from the re-simulated state: dropped from seeking. */
  readonly keyframeMismatches: KeyframeMismatch[] = [];
  checksumsChecked = 0;
  checksumsMatched = 0;
  resyncs = 0;
  /** Called after each played tick (views, timing). */
  onTick?: (p: ReplayPlayer) => void;

  /** What `step` calls after each tick: this player's checksum check (src/run/step.ts). */
  private readonly observers: RunObservers = { checker: this };

  constructor(
    readonly data: ReplayData,
    run: RunWorld,
    private readonly carAdapter: CarAdapter,
    opts: PlayerOptions = {},
  ) {
    checkTickBudget(data.header, opts.maxCarTicks, opts.file);
    // a town run is rebuilt by its own runner (town-replay.ts): this player steps stage and flat-ground worlds
    if (data.header.town) throw new ReplayFormatError(opts.file ?? 'replay', 'header.town', 'a stage or flat-ground run (verify town runs with `npm run replay -- verify`)', `town seed ${data.header.town.seed}`);
    checkStageReplayVersion(data.header, opts.file);
    this.world = run.world;
    this.cars = run.cars;
    this.stage = run.stage;
    const hasProps = collisionRuntime(this.world).props instanceof HavokProps;
    // a file without the field (or a touch at tick t) → only keyframes of ticks < t; none → every keyframe
    this.pristineBefore = !hasProps ? Infinity : data.header.propsTouchedTick === null ? Infinity : (data.header.propsTouchedTick ?? 1);
    for (const c of data.checksums) this.checksums.set(c.tick, c.hash);
    for (const k of data.keyframes) this.fileKeyframes.set(k.tick, k.snapshot);
    checkReplayCars(data, carAdapter, opts.file);
    for (const e of data.edits) {
      const l = this.editsAt.get(e.tick);
      if (l) l.push(e);
      else this.editsAt.set(e.tick, [e]);
      if (e.kind === 'config') {
        if (!carAdapter.setConfig) throw new Error('replay: this car adapter cannot apply the recorded car configuration swaps');
        this.configEdits.push(e);
      }
    }
    // the freshly built world is the keyframe at tick 0 (format 2 files do not carry it)
    if (this.world.tick === 0 && !this.fileKeyframes.has(0)) this.cache.set(0, saveSnapshot(this.world));
    this.cacheEvery = opts.cacheEveryTicks ?? Math.max(1, Math.round(1 / this.world.dt));
    this.resync = opts.resync ?? true;
    const res = controlsResources(this.world);
    this.cars.forEach((eid, i) => res.sources.set(eid, new RecordedInput(this, i)));
    const h0 = this.checksums.get(0);
    if (h0 !== undefined) this.compare(0, h0, stateHash(this.world));
  }

  get tick(): number {
    return this.world.tick;
  }
  get totalTicks(): number {
    return this.data.header.ticks;
  }
  get ended(): boolean {
    return this.world.tick >= this.data.header.ticks;
  }

  private compare(tick: number, expected: string, found: string): void {
    this.checksumsChecked++;
    if (expected === found) {
      this.checksumsMatched++;
      return;
    }
    this.trusted = false;
    if (!this.desync) this.desync = { tick, timeS: tick * this.world.dt, expected, found, differences: [], comparedAtTick: null };
  }

  /** After each tick of `step` (world.tick = ticks completed): compares the recorded checksum of this tick. */
  afterTick(world: SimWorld): void {
    const done = world.tick;
    const h = this.checksums.get(done);
    if (h !== undefined) this.compare(done, h, stateHash(world));
  }

  /** Plays one tick; returns false when the replay has ended. */
  step(): boolean {
    const w = this.world;
    if (this.ended) return false;
    const edits = this.editsAt.get(w.tick);
    if (edits) {
      // in the order the game made them, before the tick runs (as between two ticks of the game)
      for (const e of edits) {
        if (e.kind === 'place') {
          // a placed car is a recovery: the game adds the stage penalty at the same moment
          this.carAdapter.place(w, this.cars[e.car]!, e.pose);
          addStageRecovery(w, this.cars[e.car]!);
        }
        else this.carAdapter.setConfig!(w, this.cars[e.car]!, e, 'swap');
      }
    }
    stepRun(w, this.observers);
    w.events.length = 0;
    const kf = this.fileKeyframes.get(w.tick);
    if (kf && !this.desync && this.lineageConfirmed) this.confirmKeyframe(w.tick, kf);
    else if (kf && this.desync) {
      if (this.desync.comparedAtTick === null) {
        this.desync.differences = diffSnapshots(kf, saveSnapshot(w));
        this.desync.comparedAtTick = w.tick;
      }
      if (this.resync && !this.trusted) {
        restoreSnapshot(w, kf);
        this.lineageConfirmed = false;
        this.trusted = true;
        this.resyncs++;
      }
    }
    if (this.trusted && w.tick % this.cacheEvery === 0 && !this.fileKeyframes.has(w.tick)) {
      this.cache.set(w.tick, saveSnapshot(w));
      this.cacheLineage.set(w.tick, this.lineageConfirmed);
    }
    this.onTick?.(this);
    return true;
  }

  /**
   * A recorded keyframe reached by trusted re-simulation must equal the simulated state bit for bit (a second
   * line behind the load check of src/replay/keyframe-check.ts, which compares its 64-bit state hash with the
   * recorded checksum). One that does not is reported and never restored.
   */
  private confirmKeyframe(tick: number, kf: WorldSnapshot): void {
    if (this.confirmed.has(tick)) return;
    const differences = diffSnapshots(kf, saveSnapshot(this.world));
    if (differences.length === 0) {
      this.confirmed.add(tick);
      return;
    }
    this.keyframeMismatches.push({ tick, differences });
    this.fileKeyframes.delete(tick);
  }

  /**
   * Whether a seek may restore the keyframe at `tick`. Havok's internal state (contact manifolds, solver warm
   * starts, islands, sleep timers) is not in a keyframe, and writing a prop's pose back into a Havok world
   * with another history changes the last bits (measured: tests/replay/props-seek.test.ts). Exact restores
   * are those of keyframes taken before any car touched a prop (`header.propsTouchedTick`): the props world
   * is then rebuilt fresh and stepped on its own to the keyframe tick, exactly as it evolved in the run.
   * Worlds without props: every keyframe.
   */
  seekableKeyframe(tick: number): boolean {
    return (this.fileKeyframes.has(tick) || this.cache.has(tick)) && tick < this.pristineBefore;
  }

  /** Nearest keyframe tick at or before `tick` (recorded or cached) that a seek may restore, or -1. */
  keyframeBefore(tick: number): number {
    let best = -1;
    for (const t of this.fileKeyframes.keys()) if (t <= tick && t > best && this.seekableKeyframe(t)) best = t;
    for (const t of this.cache.keys()) if (t <= tick && t > best && this.seekableKeyframe(t)) best = t;
    return best;
  }

  /** Moves the world to `tick` (clamped to the replay): nearest keyframe, then re-simulation. */
  seek(tick: number): void {
    const target = Math.max(0, Math.min(this.totalTicks, Math.floor(tick)));
    const w = this.world;
    const kt = this.keyframeBefore(target);
    const canRoll = w.tick <= target && this.trusted && w.tick >= kt;
    if (!canRoll) {
      if (kt < 0) throw new Error(`replay: no keyframe at or before tick ${target}`);
      this.restoreConfigs(kt);
      const file = this.fileKeyframes.get(kt);
      restoreSnapshot(w, file ?? this.cache.get(kt)!);
      this.lineageConfirmed = file ? this.confirmed.has(kt) : (this.cacheLineage.get(kt) ?? true);
      if (collisionRuntime(w).props instanceof HavokProps) this.freshProps(kt);
      this.trusted = true;
    }
    const saved = this.onTick;
    this.onTick = undefined;
    try {
      while (w.tick < target) this.step();
    } finally {
      this.onTick = saved;
    }
  }

  /**
   * Replaces the world's Havok props world by a fresh one (built like the run's, by buildRunWorld) stepped
   * alone for `kt` ticks: no car touched a prop before kt (seekableKeyframe), so pass 9 did nothing else to
   * it. Checked: the props then equal the restored keyframe bit for bit, else the seek starts at tick 0.
   */
  private freshProps(kt: number): void {
    const w = this.world;
    const fresh = buildRunWorld(this.data.header, this.stage, this.carAdapter);
    const props = collisionRuntime(fresh.world).props as HavokProps;
    for (let i = 0; i < kt; i++) {
      props.step(fresh.world);
      fresh.world.events.length = 0;
    }
    const P = w.c.Prop;
    const F = fresh.world.c.Prop;
    const same = props.eids.every((e) => (['px', 'py', 'pz', 'qw', 'qx', 'qy', 'qz', 'vx', 'vy', 'vz', 'wx', 'wy', 'wz'] as const).every((f) => Object.is(P[f][e], F[f][e])));
    if (!same && kt > 0) {
      releaseCollisionWorld(fresh.world);
      this.restoreConfigs(0);
      restoreSnapshot(w, this.cache.get(0) ?? this.fileKeyframes.get(0)!);
      this.lineageConfirmed = true;
      this.freshProps(0);
      return;
    }
    // Each props world has its own pristine Havok instance (havok-instance.ts), so freeing the replaced one
    // cannot change how later worlds step (tests/replay/props-seek.test.ts seeks many times, each equal to
    // linear playback): the replaced props world goes (its instance back to the pool, reset), and the helper
    // world's query world too (the shared instance; its answers do not depend on the heap)
    const rt = collisionRuntime(w);
    rt.props?.dispose?.();
    rt.props = props;
    collisionRuntime(fresh.world).props = null;
    releaseCollisionWorld(fresh.world);
  }

  /**
   * Gives every car the configuration in force at keyframe tick `kt` (the header's, or the last swap made
   * before tick kt: a swap at tick t is applied after the keyframe of tick t was taken).
   */
  private restoreConfigs(kt: number): void {
    if (this.configEdits.length === 0) return;
    const src: CarFilesSource[] = this.data.header.cars.map((c) => c);
    for (const e of this.configEdits) if (e.tick < kt) src[e.car] = e;
    src.forEach((s, i) => this.carAdapter.setConfig!(this.world, this.cars[i]!, s, 'restore'));
  }

  /** Plays to the end (verification). */
  runToEnd(): void {
    while (this.step());
  }

  /** The playback is over (viewer closed, ghost gone, verification done): the world's Havok worlds are freed too. */
  dispose(): void {
    const res = controlsResources(this.world);
    for (const eid of this.cars) res.sources.delete(eid);
    releaseCollisionWorld(this.world); // its props instance back to the pool (havok-instance.ts)
  }
}
