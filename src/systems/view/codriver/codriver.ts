/**
 * The co-driver (view side, reads sim state only): every frame it takes the viewed car's position and speed
 * from the world, finds its progress along the road, lets the planner decide whether a call starts, hands the
 * call to the voice and keeps the pace-note strip on the notes ahead. It reads whichever world and car it is
 * given, so the live run, the replay viewer and runs against ghosts get the same calls.
 */
import type { SimWorld } from '../../../ecs/world';
import type { Stage } from '../../../../terrain/stage';
import type { RoadProjection } from '../../../../terrain/road';
import type { PaceNote } from '../../../../terrain/pacenotes/types';
import { noteWords } from '../../../../terrain/pacenotes/words';
import { codriverNotes, slowZones } from './notes';
import { buildCalls, type Call } from './calls';
import { CallPlanner, CALL_LEAD_S, type CallTiming } from './planner';
import { clipSeconds } from './sprite';
import { PaceNoteStrip } from './strip';
import type { CodriverVoice, VoiceMode } from './voice';
import type { Scene } from '@babylonjs/core/scene';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import { buildCornerBoards } from './boards';
import { wantsBoard } from './board-spots';

export interface CodriverSettings {
  codriver: boolean;
  codriverVolume: number;
  codriverTiming: CallTiming;
  codriverVoice: VoiceMode;
  /** Chevron boards at the slow corners (read when the stage is built). */
  cornerBoards: boolean;
}

/** A call as the test hook reports it: its notes, its words, and the world time it was started at. */
export interface SaidCall {
  first: number;
  end: number;
  words: string[];
  atS: number;
}

/** Index of the first note the car has not left behind (its end is ahead: a corner being driven still shows). */
export function firstNoteAhead(notes: readonly PaceNote[], progressM: number): number {
  const i = notes.findIndex((n) => n.endM > progressM);
  return i < 0 ? notes.length : i;
}

export class CodriverView {
  private readonly notes: readonly PaceNote[];
  private readonly calls: Call[];
  private planner: CallPlanner;
  private readonly strip: PaceNoteStrip;
  private readonly boards: Mesh[];
  private readonly proj: RoadProjection = { distanceM: 0, lateralM: 0, index: 0 };
  private lastTimeS = -Infinity;
  private progressM = 0;
  private enabled = true;
  /** Calls started so far (test hook). */
  readonly said: SaidCall[] = [];

  constructor(
    scene: Scene,
    private readonly stage: Stage,
    hudParent: HTMLElement,
    private readonly voice: CodriverVoice,
    settings: CodriverSettings,
  ) {
    this.notes = codriverNotes(stage);
    this.calls = buildCalls(this.notes, noteWords, clipSeconds);
    this.planner = this.newPlanner(CALL_LEAD_S.normal);
    this.strip = new PaceNoteStrip(hudParent, this.notes);
    this.boards = settings.cornerBoards ? buildCornerBoards(scene, stage, this.notes) : [];
    this.applySettings(settings);
    installCodriverHook(this);
  }

  applySettings(s: CodriverSettings): void {
    this.enabled = s.codriver;
    this.planner.leadS = CALL_LEAD_S[s.codriverTiming];
    this.voice.mode = s.codriverVoice;
    this.voice.setVolume(s.codriverVolume);
    if (!this.enabled) this.voice.stop();
  }

  /** One frame: car `eid` of `world` is the one being read to; `dtS` real seconds since the last frame. */
  update(world: SimWorld, eid: number, dtS: number): void {
    const b = world.c.RigidBody;
    // a replay seek back in time: start over (calls of a drive are said once, a re-watched drive again)
    if (world.time < this.lastTimeS) this.restart();
    this.lastTimeS = world.time;
    const progress = this.stage.road.project(b.px[eid]!, b.pz[eid]!, this.proj).distanceM;
    this.progressM = progress;
    const speed = Math.hypot(b.vx[eid]!, b.vy[eid]!, b.vz[eid]!);
    const call = this.planner.update(world.time, progress, speed);
    if (call) {
      this.said.push({ first: call.first, end: call.end, words: call.words.flat(), atS: world.time });
      if (this.enabled) this.voice.say(call.words);
    }
    this.voice.update(dtS);
    this.strip.show(firstNoteAhead(this.notes, progress));
  }

  private newPlanner(leadS: number): CallPlanner {
    return new CallPlanner(this.calls, leadS, { startM: this.stage.start.distanceM, clipS: clipSeconds }, slowZones(this.stage, this.notes));
  }

  private restart(): void {
    this.planner = this.newPlanner(this.planner.leadS);
    this.voice.stop();
  }

  /** What the co-driver has done so far (the e2e hook). */
  report(): { notes: number; said: SaidCall[]; played: string[]; strip: string[]; progressM: number; boardsAtM: number[] } {
    const strip = [...this.strip.el.querySelectorAll<HTMLElement>('.pn-card')].map((c) => c.dataset.note ?? '');
    const boardsAtM = this.boards.length > 0 ? this.notes.filter(wantsBoard).map((n) => n.atM) : [];
    return { notes: this.notes.length, said: this.said, played: [...this.voice.played], strip, progressM: this.progressM, boardsAtM };
  }

  dispose(): void {
    this.voice.stop();
    this.strip.dispose();
    for (const m of this.boards) m.dispose(false, true);
  }
}

/** `window.__bitrally.codriver()`: the live co-driver's report, for the browser tests. */
function installCodriverHook(view: CodriverView): void {
  const hook = (window as unknown as { __bitrally?: Record<string, unknown> }).__bitrally;
  if (hook) hook.codriver = () => view.report();
}
