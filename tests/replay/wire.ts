/**
 * Test tools for hostile replay files: split a payload into its sections and put one back together, so a test
 * can replace one section (or lie about its length) and still reach the inner checks (valid container, CRC).
 */
import { expect } from 'vitest';
import { openContainer, packReplay } from '../../src/replay/format';
import { ReplayFormatError } from '../../src/replay/bytes';
import { ByteWriter } from '../../src/replay/bytes';
import { encodeCarInputs } from '../../src/replay/input-codec';

export type Sections = [tag: string, bytes: Uint8Array][];

export function sectionsOf(file: Uint8Array): Sections {
  const p = openContainer(file, 'test');
  const out: Sections = [];
  const dv = new DataView(p.buffer, p.byteOffset, p.byteLength);
  for (let i = 0; i < p.length; ) {
    const tag = String.fromCharCode(p[i]!);
    const len = dv.getUint32(i + 1, true);
    out.push([tag, p.slice(i + 5, i + 5 + len)]);
    i += 5 + len;
  }
  return out;
}

export function payloadOf(sections: Sections): Uint8Array {
  const w = new ByteWriter(1024);
  for (const [tag, b] of sections) {
    w.u8(tag.charCodeAt(0));
    w.u32(b.length);
    w.raw(b);
  }
  return w.done();
}

/** A file with valid container and CRC around these sections (fast deflate). */
export function fileOf(sections: Sections): Uint8Array {
  return packReplay(payloadOf(sections), 1);
}

/** The same sections with one replaced. */
export function withSection(sections: Sections, tag: string, bytes: Uint8Array): Sections {
  return sections.map(([t, b]) => [t, t === tag ? bytes : b]);
}

export function section(sections: Sections, tag: string): Uint8Array {
  return sections.find(([t]) => t === tag)![1];
}

const te = new TextEncoder();
const td = new TextDecoder();
export const jsonBytes = (v: unknown): Uint8Array => te.encode(JSON.stringify(v));
export const jsonOf = (b: Uint8Array): unknown => JSON.parse(td.decode(b)) as unknown;

/**
 * An inputs section (format 5): `cars` cars, `ticks` ticks, every channel held at 0 for every tick: one car
 * stream coded once and repeated (≈ 0.0007 bit per held tick: 7.2 M ticks take ≈ 900 bytes per car).
 */
export function flatInputs(cars: number, ticks: number): Uint8Array {
  const w = new ByteWriter(64);
  w.uvar(cars);
  w.uvar(ticks);
  const flat = { values: Int32Array.of(0), ends: Int32Array.of(ticks) };
  const one = encodeCarInputs(Array.from({ length: 6 }, () => flat), ticks);
  for (let i = 0; i < cars; i++) {
    w.uvar(one.length);
    w.raw(one);
  }
  return w.done();
}

/** The ReplayFormatError `f` throws (the test fails when it throws something else or nothing). */
export function refusal(f: () => unknown): ReplayFormatError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ReplayFormatError);
    return e as ReplayFormatError;
  }
  throw new Error('expected a ReplayFormatError');
}
