/**
 * The argument parser of every Node CLI (src/cli/*, bench/*), on `node:util` parseArgs.
 * A command declares its options (type, default, help text, allowed values, range) and positional arguments;
 * a program is a set of named sub-commands. `--help`/`-h` anywhere before `--` asks for the usage (printed to
 * stdout, exit 0 — src/cli/errors.ts). An unknown option, a missing or bad value, a missing or extra argument is
 * a UsageError (exit 2) naming the option, what was expected and what was found, with a "did you mean" when a
 * declared name is close (src/validate/suggest.ts).
 */
import { parseArgs } from 'node:util';
import { closest, unknownMessage } from '../validate/suggest';

/** `list` and `numbers` take one comma-separated value (`--only a,b`, `--checkpoints 300,600`). */
export type OptionType = 'boolean' | 'string' | 'number' | 'integer' | 'list' | 'numbers';

export interface OptionSpec {
  readonly type: OptionType;
  readonly help: string;
  /** One letter: `-x`. */
  readonly short?: string;
  /** The value's name in the usage: `--trace <out.csv>`. */
  readonly value?: string;
  /** What one value names, for "unknown <kind>" messages (default: `value`). */
  readonly kind?: string;
  readonly default?: string | number | boolean | readonly string[] | readonly number[];
  /** Must be given (a value option without a sensible default, e.g. `--out <dir>`). */
  readonly required?: boolean;
  /** string / list: the allowed values. */
  readonly choices?: readonly string[];
  /** number / integer / numbers: inclusive bounds, and an exclusive lower bound. */
  readonly min?: number;
  readonly max?: number;
  readonly above?: number;
}

export interface PositionalSpec {
  readonly name: string;
  readonly help: string;
  readonly optional?: boolean;
}

export interface CommandSpec {
  /** How the command is typed, e.g. `npm run car -- test` or `npm run sim --`; starts the usage line and messages. */
  readonly usage: string;
  /** One line: what the command does. */
  readonly summary: string;
  /** More lines printed under the summary by --help (exit codes, output). */
  readonly details?: readonly string[];
  readonly positionals?: readonly PositionalSpec[];
  readonly options?: Readonly<Record<string, OptionSpec>>;
  readonly examples?: readonly string[];
}

export interface ProgramSpec {
  /** e.g. `npm run car --`; a command's own usage is `<program usage> <command>`. */
  readonly usage: string;
  readonly summary: string;
  readonly commands: Readonly<Record<string, CommandSpec>>;
}

/** A mistake on the command line (exit code 2). */
export class UsageError extends Error {
  constructor(
    readonly command: string,
    readonly problem: string,
  ) {
    super(`${command.replace(/ --$/, '')}: ${problem} (${command} --help shows the usage)`);
    this.name = 'UsageError';
  }
}

/** `--help` was asked for: `text` goes to stdout and the exit code is 0. */
export class HelpRequest extends Error {
  constructor(readonly text: string) {
    super('help requested');
    this.name = 'HelpRequest';
  }
}

type ValueOf<T extends OptionType> = T extends 'boolean'
  ? boolean
  : T extends 'number' | 'integer'
    ? number
    : T extends 'list'
      ? string[]
      : T extends 'numbers'
        ? number[]
        : string;
/** A string option with declared choices has their union type (`--integrator` → IntegratorKind). */
type Typed<O extends OptionSpec> = O extends { type: 'string'; choices: readonly (infer U)[] } ? U : ValueOf<O['type']>;
type OptionValue<O extends OptionSpec> = O extends { type: 'boolean' } | { default: unknown } | { required: true } ? Typed<O> : Typed<O> | undefined;
type Options<C extends CommandSpec> = NonNullable<C['options']>;
export type OptionValues<C extends CommandSpec> = { -readonly [K in keyof Options<C>]: OptionValue<Options<C>[K]> };
type Positionals<C extends CommandSpec> = NonNullable<C['positionals']>[number];
export type PositionalValues<C extends CommandSpec> = {
  [E in Positionals<C> as E['name']]: E extends { optional: true } ? string | undefined : string;
};

export interface Parsed<C extends CommandSpec> {
  options: OptionValues<C>;
  args: PositionalValues<C>;
  /** Throws a UsageError for this command (a combination of arguments the declarations cannot express). */
  fail(problem: string): never;
}

