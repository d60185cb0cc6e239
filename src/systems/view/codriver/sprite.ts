/**
 * The co-driver's clip set: src/content/audio/codriver-voice.json maps each vocabulary token to its place in
 * codriver-voice.ogg ([start ms, length ms]); both are written by `npm run voice` (src/cli/voice.ts).
 */
import voice from '../../../content/audio/codriver-voice.json';

export interface VoiceSpriteMap {
  /** The audio file beside the map. */
  src: string;
  /** Token → [start ms, length ms] in that file. */
  sprite: Record<string, [number, number]>;
}

/** The map as Howler's sprite option wants it (JSON arrays typed as [start, length] pairs). */
export const VOICE_SPRITES: VoiceSpriteMap = {
  src: voice.src,
  sprite: Object.fromEntries(Object.entries(voice.sprite).map(([id, v]) => [id, [v[0]!, v[1]!] as [number, number]])),
};

/** Length of a token's clip, s (0 for a token without a clip: it is skipped, not guessed). */
export function clipSeconds(token: string): number {
  const s = VOICE_SPRITES.sprite[token];
  return s ? s[1] / 1000 : 0;
}
