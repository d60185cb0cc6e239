import { describe, expect, it } from 'vitest';
import { carJsonSchema, CarFileSchema } from '../../src/content/car-schema';
import { completeKeys, schemaAt, type JsonSchema } from '../../src/app/garage/schema-complete';

const schema = carJsonSchema() as JsonSchema;

describe('key completion from the car schema', () => {
  it('offers the keys of the table the cursor is in, minus those already written', () => {
    const text = '[suspension.front]\nspring_rate_n_per_mm = 30\ntra';
    const r = completeKeys(text, text.length, schema)!;
    expect(r.from).toBe(text.length - 3);
    const labels = r.options.map((o) => o.label);
    expect(labels).toContain('travel_mm');
    expect(labels).not.toContain('spring_rate_n_per_mm');
    // exactly the zod schema's keys
    const zodKeys = Object.keys(CarFileSchema.shape.suspension.shape.front.shape);
    expect(new Set([...labels, 'spring_rate_n_per_mm'])).toEqual(new Set(zodKeys));
    expect(r.options.find((o) => o.label === 'travel_mm')!.detail).toBe('number ≥ 30 ≤ 500 · required');
    expect(r.options.find((o) => o.label === 'bump_stop_gap_mm')!.detail).toBe('number ≥ 0 ≤ 200 · default 20');
  });

  it('follows dotted prefixes, offers headers inside [ ], and root keys incl. extends', () => {
    const t1 = '[drivetrain]\nfront_diff.';
    expect(completeKeys(t1, t1.length, schema)!.options.map((o) => o.label)).toEqual(['type', 'preload_nm', 'power_ramp', 'coast_ramp', 'viscous_nm_per_rad_s']);
    const t2 = 'name = "x"\n[susp';
    const h = completeKeys(t2, t2.length, schema)!;
    expect(h.from).toBe(t2.length - 4);
    expect(h.options.map((o) => o.label)).toContain('suspension.front');
    const t3 = 'na';
    const root = completeKeys(t3, 2, schema)!.options.map((o) => o.label);
    expect(root).toContain('extends');
    expect(root).toContain('name');
    expect(root).toContain('body');
    expect(completeKeys('name = "x', 9, schema)).toBeNull(); // inside a value: nothing
    expect(schemaAt(schema, ['setup', 'anything'])!.required).toEqual(['min', 'max', 'step']);
  });
});