const HELP: OptionSpec = { type: 'boolean', short: 'h', help: 'print this help and exit' };

/** True when `--help` or `-h` comes before any `--` terminator (even where an option expects a value). */
function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/** Parses `argv` (without the command name) against `spec`; throws HelpRequest or UsageError. */
export function parseCommand<C extends CommandSpec>(spec: C, argv: readonly string[]): Parsed<C> {
  if (wantsHelp(argv)) throw new HelpRequest(formatHelp(spec));
  const fail = (problem: string): never => {
    throw new UsageError(spec.usage, problem);
  };
  const declared: Record<string, OptionSpec> = { ...spec.options };
  const { raw, positionals } = readTokens(declared, argv, fail);
  const options: Record<string, unknown> = {};
  for (const [name, o] of Object.entries(declared)) {
    const given = raw.get(name);
    if (given === undefined && o.required) fail(`missing --${name}${o.value ? ` <${o.value}>` : ''}: ${o.help}`);
    options[name] = given !== undefined ? convert(`--${name}`, o, given, fail) : (o.default ?? (o.type === 'boolean' ? false : undefined));
  }
  const pspec = spec.positionals ?? [];
  const missing = pspec.find((p, i) => !p.optional && i >= positionals.length);
  if (missing) fail(`missing <${missing.name}>: ${missing.help}`);
  if (positionals.length > pspec.length) fail(`unexpected argument "${positionals[pspec.length]}"`);
  const args = Object.fromEntries(pspec.map((p, i) => [p.name, positionals[i]]));
  return { options: options as OptionValues<C>, args: args as PositionalValues<C>, fail };
}

/** Walks parseArgs' tokens: raw option values by name (last one wins) and the positional arguments. */
function readTokens(declared: Record<string, OptionSpec>, argv: readonly string[], fail: (p: string) => never) {
  const config = Object.fromEntries(
    Object.entries({ ...declared, help: HELP }).map(([n, o]) => [n, { type: o.type === 'boolean' ? ('boolean' as const) : ('string' as const), ...(o.short ? { short: o.short } : {}) }]),
  );
  const { tokens } = parseArgs({ args: [...argv], options: config, strict: false, allowPositionals: true, tokens: true });
  const raw = new Map<string, string | true>();
  const positionals: string[] = [];
  for (const t of tokens) {
    if (t.kind === 'positional') positionals.push(t.value);
    if (t.kind !== 'option') continue;
    const o = declared[t.name];
    if (!o) {
      // bare names (no dashes) for the edit budget; a one-letter -x is a slip of any letter: no guess
      const names = Object.keys(declared);
      const near = t.rawName.startsWith('--') ? closest(t.name, names) : undefined;
      const list = names.map((n) => `--${n}`).join(', ');
      fail(`unknown option ${t.rawName}${near ? `; did you mean --${near}?` : list ? `; options: ${list}` : ''}`);
    } else if (o.type === 'boolean') {
      if (t.value !== undefined) fail(`${t.rawName} takes no value, found "${t.value}"`);
      raw.set(t.name, true);
    } else {
      const what = `a value${o.value ? ` <${o.value}>` : ''}`;
      if (t.value === undefined) fail(`${t.rawName}: expected ${what}, found nothing`);
      else if (!t.inlineValue && t.value.startsWith('--')) fail(`${t.rawName}: expected ${what}, found the option ${t.value}`);
      else raw.set(t.name, t.value);
    }
  }
  return { raw, positionals };
}

function convert(flag: string, o: OptionSpec, given: string | true, fail: (p: string) => never): unknown {
  if (given === true) return true;
  const items = (): string[] => {
    const xs = given.split(',').map((s) => s.trim());
    if (xs.some((s) => s === '')) fail(`${flag}: expected a comma-separated list, found "${given}"`);
    return xs;
  };
  switch (o.type) {
    case 'string':
      return choice(flag, o, given, fail);
    case 'list':
      return items().map((s) => choice(flag, o, s, fail));
    case 'numbers':
      return items().map((s) => toNumber(flag, o, s, fail));
    default:
      return toNumber(flag, o, given, fail);
  }
}

function choice(flag: string, o: OptionSpec, v: string, fail: (p: string) => never): string {
  if (o.choices && !o.choices.includes(v)) fail(`${flag}: ${unknownMessage(o.kind ?? 'value', v, o.choices)}`);
  return v;
}

