import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { checkCarDraft, setupSliders } from '../../src/app/garage/car-draft';
import { CustomCars, MemoryBackend, nameInText } from '../../src/app/garage/custom-cars';
import { applyEdit, numberEdit, scanToml } from '../../src/app/garage/toml-spans';

const HATCH = readFileSync(new URL('./fixtures/test-hatch.toml', import.meta.url), 'utf8');
const FILE = 'test-hatch.toml';

describe('checkCarDraft: the game loader, with positions', () => {
  it('accepts the fixture and converts to SI once', () => {
    const r = checkCarDraft(HATCH, FILE);
    expect(r.ok).toBe(true);
    expect(r.config!.suspension.front.springRate).toBe(32_500); // 32.5 N/mm → N/m
  });

  it('underlines a bad value with the schema message', () => {
    const bad = HATCH.replace('spring_rate_n_per_mm = 32.5', 'spring_rate_n_per_mm = -3');
    const r = checkCarDraft(bad, FILE);
    expect(r.ok).toBe(false);
    expect(r.problems).toHaveLength(1);
    const p = r.problems[0]!;
    expect(bad.slice(p.from, p.to)).toBe('-3');
    expect(p.message).toBe('suspension.front.spring_rate_n_per_mm: expected 5 … 500 N/mm (physical range), found number -3');
  });

  it('underlines a misspelt key, a wrong type, a semantic error and a syntax error', () => {
    const bad = HATCH.replace('max_angle_deg = 32', 'max_angel_deg = 32').replace('final_drive = 4.1', 'final_drive = "4.1"').replace('idle_rpm = 900', 'idle_rpm = 9000');
    const r = checkCarDraft(bad, FILE);
    const at = r.problems.map((p) => bad.slice(p.from, p.to));
    expect(at).toContain('max_angel_deg');
    expect(at).toContain('"4.1"');
    expect(r.problems.find((p) => p.path === 'steering')!.message).toMatch(/unknown key "max_angel_deg"/);
    const syn = HATCH.replace('[brakes]', '[brakes');
    const s = checkCarDraft(syn, FILE);
    expect(s.ok).toBe(false);
    const line = syn.slice(0, s.problems[0]!.from).split('\n').length;
    expect(syn.split('\n')[line - 1]).toBe('[brakes');
    expect(s.problems[0]!.message).toMatch(/^TOML syntax error at line \d+, column \d+/);
    // semantic check (after the schema passed): the stall speed must be below idle
    const sem = checkCarDraft(HATCH.replace('idle_rpm = 900', 'idle_rpm = 900\nstall_rpm = 1000'), FILE);
    expect(sem.problems.map((p) => p.message)).toContain('engine.stall_rpm: expected < idle_rpm (900), found number 1000');
  });

  it('problems in an extended file point at the extends line', () => {
    const child = 'extends = "base.toml" # base car\nname = "Child"\n';
    const r = checkCarDraft(child, 'child.toml', () => HATCH.replace('mass_kg = 1150', 'mass_kg = 0'));
    expect(r.ok).toBe(false);
    expect(child.slice(r.problems[0]!.from, r.problems[0]!.to)).toBe('"base.toml"');
    expect(r.problems[0]!.message).toBe('body.mass_kg: expected 400 … 4000 kg (physical range), found number 0 (inherited through extends)');
    const ok = checkCarDraft(child, 'child.toml', () => HATCH);
    expect(ok.ok).toBe(true);
    expect(ok.config!.name).toBe('Child');
  });
});

describe('setup sliders ↔ text', () => {
  it('lists ranges with current values (written, inherited or schema default)', () => {
    const s = setupSliders(HATCH)!;
    expect(s.map((x) => [x.key, x.value, x.written])).toEqual([
      ['suspension.front.spring_rate_n_per_mm', 32.5, true],
      ['suspension.rear.spring_rate_n_per_mm', 28, true],
      ['brakes.front_bias', 0.65, true],
      ['tires.front.grip', 1, false], // schema default
    ]);
    expect(setupSliders('name = "x"\n[setup\n')).toBeNull();
  });

  it('slider → text → loader: the config carries the slider value, comments unchanged', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(3), fc.double({ min: 0, max: 1, noNaN: true })), { minLength: 1, maxLength: 12 }), (moves) => {
        let text = HATCH;
        for (const [k, u] of moves) {
          const s = setupSliders(text)![k]!;
          text = applyEdit(text, numberEdit(text, s.path, s.min + u * (s.max - s.min), s.step, s.min));
          const back = setupSliders(text)![k]!;
          expect(back.written).toBe(true);
          expect(Math.abs(back.value! - (s.min + u * (s.max - s.min)))).toBeLessThanOrEqual(s.step / 2 + 1e-9);
        }
        const r = checkCarDraft(text, FILE);
        expect(r.ok).toBe(true);
        const sl = setupSliders(text)!;
        expect(r.config!.suspension.front.springRate).toBeCloseTo(sl[0]!.value! * 1000, 6);
        expect(r.config!.brakes.frontBias).toBe(sl[2]!.value);
        expect(r.config!.tires.front.grip).toBe(sl[3]!.value);
        const comments = (t: string): string[] => t.split('\n').filter((l) => l.includes('#')).map((l) => l.slice(l.indexOf('#')));
        expect(comments(text)).toEqual(comments(HATCH));
      }),
      { numRuns: 60 },
    );
  });
});

