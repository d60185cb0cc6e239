/**
 * The committed co-driver clip set (src/content/audio/codriver-voice.*, written by `npm run voice`): a clip
 * for every token the notes can produce, clips that do not overlap, the size budget; and the renderer's pure
 * steps (what eSpeak is asked to say, the silence trim).
 */
import { describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import { VOCABULARY } from '../../terrain/pacenotes/words';
import { VOICE_SPRITES, clipSeconds } from '../../src/systems/view/codriver/sprite';
import { ESPEAK_RATE_HZ, spokenText, trimSilence } from '../../src/cli/voice-render';
import { VOICE_BUDGET_BYTES } from '../../src/cli/voice';

describe('voice sprite', () => {
  it('has one clip per vocabulary token, each 0.1–1.5 s long, none overlapping the next', () => {
    expect(Object.keys(VOICE_SPRITES.sprite).sort()).toEqual([...VOCABULARY].sort());
    const spans = Object.values(VOICE_SPRITES.sprite).sort((a, b) => a[0] - b[0]);
    for (const [, len] of spans) {
      expect(len).toBeGreaterThan(100);
      expect(len).toBeLessThan(1500);
    }
    for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![0] + spans[i - 1]![1]);
    expect(clipSeconds('left')).toBeCloseTo(VOICE_SPRITES.sprite.left![1] / 1000, 12);
    expect(clipSeconds('no such word')).toBe(0);
  });

  it(`fits the ${VOICE_BUDGET_BYTES / 1024} KB budget`, () => {
    expect(statSync(`src/content/audio/${VOICE_SPRITES.src}`).size).toBeLessThanOrEqual(VOICE_BUDGET_BYTES);
  });
});

describe('voice renderer', () => {
  it('reads distances like a co-driver and words as they are', () => {
    expect(spokenText('150')).toBe('1 50');
    expect(spokenText('1200')).toBe('12 hundred');
    expect(spokenText('200')).toBe('200');
    expect(spokenText("don't cut")).toBe("don't cut");
  });

  it('trims leading and trailing silence, keeping 15 ms of pad', () => {
    const pcm = new Float32Array(ESPEAK_RATE_HZ);
    for (let i = 8000; i < 9000; i++) pcm[i] = 0.5;
    const out = trimSilence(pcm, ESPEAK_RATE_HZ);
    const pad = Math.round(0.015 * ESPEAK_RATE_HZ);
    expect(out.length).toBe(1000 + 2 * pad);
    expect(out[pad]).toBe(0.5);
  });
});
