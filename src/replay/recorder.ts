/**
 * Records a run: after each tick (`afterTick`, called by its run's `stepRun`, src/run/step.ts) it reads, per
 * car, exactly the quantised input the controls pass consumed (`controlsResources(world).consumed`, whatever
 * its source: device, AI, script, another replay), and takes a state checksum every N ticks and a full
 * keyframe every K seconds. Edits made to the world between ticks (recovery) are recorded with `edit()`.
 * `finish()` returns the `.bitrally` bytes.
 */
import { controlsResources, neutralInput } from '../ecs/controls';
import { stateHash } from '../ecs/hash';
import { saveSnapshot } from '../ecs/snapshot';
import { encodeSnapshot } from './snapshot-codec';
import type { SimWorld } from '../ecs/world';
import { encodeReplay, REPLAY_FORMAT, type CarFilesSource, type Checksum, type ReplayCar, type ReplayEdit, type ReplayHeader, type ReplayPose, type StageFilesData } from './format';
import { InputStreamEncoder } from './inputs';
import { collisionRuntime } from '../systems/sim/collision/runtime';
import { HavokProps } from '../systems/sim/collision/props';
import { anyContact } from '../systems/sim/collision/contact-memory';
import { SIM_VERSION } from './version';

export const DEFAULT_CHECKSUM_EVERY_TICKS = 500;
const NEUTRAL = neutralInput();
/**
 * Keyframe spacing: a seek re-simulates at most this long (docs/replays.md "Keyframe spacing"). 5 s = 2 500
 * ticks at 500 Hz: ≤ 100 ms while a playback tick costs ≤ 40 µs (measured 5–15 µs for one car, flat or stage).
 * Each keyframe is ≈ 340 B deflated (its low mantissa bytes are incompressible), ≈ 4 KB/min at 5 s: halving
 * the spacing would double that and break the 10 KB/min file goal.
 */
export const DEFAULT_KEYFRAME_EVERY_S = 5;

export interface RecorderOptions {
  name?: string;
  /** ISO date (display only); the caller supplies it so the sim stays clock-free. */
  createdAt?: string;
  checksumEveryTicks?: number;
  keyframeEverySeconds?: number;
  /** Stage reference (id + content hash); null = flat ground. */
  stage: { id: string; hash: string } | null;
  /** Embed the stage files (user stages that the receiver may not have). */
  stageFiles?: StageFilesData | null;
  groundHeightM?: number;
  /** The run's cars, in the order they were spawned by buildRunWorld, with their entities. */
  cars: { car: ReplayCar; eid: number }[];
  /** The checksum of the run's state (default the world's `stateHash`; a town run adds its traffic). */
  stateHash?: (world: SimWorld) => string;
  /** A town run: its seed, traffic and instructor actions (`town` of the header, src/replay/town-replay.ts). */
  town?: () => ReplayHeader['town'];
}

declare module '../ecs/world-types' {
  interface WorldRuntime {
    recorder?: ReplayRecorder;
  }
}

/** The recorder recording `world` (attached and not stopped), if any. */
export function recorderOf(world: SimWorld): ReplayRecorder | undefined {
  const r = world.runtime.recorder;
  return r && !r.stopped ? r : undefined;
}

export class ReplayRecorder {
  readonly startTick: number;
  private readonly enc: InputStreamEncoder;
  private readonly carIndex = new Map<number, number>();
  private readonly checksums: Checksum[] = [];
  private readonly keyframes: { tick: number; snapshot: Uint8Array }[] = [];
  private readonly edits: ReplayEdit[] = [];
  private readonly marks: ReplayHeader['marks'] = [];
  private readonly checksumEvery: number;
  private readonly keyframeEvery: number;
  private result: ReplayHeader['result'] = null;
  private propsTouchedTick: number | null = null;
  private ticks = 0;
  private readonly hash: (world: SimWorld) => string;
  /** Set when a car stopped consuming input (recorded as neutral filler). */
  problem: string | null = null;
  stopped = false;

  constructor(
    readonly world: SimWorld,
    readonly opts: RecorderOptions,
  ) {
    if (world.tick !== 0) throw new Error(`replay recorder: attach before the first tick (world.tick is ${world.tick})`);
    this.startTick = world.tick;
    this.enc = new InputStreamEncoder(opts.cars.length);
    opts.cars.forEach((c, i) => this.carIndex.set(c.eid, i));
    this.checksumEvery = opts.checksumEveryTicks ?? DEFAULT_CHECKSUM_EVERY_TICKS;
    this.keyframeEvery = Math.max(1, Math.round((opts.keyframeEverySeconds ?? DEFAULT_KEYFRAME_EVERY_S) / world.dt));
    world.runtime.recorder = this;
    this.hash = opts.stateHash ?? stateHash;
    // no keyframe at tick 0: a player saves its freshly built world (format 2)
    this.checksums.push({ tick: 0, hash: this.hash(world) });
  }

