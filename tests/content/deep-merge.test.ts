/** The one deep merge of car tables (`extends` in car-load.ts and the garage's draft view). */
import { describe, it, expect } from 'vitest';
import { deepMerge } from '../../src/content/car-load';
import { mergedData } from '../../src/app/garage/car-draft';

describe('deepMerge', () => {
  it('merges tables key by key; arrays and scalars in the override replace; inputs are not changed', () => {
    const base = { mass_kg: 1200, tires: { front: { radius_m: 0.3, width_m: 0.2 } }, gears: [3.5, 2.1, 1.4] };
    const over = { tires: { front: { radius_m: 0.32 } }, gears: [3.2], name: 'x' };
    const before = JSON.stringify(base);
    expect(deepMerge(base, over)).toEqual({ mass_kg: 1200, tires: { front: { radius_m: 0.32, width_m: 0.2 } }, gears: [3.2], name: 'x' });
    expect(JSON.stringify(base)).toBe(before);
  });

  it('a table replaces a scalar and a scalar replaces a table', () => {
    expect(deepMerge({ a: 1, b: { c: 2 } }, { a: { d: 3 }, b: 4 })).toEqual({ a: { d: 3 }, b: 4 });
  });

  it("the garage's draft view merges `extends` the same way", () => {
    const files: Record<string, string> = { 'base.toml': 'mass_kg = 1200\n[tires.front]\nradius_m = 0.3\nwidth_m = 0.2\n' };
    const merged = mergedData('extends = "base.toml"\n[tires.front]\nradius_m = 0.32\n', (name) => files[name]!);
    expect(merged).toEqual({ mass_kg: 1200, tires: { front: { radius_m: 0.32, width_m: 0.2 } } });
  });
});
