import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';

/** ARCHITECTURE.md: the simulation is pure and headless. */
const SIM_DIRS = ['src/ecs', 'src/systems/sim', 'terrain'];
const FORBIDDEN_IMPORT = /from\s+['"](@babylonjs\/core|@babylonjs\/gui|@babylonjs\/materials|howler)(\/[^'"]*)?['"]|import\(\s*['"](@babylonjs\/core|howler)/;
const DOM = /\b(window|document)\s*\./;

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : /\.(ts|js|mjs)$/.test(p) ? [p] : [];
  });
}

/** Source without comments, so a comment that mentions `window.` is not a violation. */
function code(src: string): string {
  return src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

describe('import boundary', () => {
  const files = SIM_DIRS.flatMap(walk);
  it('finds the simulation sources', () => {
    expect(files.length).toBeGreaterThan(10);
  });
  it('no simulation file imports the renderer or audio, or touches window/document', () => {
    const bad: string[] = [];
    for (const f of files) {
      const src = code(readFileSync(f, 'utf8'));
      src.split('\n').forEach((line, i) => {
        if (FORBIDDEN_IMPORT.test(line) || DOM.test(line)) bad.push(`${f}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(bad).toEqual([]);
  });
  it('the checker itself catches violations', () => {
    expect(FORBIDDEN_IMPORT.test(`import { Scene } from '@babylonjs/core/scene';`)).toBe(true);
    expect(FORBIDDEN_IMPORT.test(`import { Howl } from "howler";`)).toBe(true);
    expect(DOM.test(code('const w = window.innerWidth;'))).toBe(true);
    expect(DOM.test(code('// window.innerWidth is not used'))).toBe(false);
  });
});