function toNumber(flag: string, o: OptionSpec, v: string, fail: (p: string) => never): number {
  const n = v.trim() === '' ? NaN : Number(v);
  const kind = o.type === 'integer' ? 'an integer' : 'a number';
  if (!Number.isFinite(n) || (o.type === 'integer' && !Number.isInteger(n))) fail(`${flag}: expected ${kind}, found "${v}"`);
  const lo = o.above !== undefined ? `> ${o.above}` : o.min !== undefined ? `≥ ${o.min}` : '';
  const bounds = [lo, o.max !== undefined ? `≤ ${o.max}` : ''].filter(Boolean).join(' and ');
  const inRange = !(o.above !== undefined && n <= o.above) && !(o.min !== undefined && n < o.min) && !(o.max !== undefined && n > o.max);
  if (!inRange) fail(`${flag}: expected ${kind} ${bounds}, found ${v}`);
  return n;
}

/** The command's sub-command name and the arguments after it; throws HelpRequest or UsageError. */
export function selectCommand<P extends ProgramSpec>(prog: P, argv: readonly string[]): { name: keyof P['commands'] & string; rest: string[] } {
  const [first, ...rest] = argv;
  const names = Object.keys(prog.commands);
  if (first === 'help' && rest[0] !== undefined && prog.commands[rest[0]]) throw new HelpRequest(formatHelp(prog.commands[rest[0]]!));
  if (first === '--help' || first === '-h' || first === 'help') throw new HelpRequest(formatProgramHelp(prog));
  if (first === undefined || first.startsWith('-')) throw new UsageError(prog.usage, `expected a command first (${names.join(', ')}), found ${first ?? 'nothing'}`);
  if (!prog.commands[first]) throw new UsageError(prog.usage, unknownMessage('command', first, names));
  return { name: first, rest };
}

// ---- usage text ------------------------------------------------------------------------------------------

function optionLeft(name: string, o: OptionSpec): string {
  const flag = `${o.short ? `-${o.short}, ` : ''}--${name}`;
  return o.type === 'boolean' ? flag : `${flag} <${o.value ?? (o.type === 'string' || o.type === 'list' ? 'value' : 'number')}>`;
}

function optionRight(o: OptionSpec): string {
  const extra: string[] = [];
  if (o.choices) extra.push(`${o.type === 'list' ? 'comma-separated, each one of' : 'one of'} ${o.choices.join(', ')}`);
  if (o.default !== undefined && o.type !== 'boolean') extra.push(`default ${Array.isArray(o.default) ? o.default.join(',') : String(o.default)}`);
  return extra.length ? `${o.help} (${extra.join('; ')})` : o.help;
}

function table(rows: [string, string][]): string[] {
  const w = Math.max(...rows.map(([l]) => l.length));
  return rows.map(([l, r]) => `  ${l.padEnd(w)}  ${r}`);
}

/** `--help` text of one command. */
export function formatHelp(spec: CommandSpec): string {
  const ps = spec.positionals ?? [];
  const opts: [string, OptionSpec][] = [...Object.entries(spec.options ?? {}), ['help', HELP]];
  const synopsis = [spec.usage, ...ps.map((p) => (p.optional ? `[<${p.name}>]` : `<${p.name}>`)), '[options]'].join(' ');
  const out = [`usage: ${synopsis}`, '', spec.summary, ...(spec.details ?? [])];
  if (ps.length) out.push('', 'arguments:', ...table(ps.map((p) => [`<${p.name}>`, p.help])));
  out.push('', 'options:', ...table(opts.map(([n, o]) => [optionLeft(n, o), optionRight(o)])));
  if (spec.examples?.length) out.push('', 'examples:', ...spec.examples.map((e) => `  ${e}`));
  return out.join('\n');
}

/** `--help` text of a program with sub-commands. */
export function formatProgramHelp(prog: ProgramSpec): string {
  const rows = Object.entries(prog.commands).map(([n, c]): [string, string] => [n, c.summary]);
  return [`usage: ${prog.usage} <command> [arguments] [options]`, '', prog.summary, '', 'commands:', ...table(rows), '', `${prog.usage} <command> --help shows a command's arguments and options.`].join('\n');
}
