/**
 * Every CLI on the argument helper: `--help` exits 0 with the usage on stdout; a typo'd option exits 2 with a
 * "did you mean" on stderr; unknown car / stage / suite ids list the valid ones; bad or missing files print
 * one message and no stack trace. Each CLI is spawned (through tsx) for --help and one typo — the real exit
 * code and streams; the other cases call the CLI's exported main in-process, which returns the exit code.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main as carMain } from '../../src/cli/car';
import { crushMain } from '../../src/cli/car-crush';
import { main as simMain } from '../../src/cli/sim';
import { main as stageMain } from '../../src/cli/stage';
import { main as circuitMain } from '../../src/cli/circuit';
import { spawnCli, type Ran } from './spawn';

afterEach(() => vi.restoreAllMocks());

const tmp = mkdtempSync(join(tmpdir(), 'bitrally-cli-'));
/** A stack trace line as Node prints it. */
const STACK = /^\s+at .+[:(]/m;

function inProcess(run: () => number | Promise<number>): Promise<Ran> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((s: unknown) => void out.push(String(s)));
  vi.spyOn(console, 'error').mockImplementation((s: unknown) => void err.push(String(s)));
  return Promise.resolve(run()).then((code) => ({ code, stdout: out.join('\n'), stderr: err.join('\n') }));
}

const SCENARIO = 'src/content/scenarios/spin.toml';

/** [script, --help argv, typo argv, the suggestion expected]. */
const CLIS: [string, string[], string[], string][] = [
  ['src/cli/sim.ts', ['--help'], [SCENARIO, '--jsn'], 'unknown option --jsn; did you mean --json?'],
  ['src/cli/car.ts', ['test', '--help'], ['test', 'hatch-gti', '--surfce', 'gravel'], 'unknown option --surfce; did you mean --surface?'],
  ['src/cli/stage.ts', ['generate', '-h'], ['generate', '--seed', '1', '--lenght-km', '2', '--out', tmp], 'unknown option --lenght-km; did you mean --length-km?'],
  ['src/cli/replay.ts', ['record', '--help'], ['record', join(tmp, 'a.bitrally'), '--second', '2'], 'unknown option --second; did you mean --seconds?'],
  ['src/cli/circuit.ts', ['generate', '--help'], ['generate', '--seed', '9', '--out', tmp, '--radus', '120'], 'unknown option --radus; did you mean --radius?'],
  ['bench/run.ts', ['--help'], ['--quik'], 'unknown option --quik; did you mean --quick?'],
  ['bench/vehicle-profile.ts', ['--help'], ['midpoint', '--jsn'], 'unknown option --jsn; did you mean --json?'],
  ['tests/e2e/run-e2e.mjs', ['--help'], ['--file', 'game'], 'unknown option --file; did you mean --files?'],
  ['src/cli/rally.ts', ['daily', '--help'], ['plan', '--sed', '4'], 'unknown option --sed; did you mean --seed?'],
  ['src/cli/voice.ts', ['--help'], ['--wmp', '200'], 'unknown option --wmp; did you mean --wpm?'],
  ['tests/e2e/size.mjs', ['--help'], ['--hlp'], 'unknown option --hlp; did you mean --help?'],
  ['src/cli/traffic.ts', ['--help'], ['--minuts', '1'], 'unknown option --minuts; did you mean --minutes?'],
];

describe.concurrent('each CLI, spawned', () => {
  for (const [script, help, typo, suggestion] of CLIS) {
    it(`${script} --help: usage on stdout, exit 0`, async () => {
      const r = await spawnCli(script, help);
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/^usage: \S/);
      expect(r.stdout).toContain('-h, --help');
      expect(r.code).toBe(0);
    });
    it(`${script} ${typo.join(' ')}: exit 2 with a suggestion`, async () => {
      const r = await spawnCli(script, typo);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(suggestion);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.code).toBe(2);
    });
  }
  it('replay verify of a file that is not a replay: one line, no stack, exit 2', async () => {
    const f = join(tmp, 'not-a-replay.bitrally');
    writeFileSync(f, 'not a replay at all, just some text');
    const r = await spawnCli('src/cli/replay.ts', ['verify', f]);
    expect(r.stderr.trim()).toMatch(new RegExp(`^${f.replace(/[.]/g, '\\.')}: .*expected .*found`));
    expect(r.stderr).not.toMatch(STACK);
    expect(r.code).toBe(2);
  });
  it('replay record on an unknown stage lists the shipped ones', async () => {
    const r = await spawnCli('src/cli/replay.ts', ['record', join(tmp, 'b.bitrally'), '--stage', 'forest']);
    expect(r.stderr).toContain('--stage: unknown stage "forest": expected one of col-tarmac, forest-gravel, rallycross-bitring, snow-ridge, test-short; did you mean forest-gravel?');
    expect(r.code).toBe(2);
  });
  it('bench --only with an unknown suite lists the suites and runs none', async () => {
    const r = await spawnCli('bench/run.ts', ['--only', 'ai,peer']);
    expect(r.stderr).toContain('--only: unknown suite "peer": expected one of ai, collision-game, collision, net, peers, replay, rigid-body, server, terrain-lod, terrain, traffic, tuning, vehicle; did you mean peers?');
    expect(r.stderr).not.toContain('bench: ai');
    expect(r.code).toBe(2);
  });
});

