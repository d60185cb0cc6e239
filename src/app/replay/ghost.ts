/**
 * The ghost: a replay re-simulated in its own world (so it cannot collide with anything of the live run),
 * drawn as a translucent car, with the live time delta measured by distance along the road.
 *
 * The ghost world runs in lockstep with the live world (same tick = same stage clock: both start with the
 * same countdown), a little ahead (`LEAD_S`) so the delta is known even when the live car is ahead of the
 * ghost. Poses are kept per tick in a ring buffer and drawn at the live tick with the live interpolation
 * factor. The ghost's (progress, stage time) curve is recorded as it runs; the delta at the live car's
 * progress d is Δ = t_live − t_ghost(d), with t_ghost(d) linearly interpolated between the two samples
 * that bracket d (progress is monotone: StageRun only lets it grow). Negative Δ = the live car is faster.
 */
import type { Scene } from '@babylonjs/core/scene';
import { decodeReplay } from '../../replay/format';
import { ReplayPlayer } from '../../replay/player';
import { buildRunWorld } from '../../run/run-world';
import { resolveStage, type StageSource } from '../../replay/stage-check';
import { type CarAdapter } from '../../run/cars';
import { StageProgressView } from '../../run/stage-progress-view';
import { CarView, type CarShape } from '../../systems/view/car-view';

const RING = 8192;
export const GHOST_LEAD_S = 2;
const NO_WHEELS = [0, 1, 2, 3].map(() => ({ steer: 0, spin: 0, travel: 0 }));

export class GhostRun {
  private readonly poses = new Float64Array(RING * 7);
  private prog = new Float64Array(4096);
  private times = new Float64Array(4096);
  private nSamples = 0;
  private lastProgress = -Infinity;
  view: CarView | null = null;
  /** Last delta shown (s), null when unknown. */
  delta: number | null = null;

  private constructor(
    readonly player: ReplayPlayer,
    readonly timing: StageProgressView,
    readonly stageId: string,
    readonly name: string,
    readonly carEid: number,
  ) {
    this.storePose();
    player.onTick = () => {
      timing.sync();
      const r = timing;
      if (r.phase === 'running' || r.phase === 'finished') this.sample(r.progressM, r.finishTimeS ?? r.timeS);
      this.storePose();
    };
  }

  /** Decodes and prepares a ghost (the stage is checked by content hash); throws ReplayFormatError on a bad file. */
  static async create(bytes: Uint8Array, file: string, stages: StageSource, cars: CarAdapter): Promise<GhostRun> {
    const data = decodeReplay(bytes, file);
    const stage = await resolveStage(data.header, data.stageFiles, stages, file);
    if (!stage) throw new Error(`${file}: a ghost needs a stage replay (this one is on flat ground)`);
    const run = buildRunWorld(data.header, stage, cars);
    const player = new ReplayPlayer(data, run, cars, { cacheEveryTicks: 1 << 30 });
    const pc = Math.max(0, data.header.cars.findIndex((c) => c.role === 'player'));
    // the StageProgress pass times the ghost car; the player adds each recovery's penalty with its edit
    const timing = new StageProgressView(run.world, run.cars[pc]!);
    return new GhostRun(player, timing, stage.id, data.header.name, run.cars[pc]!);
  }

  private storePose(): void {
    const w = this.player.world;
    const b = w.c.RigidBody;
    const e = this.carEid;
    const o = (w.tick % RING) * 7;
    const p = this.poses;
    p[o] = b.px[e]!;
    p[o + 1] = b.py[e]!;
    p[o + 2] = b.pz[e]!;
    p[o + 3] = b.qw[e]!;
    p[o + 4] = b.qx[e]!;
    p[o + 5] = b.qy[e]!;
    p[o + 6] = b.qz[e]!;
  }

  private sample(progressM: number, timeS: number): void {
    if (progressM <= this.lastProgress) return;
    this.lastProgress = progressM;
    if (this.nSamples === this.prog.length) {
      const np = new Float64Array(this.prog.length * 2);
      np.set(this.prog);
      this.prog = np;
      const nt = new Float64Array(this.times.length * 2);
      nt.set(this.times);
      this.times = nt;
    }
    this.prog[this.nSamples] = progressM;
    this.times[this.nSamples] = timeS;
    this.nSamples++;
  }

