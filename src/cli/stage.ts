/**
 * `npm run stage -- generate --seed N --length-km L --surface gravel|tarmac|snow --out DIR [--id ID] [--name NAME]
 *                  [--size 1025] [--cell-size 2] [--relief 1] [--checkpoints 300,600] [--ditch-depth 0.3] [--ditch-width 2]`
 * `npm run stage -- info <dir | shipped id>`  loads a stage and prints a summary (validates user stages).
 * `npm run stage -- build-shipped [--only id,id]` regenerates the stages shipped in src/content/stages/.
 * `npm run stage -- pacenotes <dir | shipped id> [--regenerate]` writes or checks the stage's pacenotes.toml.
 * `--help` on any command lists its options; exit code 2 on bad arguments or a bad stage.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateStage, SHIPPED_STAGES, type GenerateOptions } from '../../terrain/index';
import { keepEditedPaceNotes, loadStageFromDir, writeStageFiles } from '../../terrain/node';
import { formatPaceNotes } from '../../terrain/pacenotes/file';
import { generatePaceNotes } from '../../terrain/pacenotes/generate';
import type { PaceNote } from '../../terrain/pacenotes/types';
import { noteWords } from '../../terrain/pacenotes/words';
import { PACE_NOTES_FILE } from '../../terrain/stage';
import { SURFACE_IDS } from '../../terrain/surface';
import { DEFAULT_DITCH } from '../../terrain/ditch';
import { parseCommand, selectCommand, type CommandSpec, type ProgramSpec } from './args';
import { exitWith, runCommand } from './errors';
import { stageDirArg } from './inputs';

const GENERATE = {
  usage: 'npm run stage -- generate',
  summary: 'Generates a stage folder (stage.toml, height.png, surface.png) from a seed.',
  options: {
    seed: { type: 'integer', value: 'N', required: true, help: 'generator seed' },
    'length-km': { type: 'number', value: 'km', above: 0, required: true, help: 'road length' },
    surface: { type: 'string', value: 'style', kind: 'stage style', choices: ['gravel', 'tarmac', 'snow'], default: 'gravel', help: 'stage style' },
    out: { type: 'string', value: 'dir', required: true, help: 'folder to write, created if needed' },
    id: { type: 'string', value: 'id', help: 'stage id (default from the seed)' },
    name: { type: 'string', value: 'name', help: 'display name' },
    size: { type: 'integer', value: 'samples', help: 'heightmap samples per side, 2ⁿ+1 (default 1025)' },
    'cell-size': { type: 'number', value: 'm', above: 0, help: 'heightmap cell size (default 2)' },
    relief: { type: 'number', value: 'factor', min: 0, help: 'multiplier on the terrain relief (default 1)' },
    checkpoints: { type: 'numbers', value: 'm,m', min: 0, help: 'checkpoint distances from the start (default one per ~1.5 km)' },
    'mix-surface': { type: 'string', value: 'surface', kind: 'surface', choices: SURFACE_IDS, help: 'second road surface, in 250 m sections' },
    'mix-fraction': { type: 'number', value: '0-1', min: 0, max: 1, default: 0, help: 'share of the road sections in the second surface' },
    'ditch-depth': { type: 'number', value: 'm', min: 0, max: 1, help: 'drainage ditch depth beside gravel/snow roads, 0 for none (default 0.3)' },
    'ditch-width': { type: 'number', value: 'm', min: 1, max: 4, help: 'drainage ditch width at half depth (default 2)' },
  },
  examples: ['npm run stage -- generate --seed 42 --length-km 3 --surface tarmac --out /tmp/my-stage'],
} as const satisfies CommandSpec;

const INFO = {
  usage: 'npm run stage -- info',
  summary: 'Loads a stage (checks every file) and prints a summary.',
  positionals: [{ name: 'dir', help: 'a stage directory, or the id of a shipped stage' }],
} as const satisfies CommandSpec;

const BUILD_SHIPPED = {
  usage: 'npm run stage -- build-shipped',
  summary: 'Regenerates the stages shipped in src/content/stages/ (byte for byte).',
  options: { only: { type: 'list', value: 'id,id', kind: 'stage', choices: SHIPPED_STAGES.map((s) => s.id), help: 'only these stages' } },
} as const satisfies CommandSpec;

const PACENOTES = {
  usage: 'npm run stage -- pacenotes',
  summary: "Writes the stage's pacenotes.toml from its road when it has none; checks and summarises the one it has.",
  details: [
    'With --regenerate the notes are generated again: notes marked origin = "edited" are kept as written, the rest replaced.',
    'A bad stage or pacenotes.toml is refused (file, key, expected, found) with exit code 2.',
  ],
  positionals: [{ name: 'dir', help: 'a stage directory, or the id of a shipped stage' }],
  options: { regenerate: { type: 'boolean', help: 'regenerate the notes, keeping the hand-edited ones' } },
  examples: ['npm run stage -- pacenotes forest-gravel --regenerate', 'npm run stage -- pacenotes /tmp/my-stage'],
} as const satisfies CommandSpec;

export const STAGE_PROGRAM = {
  usage: 'npm run stage --',
  summary: 'Stages: generate one, check and summarise one, regenerate the shipped ones, write their pace notes.',
  commands: { generate: GENERATE, info: INFO, 'build-shipped': BUILD_SHIPPED, pacenotes: PACENOTES },
} as const satisfies ProgramSpec;

/** One line: how many notes, how many edited, and the first call. */
function describeNotes(notes: readonly PaceNote[]): string {
  const corners = notes.filter((n) => n.kind === 'corner').length;
  const edited = notes.filter((n) => n.origin === 'edited').length;
  const first = notes[0] ? `; first call "${noteWords(notes[0]).join(' ')}" at ${notes[0].atM.toFixed(0)} m` : '';
  return `${notes.length} notes (${corners} corners, ${notes.length - corners} features; ${edited} edited)${first}`;
}