describe('programs and sub-commands, in-process', () => {
  it('--help on the programs and every sub-command: exit 0, usage on stdout', async () => {
    const calls: [string, () => number][] = [
      ['npm run car -- <command>', () => carMain(['--help'])],
      ['npm run car -- schema', () => carMain(['schema', '--help'])],
      ['npm run car -- crush-params', () => carMain(['crush-params', '-h'])],
      ['npm run car -- crash-test', () => crushMain(['crash-test', '--help'])],
      ['npm run stage -- <command>', () => stageMain(['help'])],
      ['npm run stage -- info', () => stageMain(['info', '--help'])],
      ['npm run stage -- build-shipped', () => stageMain(['help', 'build-shipped'])],
      ['npx tsx src/cli/circuit.ts <command>', () => circuitMain(['-h'])],
      ['npx tsx src/cli/circuit.ts build-shipped', () => circuitMain(['build-shipped', '-h'])],
      ['npm run sim -- [<scenario.toml>]', () => simMain(['--stage', 'x', '--help'])],
    ];
    for (const [usage, call] of calls) {
      const r = await inProcess(call);
      expect(r, usage).toEqual({ code: 0, stdout: expect.stringMatching(`^usage: ${usage.replace(/[[\]<>.]/g, '\\$&')}`), stderr: '' });
    }
  });
  it('an unknown command is refused with the list', async () => {
    const r = await inProcess(() => carMain(['tset', 'hatch-gti']));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown command "tset": expected one of test, schema, crush-params, crash-test; did you mean test?');
  });
});

describe('unknown ids and bad files, in-process', () => {
  it('unknown car ids list the built-in cars', async () => {
    for (const call of [() => carMain(['test', 'hatch-gt']), () => crushMain(['crash-test', 'rally-awd', 'hatch-gt']), () => simMain(['--stage', 'test-short', '--car', 'hatch-gt', '--ai'])]) {
      const r = await inProcess(call);
      expect(r.stderr).toBe('unknown car "hatch-gt": expected one of classic-rwd, hatch-gti, rally-awd; did you mean hatch-gti? (or a car file, .toml)');
      expect(r.code).toBe(2);
    }
  });
  it('unknown stage ids list the shipped stages', async () => {
    const list = 'expected one of col-tarmac, forest-gravel, rallycross-bitring, snow-ridge, test-short; did you mean test-short? (or a stage directory)';
    for (const call of [() => stageMain(['info', 'tst-short']), () => simMain(['--stage', 'tst-short', '--car', 'rally-awd', '--ai'])]) {
      const r = await inProcess(call);
      expect(r.stderr).toBe(`unknown stage "tst-short": ${list}`);
      expect(r.code).toBe(2);
    }
  });
  it('bad values of known options name the option and the valid values', async () => {
    const r = await inProcess(() => carMain(['test', 'hatch-gti', '--integrator', 'rk5']));
    expect(r.stderr).toMatch(/--integrator: unknown integrator "rk5": expected one of euler, midpoint, rk4; did you mean rk4\?/);
    expect(r.code).toBe(2);
  });
  it('a missing file: "file not found: path", exit 2, no stack', async () => {
    const missing = join(tmp, 'missing.toml');
    for (const call of [() => simMain([missing]), () => carMain(['test', missing]), () => crushMain(['crush-params', missing])]) {
      const r = await inProcess(call);
      expect(r).toEqual({ code: 2, stdout: '', stderr: `file not found: ${missing}` });
    }
  });
  it('bad car, scenario and stage files: the loader\'s message naming the file, exit 2, no stack', async () => {
    const car = join(tmp, 'bad-car.toml');
    writeFileSync(car, 'extends = "hatch-gti.toml"\n[body]\nmass_kg = -5\n');
    const scenario = join(tmp, 'bad-scenario.toml');
    writeFileSync(scenario, 'dt = = 1');
    const stageDir = join(tmp, 'bad-stage');
    mkdirSync(stageDir, { recursive: true });
    writeFileSync(join(stageDir, 'stage.toml'), 'id = "x"\n[road]\n');
    const cases: [() => number, string][] = [
      [() => carMain(['test', car]), car],
      [() => crushMain(['crush-params', car]), car],
      [() => simMain([scenario]), scenario],
      [() => stageMain(['info', stageDir]), join(stageDir, 'stage.toml')],
    ];
    for (const [call, file] of cases) {
      const r = await inProcess(call);
      expect(r.stderr.startsWith(`${file}: `), r.stderr).toBe(true);
      expect(r.stderr).not.toMatch(STACK);
      expect(r.code).toBe(2);
    }
  });
});
