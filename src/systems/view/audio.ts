/**
 * Game audio with Howler. All buffers come from src/content/audio/synth.ts (generated at startup, encoded
 * as WAV blob URLs). Audio is created on the first user gesture (browsers block autoplay).
 * Engine: ENGINE_LOOPS replayed at rate rpm/rpm_ref, crossfaded by `engineWeights`, louder under load.
 */
import { Howl, Howler } from 'howler';
import {
  ENGINE_LOOPS,
  beepSound,
  encodeWav,
  engineLoop,
  engineWeights,
  impactSound,
  rollingLoop,
  shiftSound,
  squealLoop,
  windLoop,
} from '../../content/audio/synth';
import { CodriverVoice } from './codriver/voice';

export interface AudioFrame {
  rpm: number;
  /** Throttle 0..1 (load). */
  throttle: number;
  speedMS: number;
  /** Largest tyre slip measure 0..1+ (combined slip ratio / angle). */
  slip: number;
  /** Ground type under most wheels: 'tarmac' | 'gravel' | 'snow' | 'ice' | 'grass'. */
  surface: string;
  /** Fraction of wheels touching the ground. */
  contact: number;
}

export interface Volumes {
  master: number;
  engine: number;
  effects: number;
}

function wavUrl(pcm: Float32Array): string {
  const bytes = encodeWav(pcm);
  return URL.createObjectURL(new Blob([bytes.buffer as ArrayBuffer], { type: 'audio/wav' }));
}

export class GameAudio {
  private engine: Howl[] = [];
  private engineIds: number[] = [];
  private squeal!: Howl;
  private squealId = 0;
  private rolling = new Map<string, { howl: Howl; id: number }>();
  private wind!: Howl;
  private windId = 0;
  private impact!: Howl;
  private shift!: Howl;
  private beepLow!: Howl;
  private beepHigh!: Howl;
  started = false;
  private vol: Volumes = { master: 0.8, engine: 0.8, effects: 0.8 };
  private lastImpactT = -1;
  /** The co-driver's voice (clip sprite), loaded with the other sounds. */
  readonly codriver = new CodriverVoice();

  /** Build all sounds; call from a user gesture handler. */
  start(): void {
    if (this.started) return;
    this.started = true;
    const loop = (pcm: Float32Array): Howl => new Howl({ src: [wavUrl(pcm)], format: ['wav'], loop: true, volume: 0, html5: false });
    const once = (pcm: Float32Array): Howl => new Howl({ src: [wavUrl(pcm)], format: ['wav'], volume: 1 });
    this.engine = ENGINE_LOOPS.map((s) => loop(engineLoop(s)));
    this.squeal = loop(squealLoop());
    for (const k of ['gravel', 'snow', 'tarmac'] as const) this.rolling.set(k, { howl: loop(rollingLoop(k)), id: 0 });
    this.wind = loop(windLoop());
    this.impact = once(impactSound());
    this.shift = once(shiftSound());
    this.beepLow = once(beepSound(660));
    this.beepHigh = once(beepSound(1320));
    this.codriver.start();
    Howler.volume(this.vol.master);
    // started outside a DOM gesture handler (first gamepad button): make sure the context runs
    void Howler.ctx?.resume?.().catch(() => undefined);
  }

  setVolumes(v: Volumes): void {
    this.vol = { ...v };
    if (this.started) Howler.volume(v.master);
  }

  /** Start the loops (entering a stage). */
  playLoops(): void {
    if (!this.started) return;
    if (this.engineIds.length === 0) {
      this.engineIds = this.engine.map((h) => h.play());
      this.squealId = this.squeal.play();
      for (const r of this.rolling.values()) r.id = r.howl.play();
      this.windId = this.wind.play();
    }
  }

  stopLoops(): void {
    if (!this.started) return;
    this.engine.forEach((h) => h.stop());
    this.squeal.stop();
    for (const r of this.rolling.values()) r.howl.stop();
    this.wind.stop();
    this.engineIds = [];
  }

  /** Mute everything but keep positions (pause menu). */
  setPaused(p: boolean): void {
    if (this.started) Howler.mute(p);
  }

  update(f: AudioFrame): void {
    if (!this.started || this.engineIds.length === 0) return;
    const w = engineWeights(f.rpm);
    const load = 0.55 + 0.45 * Math.max(0, Math.min(1, f.throttle));
    this.engine.forEach((h, i) => {
      const id = this.engineIds[i]!;
      h.rate(Math.max(0.5, Math.min(4, f.rpm / ENGINE_LOOPS[i]!.rpm)), id);
      h.volume(w[i]! * load * this.vol.engine * 0.7, id);
    });
    const fx = this.vol.effects;
    const squeal = f.surface === 'tarmac' ? Math.max(0, Math.min(1, (f.slip - 0.12) * 3)) * Math.min(1, f.speedMS / 4) : 0;
    this.squeal.volume(squeal * 0.6 * fx * f.contact, this.squealId);
    for (const [k, r] of this.rolling) {
      const active = k === f.surface || (k === 'gravel' && f.surface === 'grass') || (k === 'snow' && f.surface === 'ice');
      const v = active ? Math.min(1, f.speedMS / 20) * f.contact : 0;
      r.howl.volume(v * 0.5 * fx, r.id);
      r.howl.rate(0.8 + Math.min(0.6, f.speedMS / 60), r.id);
    }
    this.wind.volume(Math.min(1, (f.speedMS / 45) ** 2) * 0.45 * fx, this.windId);
  }

  /** Impact one-shot; volume ∝ impulse (N·s), saturating. */
  impactSound(impulseNs: number, t: number): void {
    if (!this.started || t - this.lastImpactT < 0.12) return;
    this.lastImpactT = t;
    const id = this.impact.play();
    this.impact.volume(Math.min(1, impulseNs / 4000) * this.vol.effects, id);
    this.impact.rate(0.8 + Math.min(0.4, 2000 / Math.max(500, impulseNs)), id);
  }

  shiftSound(): void {
    if (!this.started) return;
    const id = this.shift.play();
    this.shift.volume(0.5 * this.vol.effects, id);
  }

  beep(go: boolean): void {
    if (!this.started) return;
    const h = go ? this.beepHigh : this.beepLow;
    const id = h.play();
    h.volume(0.5 * this.vol.effects, id);
  }
}
