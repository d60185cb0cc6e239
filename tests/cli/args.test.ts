/**
 * The CLI argument helper in-process (src/cli/args.ts, suggest.ts, errors.ts): declared options and
 * positionals, defaults, ranges, choices, "did you mean", --help, sub-commands, and how errors become exit codes.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatHelp, HelpRequest, parseCommand, selectCommand, UsageError, type CommandSpec } from '../../src/cli/args';
import { closest, editDistance, unknownMessage } from '../../src/validate/suggest';
import { readingFile, runCommand, UserError } from '../../src/cli/errors';
import { ContentError } from '../../src/validate/errors';

afterEach(() => vi.restoreAllMocks());

const SPEC = {
  usage: 'npm run demo -- run',
  summary: 'A demo command.',
  positionals: [
    { name: 'input', help: 'the input file' },
    { name: 'out', help: 'the output file', optional: true },
  ],
  options: {
    surface: { type: 'string', value: 'surface', kind: 'surface', choices: ['tarmac', 'gravel', 'snow'], default: 'tarmac', help: 'the ground' },
    seconds: { type: 'number', value: 's', above: 0, default: 60, help: 'run length' },
    seed: { type: 'integer', value: 'n', min: 0, max: 9, help: 'seed' },
    only: { type: 'list', value: 'a,b', kind: 'suite', choices: ['ai', 'peers', 'vehicle'], help: 'suites' },
    at: { type: 'numbers', value: 'm,m', min: 0, help: 'distances' },
    out: { type: 'string', value: 'dir', help: 'folder' },
    json: { type: 'boolean', help: 'JSON' },
    h: { type: 'number', value: 's', default: 1e-5, help: 'a step called --h (not -h)' },
  },
} as const satisfies CommandSpec;

/** The UsageError message of parsing `argv`, or fails the test. */
function usageError(argv: string[]): string {
  try {
    parseCommand(SPEC, argv);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as UsageError).problem;
  }
  throw new Error(`expected a UsageError for ${argv.join(' ')}`);
}

