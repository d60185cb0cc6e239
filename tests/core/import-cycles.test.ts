/**
 * No import cycle in src/ or terrain/ (docs/architecture.md "Layers"): a module never reaches itself through
 * its imports, type-only imports included (a type cycle still ties two files' meaning together).
 */
import { describe, expect, it } from 'vitest';
import madge from 'madge';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
/** madge resolves the TypeScript imports through the project's tsconfig (extensionless relative paths). */
const CONFIG = { baseDir: ROOT, fileExtensions: ['ts'], tsConfig: join(ROOT, 'tsconfig.json') };

describe('import cycles', () => {
  it('src/ and terrain/ have none', async () => {
    const res = await madge([join(ROOT, 'src'), join(ROOT, 'terrain')], CONFIG);
    const graph = res.obj();
    // The graph is real (resolution works): the world imports its types and the rigid-body state block.
    expect(Object.keys(graph).length).toBeGreaterThan(150);
    expect(graph['src/ecs/world.ts']).toEqual(
      expect.arrayContaining(['src/ecs/world-types.ts', 'src/ecs/rigid-body.ts']),
    );
    expect(res.circular().map((c) => c.join(' > '))).toEqual([]);
  });

  it('the check finds a cycle, type-only imports included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cycle-'));
    try {
      writeFileSync(join(dir, 'a.ts'), `import { b } from './b';\nexport const a = (): number => b + 1;\n`);
      writeFileSync(join(dir, 'b.ts'), `import type { T } from './c';\nexport const b: T = 1;\n`);
      writeFileSync(join(dir, 'c.ts'), `import { a } from './a';\nexport type T = ReturnType<typeof a>;\n`);
      const res = await madge(dir, { ...CONFIG, baseDir: dir });
      expect(res.circular()).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
