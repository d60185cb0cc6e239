/**
 * `npm run stage -- pacenotes <dir> [--regenerate]`, spawned (real exit codes and streams): writes the notes of a
 * stage without any, checks a valid file, refuses a bad one with file/key/expected/found and exit 2, keeps
 * hand-edited notes on --regenerate; --help exits 0 and a typo exits 2 with a suggestion.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePaceNotes } from '../../terrain/pacenotes/file';
import { spawnCli, type Ran } from './spawn';

const tmp = mkdtempSync(join(tmpdir(), 'bitrally-pacenotes-'));
const dir = join(tmp, 'test-short');
cpSync('src/content/stages/test-short', dir, { recursive: true });
const notesPath = join(dir, 'pacenotes.toml');

const stageCli = (args: string[]): Promise<Ran> => spawnCli('src/cli/stage.ts', ['pacenotes', ...args]);

describe('npm run stage -- pacenotes', () => {
  it('--help exits 0 with the usage; a typo exits 2 with "did you mean"', async () => {
    const help = await stageCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm run stage -- pacenotes <dir> \[options\]/);
    expect(help.stdout).toContain('--regenerate');
    const typo = await stageCli([dir, '--regenrate']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('unknown option --regenrate; did you mean --regenerate?');
  }, 60_000);

  it('writes the notes of a stage without any, then checks them; a bad file: file, key, expected, found, exit 2', async () => {
    rmSync(notesPath);
    const write = await stageCli([dir]);
    expect(write.code, write.stderr).toBe(0);
    const shipped = readFileSync('src/content/stages/test-short/pacenotes.toml', 'utf8');
    expect(readFileSync(notesPath, 'utf8')).toBe(shipped);
    const check = await stageCli([dir]);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain('is valid');
    writeFileSync(notesPath, shipped.replace('severity = 2', 'severity = 9').replace('kind = "feature"', 'kind = "bump"'));
    const bad = await stageCli([dir, '--regenerate']);
    expect(bad.code).toBe(2);
    const lines = bad.stderr.trim().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^${notesPath.replace(/[.]/g, '\\.')}: note\\[0\\]\\.severity: expected 1 … 6, "hairpin" or "square", found number 9$`));
    expect(lines.some((l) => /: note\[\d+\]\.kind: expected one of "corner", "feature", found "bump"$/.test(l)), bad.stderr).toBe(true);
    expect(bad.stderr).not.toMatch(/^\s+at /m);
    expect(readFileSync(notesPath, 'utf8')).toContain('severity = 9'); // a refused file is left as it was
  }, 60_000);

  it('--regenerate keeps a hand-edited note and regenerates the others', async () => {
    const shipped = readFileSync('src/content/stages/test-short/pacenotes.toml', 'utf8');
    // the first note made a 3, marked edited; a later generated note made stale (a 6)
    const first = shipped.indexOf('severity = 2');
    let edited = shipped.slice(0, first) + 'severity = 3' + shipped.slice(first + 'severity = 2'.length).replace('origin = "generated"', 'origin = "edited"');
    edited = edited.replace('severity = "square"', 'severity = 6');
    writeFileSync(notesPath, edited);
    const r = await stageCli([dir, '--regenerate']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('1 edited');
    const notes = parsePaceNotes(readFileSync(notesPath, 'utf8'), notesPath, 'test-short');
    const fresh = parsePaceNotes(shipped, 'shipped', 'test-short');
    expect(notes[0]).toMatchObject({ severity: 3, origin: 'edited' });
    expect(notes.slice(1)).toEqual(fresh.slice(1));
    expect(existsSync(join(dir, 'stage.toml'))).toBe(true);
  }, 60_000);
});
