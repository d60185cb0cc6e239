/**
 * `npm run stage -- generate --seed N --length-km L --surface gravel|tarmac|snow --out DIR [--id ID] [--name NAME]
 *                  [--size 1025] [--cell-size 2] [--relief 1] [--checkpoints 300,600]`
 * `npm run stage -- info DIR`      loads a stage directory and prints a summary (validates user stages).
 * `npm run stage -- build-shipped` regenerates the stages shipped in src/content/stages/.
 */
import { join } from 'node:path';
import { generateStage, SHIPPED_STAGES, type GenerateOptions, type StageStyle } from '../../terrain/index';
import { loadStageFromDir, writeStageFiles } from '../../terrain/node';


function arg(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

function fail(msg: string): never {
  process.stderr.write(`stage: ${msg}\n`);
  process.exit(2);
}

function numArg(args: string[], name: string, required: boolean): number | undefined {
  const v = arg(args, name);
  if (v === undefined) {
    if (required) fail(`missing ${name}`);
    return undefined;
  }
  const n = Number(v);
  if (!Number.isFinite(n)) fail(`${name}: expected a number, found "${v}"`);
  return n;
}

function generate(opts: GenerateOptions, out: string): void {
  const t0 = performance.now();
  const g = generateStage(opts);
  writeStageFiles(out, g.files, g.names);
  const s = g.stage;
  process.stdout.write(
    `${s.id}: ${(s.lengthM / 1000).toFixed(2)} km ${s.surface}, ${s.checkpoints.length} checkpoint(s), ${s.scenery.length} scenery items; ` +
      `height.png ${g.files.heightPng.length} B, surface.png ${g.files.surfacePng.length} B, stage.toml ${g.files.stageToml.length} B; ` +
      `${((performance.now() - t0) / 1000).toFixed(1)} s → ${out}\n`,
  );
}

function main(argv: string[]): void {
  const [cmd, ...args] = argv;
  if (cmd === 'generate') {
    const surface = arg(args, '--surface') ?? 'gravel';
    if (!['gravel', 'tarmac', 'snow'].includes(surface)) fail(`--surface: expected gravel, tarmac or snow, found "${surface}"`);
    const out = arg(args, '--out') ?? fail('missing --out DIR');
    const cps = arg(args, '--checkpoints');
    generate(
      {
        seed: numArg(args, '--seed', true)!,
        lengthKm: numArg(args, '--length-km', true)!,
        surface: surface as StageStyle,
        id: arg(args, '--id'),
        name: arg(args, '--name'),
        size: numArg(args, '--size', false),
        cellSize: numArg(args, '--cell-size', false),
        relief: numArg(args, '--relief', false),
        checkpointsM: cps ? cps.split(',').map(Number) : undefined,
      },
      out,
    );
  } else if (cmd === 'info') {
    const dir = args[0] ?? fail('missing DIR');
    const s = loadStageFromDir(dir);
    process.stdout.write(
      `${s.id} "${s.name}": ${s.surface}, ${(s.lengthM / 1000).toFixed(2)} km, heightmap ${s.heightfield.width}² @ ${s.heightfield.cellSize} m, ` +
        `checkpoints at ${s.checkpoints.map((c) => c.distanceM.toFixed(0)).join(', ')} m, ${s.scenery.length} scenery items` +
        (s.joker ? `, joker road ${s.joker.widthM} m ${s.joker.surface} ${s.joker.leaveDistanceM}–${s.joker.rejoinDistanceM} m (${s.joker.road.lengthM.toFixed(1)} m long)` : '') +
        '\n',
    );
  } else if (cmd === 'build-shipped') {
    const root = join(process.cwd(), 'src/content/stages');
    const only = arg(args, '--only');
    for (const s of SHIPPED_STAGES) if (!only || only.split(',').includes(s.id)) generate(s, join(root, s.id));
  } else {
    process.stdout.write('usage: npm run stage -- generate --seed N --length-km L --surface gravel|tarmac|snow --out DIR\n       npm run stage -- info DIR\n       npm run stage -- build-shipped [--only id,id]\n');
    if (cmd !== undefined && cmd !== 'help' && cmd !== '--help') process.exit(2);
  }
}

main(process.argv.slice(2));
