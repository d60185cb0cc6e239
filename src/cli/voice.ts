/**
 * Voice CLI: `npm run voice` renders the co-driver's clip set — one eSpeak NG utterance per pace-note token
 * (terrain/pacenotes/words.ts VOCABULARY), silence trimmed, in one Ogg Vorbis sprite — into
 * src/content/audio/codriver-voice.ogg + codriver-voice.json (token → [start ms, length ms]). The output is
 * committed: the game and CI never need eSpeak NG or ffmpeg; run this again after changing the vocabulary.
 * Needs `espeak-ng` and `ffmpeg` (Debian: apt-get install -y espeak-ng ffmpeg). Exit 2 on bad arguments or a
 * missing tool.
 */
import { statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VOCABULARY } from '../../terrain/pacenotes/words';
import { parseCommand, type CommandSpec } from './args';
import { exitWith, runCommand } from './errors';
import { renderVoice } from './voice-render';

const AUDIO_DIR = join(dirname(fileURLToPath(import.meta.url)), '../content/audio');
/** The committed clip set must stay under this (issue #17: ≤ 600 KB for all co-driver audio). */
export const VOICE_BUDGET_BYTES = 600 * 1024;

const VOICE = {
  usage: 'npm run voice --',
  summary: "Renders the co-driver's clips (one per pace-note token) with eSpeak NG into one Ogg Vorbis sprite + JSON map.",
  details: ['Writes <out>/codriver-voice.ogg and <out>/codriver-voice.json; needs espeak-ng and ffmpeg on PATH.'],
  options: {
    out: { type: 'string', value: 'dir', default: AUDIO_DIR, help: 'output folder' },
    voice: { type: 'string', value: 'name', default: 'en-gb', help: 'eSpeak NG voice (espeak-ng --voices=en lists them)' },
    wpm: { type: 'integer', value: 'n', default: 250, min: 80, max: 450, help: 'speaking rate, words per minute' },
    pitch: { type: 'integer', value: 'n', default: 40, min: 0, max: 99, help: 'voice pitch' },
    quality: { type: 'integer', value: 'q', default: 1, min: -1, max: 10, help: 'Vorbis quality (1 ≈ 45 kb/s mono)' },
  },
  examples: ['npm run voice', 'npm run voice -- --voice en-us --wpm 200'],
} as const satisfies CommandSpec;

/** Returns the exit code: 0 written, 2 bad arguments or a missing tool, 1 over the size budget or a bug. */
export function main(argv: string[]): number {
  return runCommand(() => {
    const { options: o } = parseCommand(VOICE, argv);
    const ogg = join(o.out, 'codriver-voice.ogg');
    const sprite = renderVoice(VOCABULARY, ogg, { voice: o.voice, wpm: o.wpm, pitch: o.pitch, quality: o.quality });
    const lines = Object.entries(sprite).map(([id, [at, len]]) => `    ${JSON.stringify(id)}: [${at}, ${len}]`);
    writeFileSync(join(o.out, 'codriver-voice.json'), `{\n  "src": "codriver-voice.ogg",\n  "sprite": {\n${lines.join(',\n')}\n  }\n}\n`);
    const bytes = statSync(ogg).size;
    console.log(`wrote ${ogg} (${VOCABULARY.length} clips, ${(bytes / 1024).toFixed(0)} KB) and codriver-voice.json`);
    if (bytes > VOICE_BUDGET_BYTES) {
      console.error(`voice: ${bytes} bytes is over the ${VOICE_BUDGET_BYTES}-byte budget: lower --quality`);
      return 1;
    }
    return 0;
  });
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('voice.ts')) exitWith(main(process.argv.slice(2)));
