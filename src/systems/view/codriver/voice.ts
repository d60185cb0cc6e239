/**
 * The co-driver's voice: a call's tokens played one after another from the clip sprite through Howler, with
 * the word and note gaps the planner timed (calls.ts), or read by the browser's speech synthesis ("system"
 * voice). Created on the first user gesture with the rest of the game audio. Keeps the ids it played, in
 * order (the e2e test hook reads them).
 */
import { Howl } from 'howler';
import voiceUrl from '../../../content/audio/codriver-voice.ogg?url';
import { NOTE_GAP_S, WORD_GAP_S } from './calls';
import { VOICE_SPRITES, clipSeconds } from './sprite';

export type VoiceMode = 'clips' | 'system';

/** Speech-synthesis rate for the system voice (co-drivers read fast). */
const SYSTEM_VOICE_RATE = 1.35;
/** Played ids kept for the test hook (a stage has a few hundred words). */
const PLAYED_CAP = 2000;

interface Queued {
  id: string;
  /** Seconds after the call started. */
  atS: number;
}

export class CodriverVoice {
  private howl: Howl | null = null;
  private queue: Queued[] = [];
  private clockS = 0;
  private volume = 0.9;
  mode: VoiceMode = 'clips';
  /** Sprite ids played so far, in order. */
  readonly played: string[] = [];

  /** Loads the clip sprite; call from a user gesture (with GameAudio.start). */
  start(): void {
    if (this.howl) return;
    this.howl = new Howl({ src: [voiceUrl], format: ['ogg'], sprite: VOICE_SPRITES.sprite, volume: this.volume });
  }

  setVolume(v: number): void {
    this.volume = v;
    this.howl?.volume(v);
  }

  /** Starts saying a call: one token list per note, spaced like the planner timed them. */
  say(words: readonly (readonly string[])[]): void {
    if (this.mode === 'system') return this.speak(words);
    let at = 0;
    let notes = 0;
    for (const w of words) {
      if (w.length === 0) continue;
      if (notes++ > 0) at += NOTE_GAP_S - WORD_GAP_S;
      for (const id of w) {
        this.queue.push({ id, atS: this.clockS + at });
        at += clipSeconds(id) + WORD_GAP_S;
      }
    }
    this.update(0);
  }

  /** Advances the voice's clock by `dtS` (real seconds) and plays the clips that are due. */
  update(dtS: number): void {
    this.clockS += dtS;
    while (this.queue.length > 0 && this.queue[0]!.atS <= this.clockS) {
      const { id } = this.queue.shift()!;
      // a token without a clip is skipped; nothing is logged until the sprite is loaded and playing
      if (!this.howl || !(id in VOICE_SPRITES.sprite)) continue;
      this.howl.play(id);
      this.log(id);
    }
  }

  /** Silences the voice and forgets what was queued (leaving a stage, pausing). */
  stop(): void {
    this.queue = [];
    this.howl?.stop();
    if (typeof speechSynthesis !== 'undefined') speechSynthesis.cancel();
  }

  private speak(words: readonly (readonly string[])[]): void {
    if (typeof speechSynthesis === 'undefined') return;
    const u = new SpeechSynthesisUtterance(words.map((w) => w.join(' ')).join(', '));
    u.rate = SYSTEM_VOICE_RATE;
    u.volume = this.volume;
    speechSynthesis.speak(u);
    for (const w of words) for (const id of w) this.log(id);
  }

  private log(id: string): void {
    if (this.played.length < PLAYED_CAP) this.played.push(id);
  }
}
