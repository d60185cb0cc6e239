/**
 * Renders the co-driver's clips (src/cli/voice.ts): one eSpeak NG utterance per vocabulary token, silence
 * trimmed, laid end to end with a fixed silent guard between clips (so a sprite never bleeds into its
 * neighbour), encoded once to Ogg Vorbis with ffmpeg. Returns the sprite map: token → [start ms, length ms].
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from './errors';

/** eSpeak NG writes 16-bit mono PCM at this rate. */
export const ESPEAK_RATE_HZ = 22050;
/** A sample counts as speech above this fraction of full scale (eSpeak's silence is exact zeros plus dither). */
const SILENCE_LEVEL = 0.01;
/** Speech kept either side of the first/last loud sample, s (consonant onsets and releases are quiet). */
const TRIM_PAD_S = 0.015;
/** Silence between clips in the sprite file, s (Vorbis blocks smear ~10 ms; a clip must not hear its neighbour). */
const GUARD_S = 0.08;

export interface VoiceOptions {
  /** eSpeak NG voice name (`espeak-ng --voices=en`). */
  voice: string;
  /** Words per minute. */
  wpm: number;
  /** Pitch 0–99. */
  pitch: number;
  /** Vorbis quality (-1 … 10; 1 ≈ 45 kb/s mono). */
  quality: number;
}

export type SpriteMap = Record<string, [number, number]>;

/** What eSpeak should say for a token: co-drivers read 150 as "one fifty" and 1200 as "twelve hundred". */
export function spokenText(token: string): string {
  const n = /^\d+$/.test(token) ? Number(token) : NaN;
  if (Number.isNaN(n)) return token;
  if (n > 1000 && n % 1000 !== 0) return `${n / 100} hundred`;
  if (n >= 100 && n % 100 !== 0) return `${Math.floor(n / 100)} ${n % 100}`;
  return String(n);
}

function need(tool: string, versionFlag: string): void {
  try {
    execFileSync(tool, [versionFlag], { stdio: 'ignore' });
  } catch {
    throw new UserError(`${tool} not found: install it (Debian: apt-get install -y espeak-ng ffmpeg)`);
  }
}

/** 16-bit mono PCM of a WAV file as floats (eSpeak writes a plain 44-byte header; the data chunk is searched). */
function readWavPcm(bytes: Buffer): Float32Array {
  let at = 12;
  while (at + 8 <= bytes.length && bytes.toString('ascii', at, at + 4) !== 'data') at += 8 + bytes.readUInt32LE(at + 4);
  const start = at + 8;
  const end = Math.min(bytes.length, start + bytes.readUInt32LE(at + 4));
  const pcm = new Float32Array(Math.floor((end - start) / 2));
  for (let i = 0; i < pcm.length; i++) pcm[i] = bytes.readInt16LE(start + 2 * i) / 32768;
  return pcm;
}

/** The clip without its leading and trailing silence (a few ms of pad kept). */
export function trimSilence(pcm: Float32Array, rateHz: number): Float32Array {
  let a = 0;
  let b = pcm.length - 1;
  while (a < b && Math.abs(pcm[a]!) < SILENCE_LEVEL) a++;
  while (b > a && Math.abs(pcm[b]!) < SILENCE_LEVEL) b--;
  const pad = Math.round(TRIM_PAD_S * rateHz);
  return pcm.slice(Math.max(0, a - pad), Math.min(pcm.length, b + 1 + pad));
}

function wavBytes(pcm: Float32Array, rateHz: number): Buffer {
  const out = Buffer.alloc(44 + pcm.length * 2);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + pcm.length * 2, 4);
  out.write('WAVEfmt ', 8, 'ascii');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(1, 22);
  out.writeUInt32LE(rateHz, 24);
  out.writeUInt32LE(rateHz * 2, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(pcm.length * 2, 40);
  for (let i = 0; i < pcm.length; i++) out.writeInt16LE(Math.round(Math.max(-1, Math.min(1, pcm[i]!)) * 32767), 44 + 2 * i);
  return out;
}

/** Speaks every token, writes `oggPath`, returns the sprite map (ms, rounded outward to whole ms). */
export function renderVoice(tokens: readonly string[], oggPath: string, o: VoiceOptions): SpriteMap {
  need('espeak-ng', '--version');
  need('ffmpeg', '-version');
  const dir = mkdtempSync(join(tmpdir(), 'bitrally-voice-'));
  try {
    const guard = new Float32Array(Math.round(GUARD_S * ESPEAK_RATE_HZ));
    const parts: Float32Array[] = [guard];
    const sprite: SpriteMap = {};
    let at = guard.length;
    for (const token of tokens) {
      const wav = join(dir, 'clip.wav');
      execFileSync('espeak-ng', ['-v', o.voice, '-s', String(o.wpm), '-p', String(o.pitch), '-w', wav, spokenText(token)]);
      const clip = trimSilence(readWavPcm(readFileSync(wav)), ESPEAK_RATE_HZ);
      const startMs = Math.floor((at / ESPEAK_RATE_HZ) * 1000);
      sprite[token] = [startMs, Math.ceil(((at + clip.length) / ESPEAK_RATE_HZ) * 1000) - startMs];
      parts.push(clip, guard);
      at += clip.length + guard.length;
    }
    const all = new Float32Array(at);
    let k = 0;
    for (const p of parts) {
      all.set(p, k);
      k += p.length;
    }
    const allWav = join(dir, 'all.wav');
    writeFileSync(allWav, wavBytes(all, ESPEAK_RATE_HZ));
    // -bitexact / no metadata: the same clips give the same file
    execFileSync('ffmpeg', ['-y', '-loglevel', 'error', '-i', allWav, '-c:a', 'libvorbis', '-q:a', String(o.quality), '-ac', '1', '-map_metadata', '-1', '-fflags', '+bitexact', '-flags:a', '+bitexact', oggPath]);
    return sprite;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