  /** Stage time (s) at which the ghost first reached `progressM` (absolute road distance), or null if not yet simulated. */
  timeAt(progressM: number): number | null {
    const n = this.nSamples;
    if (n === 0 || progressM > this.prog[n - 1]!) return null;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.prog[mid]! >= progressM) hi = mid;
      else lo = mid + 1;
    }
    if (lo === 0) return this.times[0]!;
    const d0 = this.prog[lo - 1]!, d1 = this.prog[lo]!;
    const f = d1 > d0 ? (progressM - d0) / (d1 - d0) : 1;
    return this.times[lo - 1]! + f * (this.times[lo]! - this.times[lo - 1]!);
  }

  /** Runs the ghost up to `liveTick + lead` (at most `maxTicks` now). Returns ticks simulated. */
  advance(liveTick: number, maxTicks: number, leadTicks = Math.round(GHOST_LEAD_S / this.player.world.dt)): number {
    const target = Math.min(this.player.totalTicks, liveTick + leadTicks);
    let n = 0;
    while (this.player.world.tick < target && n < maxTicks && this.player.step()) n++;
    return n;
  }

  /** The ghost car's pose [x, y, z, qw, qx, qy, qz] after `tick` ticks, if still in the ring buffer. */
  poseAt(tick: number, out: Float64Array = new Float64Array(7)): Float64Array | null {
    if (!this.has(tick)) return null;
    out.set(this.poses.subarray((tick % RING) * 7, (tick % RING) * 7 + 7));
    return out;
  }

  /** The ghost world is at least at `tick` (its pose for that tick is known). */
  has(tick: number): boolean {
    const t = this.player.world.tick;
    return tick <= t && tick > t - RING + 1;
  }

  attachView(scene: Scene, shape: CarShape): void {
    // the car's own livery, translucent
    this.view = new CarView(scene, shape, null, { ghost: true });
  }

  /**
   * Draws the ghost where the live car is drawn: between ticks `tick − 1` and `tick` at `alpha` (the game
   * interpolates its car the same way), and returns the live delta at `liveProgressM` (null = not shown).
   */
  draw(tick: number, alpha: number, liveProgressM: number | null, liveTimeS: number): number | null {
    const v = this.view;
    if (v) {
      const t1 = Math.min(tick, this.player.world.tick);
      const t0 = Math.max(0, t1 - 1);
      const visible = this.has(t1) && this.has(t0);
      v.root.setEnabled(visible);
      if (visible) {
        const a = t1 === tick && t1 > t0 ? alpha : 1;
        const p = this.poses;
        const o0 = (t0 % RING) * 7;
        const o1 = (t1 % RING) * 7;
        const L = (k: number): number => p[o0 + k]! + (p[o1 + k]! - p[o0 + k]!) * a;
        const dot = p[o0 + 3]! * p[o1 + 3]! + p[o0 + 4]! * p[o1 + 4]! + p[o0 + 5]! * p[o1 + 5]! + p[o0 + 6]! * p[o1 + 6]!;
        const s = dot < 0 ? -1 : 1;
        let qw = p[o0 + 3]! * (1 - a) + s * p[o1 + 3]! * a;
        let qx = p[o0 + 4]! * (1 - a) + s * p[o1 + 4]! * a;
        let qy = p[o0 + 5]! * (1 - a) + s * p[o1 + 5]! * a;
        let qz = p[o0 + 6]! * (1 - a) + s * p[o1 + 6]! * a;
        const n = Math.hypot(qw, qx, qy, qz) || 1;
        qw /= n; qx /= n; qy /= n; qz /= n;
        v.update(L(0), L(1), L(2), { w: qw, x: qx, y: qy, z: qz }, NO_WHEELS, false);
      }
    }
    if (liveProgressM === null) return (this.delta = null);
    const tg = this.timeAt(liveProgressM);
    this.delta = tg === null ? null : liveTimeS - tg;
    return this.delta;
  }

  dispose(): void {
    this.view?.dispose();
    this.view = null;
    this.player.dispose();
  }
}