  /** After each tick (src/run/step.ts `stepRun` calls it: world.tick = ticks completed). */
  afterTick(world: SimWorld): void {
    if (this.stopped) return;
    const consumed = controlsResources(world).consumed;
    for (let i = 0; i < this.opts.cars.length; i++) {
      const input = consumed.get(this.opts.cars[i]!.eid);
      if (input) this.enc.push(i, input);
      else {
        // The car consumed nothing (no Controls any more): a filler keeps the streams aligned; playback
        // does not consume it either.
        this.problem ??= `car ${i} (eid ${this.opts.cars[i]!.eid}) consumed no input from tick ${world.tick - 1}`;
        this.enc.push(i, NEUTRAL);
      }
    }
    const done = world.tick;
    this.ticks = done;
    if (this.propsTouchedTick === null) {
      if (collisionRuntime(world).props instanceof HavokProps && anyContact(world, 'propContact')) this.propsTouchedTick = done;
    }
    // every keyframe tick has a checksum too: a keyframe is checked against it when a replay loads
    if (done % this.checksumEvery === 0 || done % this.keyframeEvery === 0) this.checksums.push({ tick: done, hash: this.hash(world) });
    if (done % this.keyframeEvery === 0) this.keyframes.push({ tick: done, snapshot: encodeSnapshot(saveSnapshot(world)) });
  }

  /** Records a world edit made between ticks (call it right when the edit is made). */
  edit(car: number, pose: ReplayPose): void {
    if (this.stopped) return;
    this.edits.push({ tick: this.world.tick, kind: 'place', car, pose: { ...pose } });
  }

  /**
   * Records a mid-run swap of the configuration of car entity `eid` (call it right after the game swapped it,
   * between ticks): the full text of the new car file and of every file it extends.
   */
  configEdit(eid: number, source: CarFilesSource): void {
    if (this.stopped) return;
    const car = this.carIndex.get(eid);
    if (car === undefined) throw new Error(`replay recorder: entity ${eid} is not a recorded car`);
    this.edits.push({ tick: this.world.tick, kind: 'config', car, main: source.main, files: { ...source.files } });
  }

  /** A timeline mark at the current tick (split, collision, …). */
  mark(kind: string, label: string): void {
    if (!this.stopped) this.marks.push({ tick: this.world.tick, kind, label });
  }

  setResult(r: NonNullable<ReplayHeader['result']>): void {
    this.result = { ...r, splitsS: [...r.splitsS] };
  }

  get tickCount(): number {
    return this.ticks;
  }

  detach(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.world.runtime.recorder === this) this.world.runtime.recorder = undefined;
  }

  header(): ReplayHeader {
    const w = this.world;
    const o = this.opts;
    return {
      format: REPLAY_FORMAT,
      simVersion: SIM_VERSION,
      name: o.name ?? 'run',
      createdAt: o.createdAt ?? '',
      dt: w.dt,
      integrator: w.integrator,
      seed: w.seed,
      gravity_m_s2: -w.gravity.y,
      ticks: this.ticks,
      checksumEveryTicks: this.checksumEvery,
      keyframeEveryTicks: this.keyframeEvery,
      stage: o.stage ? { ...o.stage, embedded: !!o.stageFiles } : null,
      ground: o.stage ? null : { kind: 'flat', height_m: o.groundHeightM ?? 0 },
      cars: o.cars.map((c) => c.car),
      result: this.result,
      props: collisionRuntime(w).props !== null,
      propsTouchedTick: this.propsTouchedTick,
      marks: [...this.marks],
      ...(o.town ? { town: o.town() } : {}),
    };
  }

  /**
   * The replay file. The world must stand between ticks (world.tick === recorded ticks). Recording can
   * continue afterwards unless `stop` is set.
   */
  finish(stop = true): Uint8Array {
    const w = this.world;
    if (!this.stopped && w.tick !== this.ticks) throw new Error(`replay recorder: finish between ticks (world.tick ${w.tick}, recorded ${this.ticks})`);
    const checksums = [...this.checksums];
    if (checksums[checksums.length - 1]!.tick !== this.ticks && !this.stopped) checksums.push({ tick: this.ticks, hash: this.hash(w) });
    const bytes = encodeReplay({
      header: this.header(),
      inputsBytes: this.enc.encode(this.ticks),
      edits: this.edits.filter((e) => e.tick <= this.ticks),
      checksums: checksums.filter((c) => c.tick <= this.ticks),
      keyframes: this.keyframes.filter((k) => k.tick <= this.ticks),
      stageFiles: this.opts.stageFiles ?? null,
    });
    if (stop) this.detach();
    return bytes;
  }
}