function paceNotes(argv: string[]): number {
  const { args, options } = parseCommand(PACENOTES, argv);
  const dir = stageDirArg(args.dir);
  const stage = loadStageFromDir(dir); // refuses a bad pacenotes.toml
  const path = join(dir, PACE_NOTES_FILE);
  if (existsSync(path) && !options.regenerate) {
    process.stdout.write(`${stage.id}: ${path} is valid: ${describeNotes(stage.paceNotes)}\n`);
    return 0;
  }
  const notes = keepEditedPaceNotes(dir, stage, generatePaceNotes(stage));
  writeFileSync(path, formatPaceNotes(notes, { stageId: stage.id }));
  process.stdout.write(`${stage.id}: ${describeNotes(notes)} → ${path}\n`);
  return 0;
}

function generate(opts: GenerateOptions, out: string): void {
  const t0 = performance.now();
  const g = generateStage(opts);
  // a stage regenerated over its own folder keeps the hand-edited pace notes there
  g.files.paceNotesToml = formatPaceNotes(keepEditedPaceNotes(out, g.stage, g.stage.paceNotes), { stageId: g.stage.id });
  writeStageFiles(out, g.files, g.names);
  const s = g.stage;
  process.stdout.write(
    `${s.id}: ${(s.lengthM / 1000).toFixed(2)} km ${s.surface}, ${s.checkpoints.length} checkpoint(s), ${s.scenery.length} scenery items; ` +
      `height.png ${g.files.heightPng.length} B, surface.png ${g.files.surfacePng.length} B, stage.toml ${g.files.stageToml.length} B, ` +
      `${g.stage.paceNotes.length} pace notes; ` +
      `${((performance.now() - t0) / 1000).toFixed(1)} s → ${out}\n`,
  );
}

function generateCommand(argv: string[]): number {
  const { options: o } = parseCommand(GENERATE, argv);
  const { seed, surface, id, name, size, relief } = o;
  const mix = o['mix-surface'];
  const surfaceMix = mix ? { surface: mix, fraction: o['mix-fraction'] } : undefined;
  const dd = o['ditch-depth'], dw = o['ditch-width'];
  const ditch = dd === 0 ? false as const : dd !== undefined || dw !== undefined ? { depthM: dd ?? DEFAULT_DITCH.depthM, widthM: dw ?? DEFAULT_DITCH.widthM } : undefined;
  generate({ seed, lengthKm: o['length-km'], surface, id, name, size, cellSize: o['cell-size'], relief, checkpointsM: o.checkpoints, surfaceMix, ditch }, o.out);
  return 0;
}

function info(argv: string[]): number {
  const s = loadStageFromDir(stageDirArg(parseCommand(INFO, argv).args.dir));
  process.stdout.write(
    `${s.id} "${s.name}": ${s.surface}, ${(s.lengthM / 1000).toFixed(2)} km, heightmap ${s.heightfield.width}² @ ${s.heightfield.cellSize} m, ` +
      `checkpoints at ${s.checkpoints.map((c) => c.distanceM.toFixed(0)).join(', ')} m, ${s.scenery.length} scenery items` +
      (s.joker ? `, joker road ${s.joker.widthM} m ${s.joker.surface} ${s.joker.leaveDistanceM}–${s.joker.rejoinDistanceM} m (${s.joker.road.lengthM.toFixed(1)} m long)` : '') +
      '\n',
  );
  return 0;
}

function buildShipped(argv: string[]): number {
  const { only } = parseCommand(BUILD_SHIPPED, argv).options;
  const root = join(process.cwd(), 'src/content/stages');
  for (const s of SHIPPED_STAGES) if (!only || only.includes(s.id)) generate(s, join(root, s.id));
  return 0;
}

/** Returns the exit code. */
export function main(argv: string[]): number {
  return runCommand(() => {
    const { name, rest } = selectCommand(STAGE_PROGRAM, argv);
    if (name === 'generate') return generateCommand(rest);
    if (name === 'info') return info(rest);
    if (name === 'pacenotes') return paceNotes(rest);
    return buildShipped(rest);
  });
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('stage.ts')) exitWith(main(process.argv.slice(2)));
