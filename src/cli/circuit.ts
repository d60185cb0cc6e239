/**
 * `npx tsx src/cli/circuit.ts build-shipped`            regenerates the shipped circuits in src/content/stages/rallycross-<id> (issue 8).
 * `npx tsx src/cli/circuit.ts generate --seed N --out DIR [--radius 140] [--width 13] [--id ID] [--name NAME] [--no-joker]`
 * Circuits are ordinary stage folders (stage.toml + height.png + surface.png) whose finish is the start line.
 */
import { join } from 'node:path';
import { generateCircuit, SHIPPED_CIRCUITS, type CircuitOptions } from '../../terrain/circuit';
import { writeStageFiles } from '../../terrain/node';

function arg(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

function fail(msg: string): never {
  process.stderr.write(`circuit: ${msg}\n`);
  process.exit(2);
}

function num(args: string[], name: string): number | undefined {
  const v = arg(args, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) fail(`${name}: expected a number, found "${v}"`);
  return n;
}

function build(opts: CircuitOptions, out: string): void {
  const g = generateCircuit(opts);
  writeStageFiles(out, g.files, g.names);
  const sec = g.sections.map(([d, s]) => `${s}@${d.toFixed(0)}m`).join(' ');
  const J = g.stage.joker;
  const jok = J ? `, joker ${J.leaveDistanceM}–${J.rejoinDistanceM} m (+${(J.road.lengthM - (J.rejoinDistanceM - J.leaveDistanceM)).toFixed(1)} m)` : ', no joker';
  process.stdout.write(`${g.stage.id}: lap ${g.lapM.toFixed(1)} m, sections ${sec}${jok} → ${out}\n`);
}

function main(argv: string[]): void {
  const [cmd, ...args] = argv;
  if (cmd === 'build-shipped') {
    for (const c of SHIPPED_CIRCUITS) build(c, join('src/content/stages', c.id));
    return;
  }
  if (cmd === 'generate') {
    const seed = num(args, '--seed') ?? fail('missing --seed N');
    const out = arg(args, '--out') ?? fail('missing --out DIR');
    build({ seed, radiusM: num(args, '--radius'), widthM: num(args, '--width'), id: arg(args, '--id'), name: arg(args, '--name'), joker: args.includes('--no-joker') ? false : undefined }, out);
    return;
  }
  fail('usage: circuit build-shipped | circuit generate --seed N --out DIR [--radius M] [--width M] [--id ID] [--name NAME] [--no-joker]');
}

main(process.argv.slice(2));
