/**
 * Physical ranges for numeric keys of content files. Every number a user can load gets a documented closed
 * range [min, max] with its unit; the error names the range ("expected 1e-5 … 0.05 s, found number 1e-300").
 * Non-finite numbers (TOML `inf`, `nan`) are refused by z.number() itself.
 */
import { z } from 'zod';

/** Shortest readable form of a range bound (1e-5, 0.05, 100000). */
function fmt(v: number): string {
  return Math.abs(v) >= 1e6 || (v !== 0 && Math.abs(v) < 1e-3) ? v.toExponential().replace('e+', 'e') : String(v);
}

/** "1e-5 … 0.05 s": the text of a range, as errors and docs show it. */
export function rangeText(min: number, max: number, unit = ''): string {
  return `${fmt(min)} … ${fmt(max)}${unit ? ' ' + unit : ''}`;
}

/** A finite number in [min, max] (`unit` only labels the error). */
export function inRange(min: number, max: number, unit = ''): z.ZodNumber {
  return z.number().refine((v) => v >= min && v <= max, { message: `expected ${rangeText(min, max, unit)}` });
}

/** An integer in [min, max]. */
export function intInRange(min: number, max: number, unit = ''): z.ZodNumber {
  return z
    .number()
    .int()
    .refine((v) => v >= min && v <= max, { message: `expected an integer ${rangeText(min, max, unit)}` });
}

/** A tuple of `n` numbers, each in [min, max]. */
export function vecInRange<N extends 2 | 3 | 4>(n: N, min: number, max: number, unit = '') {
  const c = inRange(min, max, unit);
  return (n === 2 ? z.tuple([c, c]) : n === 3 ? z.tuple([c, c, c]) : z.tuple([c, c, c, c])) as N extends 2
    ? z.ZodTuple<[z.ZodNumber, z.ZodNumber], null>
    : N extends 3
      ? z.ZodTuple<[z.ZodNumber, z.ZodNumber, z.ZodNumber], null>
      : z.ZodTuple<[z.ZodNumber, z.ZodNumber, z.ZodNumber, z.ZodNumber], null>;
}

/** A string of at most `max` characters (ids, names, paths: a 1 MiB id is not a name). */
export function shortString(max: number, min = 0): z.ZodString {
  return z.string().min(min).max(max);
}
