/**
 * `npx tsx src/cli/circuit.ts build-shipped`            regenerates the shipped circuits in src/content/stages/rallycross-<id> (issue 8).
 * `npx tsx src/cli/circuit.ts generate --seed N --out DIR [--radius 140] [--width 13] [--id ID] [--name NAME] [--no-joker]`
 * Circuits are ordinary stage folders (stage.toml + height.png + surface.png) whose finish is the start line.
 * `--help` on any command lists its options; exit code 2 on bad arguments.
 */
import { join } from 'node:path';
import { generateCircuit, SHIPPED_CIRCUITS, type CircuitOptions } from '../../terrain/circuit';
import { keepEditedPaceNotes, writeStageFiles } from '../../terrain/node';
import { formatPaceNotes } from '../../terrain/pacenotes/file';
import { parseCommand, selectCommand, type CommandSpec, type ProgramSpec } from './args';
import { exitWith, runCommand } from './errors';

const GENERATE = {
  usage: 'npx tsx src/cli/circuit.ts generate',
  summary: 'Generates a rallycross circuit (a stage folder whose finish is the start line) from a seed.',
  options: {
    seed: { type: 'integer', value: 'N', required: true, help: 'generator seed' },
    out: { type: 'string', value: 'dir', required: true, help: 'folder to write, created if needed' },
    radius: { type: 'number', value: 'm', above: 0, help: 'mean radius of the loop (default 140: a lap of about 0.9 km)' },
    width: { type: 'number', value: 'm', above: 0, help: 'road width (default 13)' },
    id: { type: 'string', value: 'id', help: 'stage id' },
    name: { type: 'string', value: 'name', help: 'display name' },
    'no-joker': { type: 'boolean', help: 'no joker lap branch' },
  },
  examples: ['npx tsx src/cli/circuit.ts generate --seed 9 --out /tmp/rx9 --radius 120'],
} as const satisfies CommandSpec;

const BUILD_SHIPPED = {
  usage: 'npx tsx src/cli/circuit.ts build-shipped',
  summary: `Regenerates the shipped circuits (${SHIPPED_CIRCUITS.map((c) => c.id).join(', ')}) in src/content/stages/, byte for byte.`,
} as const satisfies CommandSpec;

export const CIRCUIT_PROGRAM = {
  usage: 'npx tsx src/cli/circuit.ts',
  summary: 'Rallycross circuits: generate one, regenerate the shipped ones.',
  commands: { generate: GENERATE, 'build-shipped': BUILD_SHIPPED },
} as const satisfies ProgramSpec;

function build(opts: CircuitOptions, out: string): void {
  const g = generateCircuit(opts);
  // a circuit regenerated over its own folder keeps the hand-edited pace notes there
  g.files.paceNotesToml = formatPaceNotes(keepEditedPaceNotes(out, g.stage, g.stage.paceNotes), { stageId: g.stage.id });
  writeStageFiles(out, g.files, g.names);
  const sec = g.sections.map(([d, s]) => `${s}@${d.toFixed(0)}m`).join(' ');
  const J = g.stage.joker;
  const jok = J ? `, joker ${J.leaveDistanceM}–${J.rejoinDistanceM} m (+${(J.road.lengthM - (J.rejoinDistanceM - J.leaveDistanceM)).toFixed(1)} m)` : ', no joker';
  process.stdout.write(`${g.stage.id}: lap ${g.lapM.toFixed(1)} m, sections ${sec}${jok} → ${out}\n`);
}

/** Returns the exit code. */
export function main(argv: string[]): number {
  return runCommand(() => {
    const { name, rest } = selectCommand(CIRCUIT_PROGRAM, argv);
    if (name === 'build-shipped') {
      parseCommand(BUILD_SHIPPED, rest);
      for (const c of SHIPPED_CIRCUITS) build(c, join('src/content/stages', c.id));
      return 0;
    }
    const o = parseCommand(GENERATE, rest).options;
    build({ seed: o.seed, radiusM: o.radius, widthM: o.width, id: o.id, name: o.name, joker: o['no-joker'] ? false : undefined }, o.out);
    return 0;
  });
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('circuit.ts')) exitWith(main(process.argv.slice(2)));