describe('edit distance and suggestions', () => {
  it('counts insertions, deletions, substitutions and adjacent swaps as one edit each', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('surfce', 'surface')).toBe(1);
    expect(editDistance('seocnds', 'seconds')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
  it('suggests the closest name within 40 % edits, else a unique prefix, else nothing', () => {
    expect(closest('--surfce', ['--surface', '--seconds'])).toBe('--surface');
    expect(closest('--second', ['--seconds', '--seed'])).toBe('--seconds');
    expect(closest('forest', ['forest-gravel', 'col-tarmac'])).toBe('forest-gravel');
    expect(closest('--se', ['--seconds', '--seed'])).toBeUndefined();
    expect(closest('xyz', ['car', 'stage'])).toBeUndefined();
  });
  it('lists every valid id for an unknown one', () => {
    expect(unknownMessage('car', 'hatch-gt', ['classic-rwd', 'hatch-gti', 'rally-awd'])).toBe(
      'unknown car "hatch-gt": expected one of classic-rwd, hatch-gti, rally-awd; did you mean hatch-gti?',
    );
  });
});

describe('parseCommand', () => {
  it('fills defaults and converts typed values; positionals and options in any order', () => {
    const p = parseCommand(SPEC, ['--seed', '3', 'in.toml', '--json', '--only', 'ai,peers', '--at=10,20.5', 'out.csv', '--surface', 'snow']);
    expect(p.args).toEqual({ input: 'in.toml', out: 'out.csv' });
    expect(p.options).toEqual({ surface: 'snow', seconds: 60, seed: 3, only: ['ai', 'peers'], at: [10, 20.5], out: undefined, json: true, h: 1e-5 });
  });
  it('takes negative numbers and values after = and arguments after -- literally', () => {
    const p = parseCommand({ ...SPEC, options: { ...SPEC.options, seconds: { type: 'number', help: 's' } } }, ['--seconds', '-3', '--', '--json']);
    expect(p.options.seconds).toBe(-3);
    expect(p.options.json).toBe(false);
    expect(p.args.input).toBe('--json');
  });
  it('refuses an unknown option with a suggestion', () => {
    expect(usageError(['in', '--surfce', 'gravel'])).toBe('unknown option --surfce; did you mean --surface?');
    expect(usageError(['in', '--second', '2'])).toBe('unknown option --second; did you mean --seconds?');
    expect(usageError(['in', '-x'])).toMatch(/^unknown option -x; options: --surface, --seconds/);
  });
  it('refuses bad values naming the option, what was expected and what was found', () => {
    expect(usageError(['in', '--surface', 'gravl'])).toBe('--surface: unknown surface "gravl": expected one of tarmac, gravel, snow; did you mean gravel?');
    expect(usageError(['in', '--seconds', 'fast'])).toBe('--seconds: expected a number, found "fast"');
    expect(usageError(['in', '--seconds', '0'])).toBe('--seconds: expected a number > 0, found 0');
    expect(usageError(['in', '--seed', '1.5'])).toBe('--seed: expected an integer, found "1.5"');
    expect(usageError(['in', '--seed', '10'])).toBe('--seed: expected an integer ≥ 0 and ≤ 9, found 10');
    expect(usageError(['in', '--only', 'ai,peer'])).toMatch(/^--only: unknown suite "peer": expected one of ai, peers, vehicle; did you mean peers\?$/);
    expect(usageError(['in', '--at', '10,,20'])).toBe('--at: expected a comma-separated list, found "10,,20"');
    expect(usageError(['in', '--json=1'])).toBe('--json takes no value, found "1"');
    expect(usageError(['in', '--out'])).toBe('--out: expected a value <dir>, found nothing');
    expect(usageError(['in', '--out', '--json'])).toBe('--out: expected a value <dir>, found the option --json');
  });
  it('refuses missing and extra positional arguments', () => {
    expect(usageError([])).toBe('missing <input>: the input file');
    expect(usageError(['a', 'b', 'c'])).toBe('unexpected argument "c"');
  });
  it('refuses a missing required option', () => {
    const spec = { usage: 'x', summary: 's', options: { out: { type: 'string', value: 'dir', required: true, help: 'folder to write' } } } as const satisfies CommandSpec;
    expect(() => parseCommand(spec, [])).toThrow('missing --out <dir>: folder to write');
    expect(parseCommand(spec, ['--out', 'd']).options.out).toBe('d');
  });
  it('--help or -h anywhere asks for the usage, even where a value was expected; --h is an ordinary option', () => {
    for (const argv of [['--help'], ['in', '-h'], ['--out', '--help'], ['--surfce', 'x', '-h']]) expect(() => parseCommand(SPEC, argv)).toThrow(HelpRequest);
    expect(parseCommand(SPEC, ['in', '--h', '1e-4']).options.h).toBe(1e-4);
    expect(() => parseCommand(SPEC, ['in', 'out', '--', '-h'])).toThrow('unexpected argument "-h"'); // literal after --
  });
  it('the usage lists every argument and option with its values and default', () => {
    const text = formatHelp(SPEC);
    expect(text.split('\n')[0]).toBe('usage: npm run demo -- run <input> [<out>] [options]');
    expect(text).toMatch(/--surface <surface>\s+the ground \(one of tarmac, gravel, snow; default tarmac\)/);
    expect(text).toMatch(/-h, --help\s+print this help and exit/);
    for (const name of Object.keys(SPEC.options)) expect(text).toContain(`--${name}`);
  });
  it('a UsageError names the command and points at --help', () => {
    expect(() => parseCommand(SPEC, ['in', '--bad'])).toThrow(/^npm run demo -- run: unknown option --bad; options: --surface, .* \(npm run demo -- run --help shows the usage\)$/);
  });
});

describe('selectCommand', () => {
  const PROG = { usage: 'npm run demo --', summary: 'Demo.', commands: { run: SPEC, schema: { usage: 'npm run demo -- schema', summary: 'Schema.' } } } as const;
  it('returns the command and the arguments after it', () => {
    expect(selectCommand(PROG, ['run', 'x', '--json'])).toEqual({ name: 'run', rest: ['x', '--json'] });
  });
  it('program help for --help, -h and help; a command help for help <command>', () => {
    const help = (argv: string[]): string => {
      try {
        selectCommand(PROG, argv);
      } catch (e) {
        if (e instanceof HelpRequest) return e.text;
      }
      return '';
    };
    expect(help(['--help'])).toMatch(/^usage: npm run demo -- <command>[^]*commands:\n {2}run {5}A demo command\.\n {2}schema {2}Schema\./);
    expect(help(['-h'])).toBe(help(['help']));
    expect(help(['help', 'run'])).toBe(formatHelp(SPEC));
  });
  it('refuses an unknown or missing command with the list', () => {
    expect(() => selectCommand(PROG, ['rnu'])).toThrow('npm run demo: unknown command "rnu": expected one of run, schema; did you mean run?');
    expect(() => selectCommand(PROG, [])).toThrow('expected a command first (run, schema), found nothing');
    expect(() => selectCommand(PROG, ['--json'])).toThrow('found --json');
  });
});

describe('errors → exit codes', () => {
  function capture(f: () => number): { code: number; out: string; err: string } {
    const out: string[] = [];
    const err: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((s: unknown) => void out.push(String(s)));
    vi.spyOn(console, 'error').mockImplementation((s: unknown) => void err.push(String(s)));
    const code = f();
    vi.restoreAllMocks();
    return { code, out: out.join('\n'), err: err.join('\n') };
  }
  it('--help: usage on stdout, exit 0', () => {
    const r = capture(() => runCommand(() => parseCommand(SPEC, ['--help']) && 5));
    expect(r).toEqual({ code: 0, out: formatHelp(SPEC), err: '' });
  });
  it('user errors: one line on stderr, exit 2, no stack', () => {
    const enoent = Object.assign(new Error("ENOENT: no such file or directory, open 'x.toml'"), { code: 'ENOENT', path: 'x.toml' });
    const cases: [unknown, string][] = [
      [new UsageError('cmd', 'bad'), 'cmd: bad (cmd --help shows the usage)'],
      [new UserError('file not found: a.toml'), 'file not found: a.toml'],
      [new ContentError('car.toml', ['body.mass_kg: expected > 0, found number 0']), 'car.toml: body.mass_kg: expected > 0, found number 0'],
      [enoent, 'file not found: x.toml'],
    ];
    for (const [e, msg] of cases) {
      const r = capture(() => runCommand(() => {
        throw e;
      }));
      expect(r).toEqual({ code: 2, out: '', err: msg });
    }
  });
  it('a bug: the stack on stderr, exit 1', () => {
    const r = capture(() => runCommand(() => {
      throw new TypeError('x is undefined');
    }));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^TypeError: x is undefined\n\s+at /);
  });
  it('readingFile: a plain Error from a loader is the file\'s fault, a TypeError is a bug', async () => {
    expect(() => readingFile('s.toml', () => {
      throw new Error('bodies: id "a" used twice');
    })).toThrow(new UserError('s.toml: bodies: id "a" used twice'));
    expect(() => readingFile('s.toml', () => {
      throw new TypeError('boom');
    })).toThrow(TypeError);
    await expect(readingFile('r.bitrally', () => Promise.reject(new Error('car not embedded')))).rejects.toThrow('r.bitrally: car not embedded');
  });
});