describe('custom cars: drafts never replace the drivable car', () => {
  it('save, invalid save → draft, duplicate, rename, export, import, delete', async () => {
    const store = new CustomCars(new MemoryBackend());
    const a = await store.save(null, HATCH, { basedOn: 'test-hatch' });
    expect(a.valid).toBe(true);
    expect(a.record.id).toBe('custom-test-hatch');
    const bad = HATCH.replace('spring_rate_n_per_mm = 32.5', 'spring_rate_n_per_mm = 0');
    const b = await store.save(a.record.id, bad);
    expect(b.valid).toBe(false);
    expect(b.record.text).toBe(HATCH);
    expect(b.record.draft).toBe(bad);
    expect(CustomCars.editText(b.record)).toBe(bad);
    expect(store.drivableConfig(b.record)!.suspension.front.springRate).toBe(32_500);
    const dup = await store.duplicate(a.record.id);
    expect(dup.id).toBe('custom-test-hatch-copy');
    expect(nameInText(dup.text!)).toBe('Test Hatch copy');
    const ren = await store.rename(dup.id, 'Gravel "Special"');
    expect(ren.id).toBe(dup.id);
    expect(checkCarDraft(ren.text!, 'x.toml').config!.name).toBe('Gravel "Special"');
    expect(ren.text!.split('\n')[0]).toBe(HATCH.split('\n')[0]); // comment line kept
    const ex = CustomCars.exportToml(ren);
    expect(ex.fileName).toBe(`${ren.id}.toml`);
    const imp = await store.importToml('my.toml', ex.text);
    expect(imp.valid).toBe(true);
    expect(imp.record.name).toBe('Gravel "Special"');
    expect(imp.record.id).toBe('custom-gravel-special');
    const impBad = await store.importToml('broken.toml', 'name = "Broken"\n[body]\nmass_kg = -1\n');
    expect(impBad.valid).toBe(false);
    expect(impBad.record.text).toBeNull();
    expect(store.drivableConfig(impBad.record)).toBeNull();
    await store.remove(dup.id);
    expect((await store.list()).map((r) => r.id)).toEqual(['custom-broken', 'custom-gravel-special', 'custom-test-hatch']);
  });

  it('property: any corrupted save leaves the drivable config identical', async () => {
    const store = new CustomCars(new MemoryBackend());
    const { record } = await store.save(null, HATCH);
    const ref = JSON.stringify(store.drivableConfig(record));
    const spans = scanToml(HATCH).values.filter((v) => v.kind === 'number');
    const junk = fc.oneof(fc.constantFrom('-1', '0', '"x"', 'nan', '-inf', '1e400', '[]', '{}', 'true', '', '==', '1 2'), fc.string({ maxLength: 6 }));
    await fc.assert(
      fc.asyncProperty(fc.nat(spans.length - 1), junk, async (k, lit) => {
        const v = spans[k]!;
        const text = HATCH.slice(0, v.from) + lit + HATCH.slice(v.to);
        const r = await store.save(record.id, text);
        const cur = (await store.backend.get(record.id))!;
        if (r.valid) {
          // accepted edits are schema-valid cars (e.g. 0 where ≥ 0 is allowed)
          expect(checkCarDraft(text, 'x.toml').ok).toBe(true);
          expect(cur.text).toBe(text);
          await store.save(record.id, HATCH);
        } else {
          expect(cur.draft).toBe(text);
          expect(JSON.stringify(store.drivableConfig(cur))).toBe(ref);
        }
      }),
      { numRuns: 150 },
    );
  });
});
