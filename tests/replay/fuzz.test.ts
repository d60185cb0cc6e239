/**
 * Property tests over hostile replay files (fast-check, seeded, 1,000 cases each):
 *  1. well-typed mutations of a real recorded replay (header fields, section lengths, counts, bytes, edits,
 *     embedded car text) are either refused with a ReplayFormatError naming the field, or verify (match or a
 *     reported desync) within the tick budget;
 *  2. decoding any byte string throws nothing but ReplayFormatError, and what it decodes to stays within a
 *     bound proportional to the payload (no declared expansion is ever allocated).
 * The replay is short (24 ticks, a recovery and a car swap) so that 1,000 verifications stay fast.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyCarText } from '../../src/app/garage/live-car';
import { vehicleCarAdapter } from '../../src/run/cars';
import { decodeReplay, openContainer, packReplay, ReplayFormatError, type ReplayData } from '../../src/replay/format';
import { recordRun } from '../../src/replay/record-run';
import { ScriptedDriver } from '../../src/replay/script';
import { verifyReplayData } from '../../src/replay/verify';
import { MAX_REPLAY_TICKS, SECTION_TAGS } from '../../src/replay/limits';
import { ByteWriter } from '../../src/replay/bytes';
import { hatchCar, SETUP } from './helpers';
import { flatInputs, jsonBytes, jsonOf, payloadOf, sectionsOf, type Sections } from './wire';

const RUNS = 1000;
const TICKS = 24;
/** The verifier's tick budget in these tests: a mutation may declare more ticks, it must then be refused. */
const BUDGET_CAR_TICKS = 4 * TICKS;

const base = hatchCar().files['hatch-gti.toml']!;
const softer = base.replace(/spring_rate_n_per_mm = 40\n/, 'spring_rate_n_per_mm = 35\n');
const rec = recordRun({
  setup: SETUP,
  cars: [hatchCar()],
  sources: [new ScriptedDriver(11)],
  maxSeconds: TICKS * SETUP.dt,
  checksumEveryTicks: 4,
  keyframeEverySeconds: 8 * SETUP.dt,
  adapter: vehicleCarAdapter,
  beforeTick: (run, r) => {
    if (run.world.tick === 6) {
      const pose = { x: 0.5, y: 0, z: 1, heading: 0.1 };
      vehicleCarAdapter.place(run.world, run.cars[0]!, pose);
      r.edit(0, pose);
    }
    if (run.world.tick === 13) expect(applyCarText({ world: run.world, eid: run.cars[0]!, carId: 'hatch-gti' }, softer, 'hatch-gti.toml').applied).toBe(true);
  },
});
const SECS = sectionsOf(rec.bytes);
const env = { stages: null, cars: vehicleCarAdapter, file: 'fuzz.bitrally', budget: { maxCarTicks: BUDGET_CAR_TICKS } };

// ---------- well-typed mutations of the sections ----------

type Mutation = (s: Sections) => Sections;
const clone = (s: Sections): Sections => s.map(([t, b]) => [t, b.slice()]);
const get = (s: Sections, tag: string): Uint8Array | undefined => s.find(([t]) => t === tag)?.[1];
const put = (s: Sections, tag: string, b: Uint8Array): Sections => s.map(([t, x]) => [t, t === tag ? b : x]);

/** JSON-ish values of every type the schemas meet, absurd ones included (JSON has no NaN/Infinity: null). */
const anyValue = fc.oneof(
  fc.constantFrom(0, -1, 1, 0.5, 1e-300, 1e300, -1e308, 2 ** 53, 2 ** 32, MAX_REPLAY_TICKS, MAX_REPLAY_TICKS + 1, 64, 65),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.string({ maxLength: 12 }),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
);

const HEADER_PATHS = [
  ['format'], ['simVersion'], ['name'], ['dt'], ['integrator'], ['seed'], ['gravity_m_s2'], ['ticks'], ['checksumEveryTicks'],
  ['keyframeEveryTicks'], ['stage'], ['ground'], ['ground', 'height_m'], ['cars'], ['result'], ['props'], ['propsTouchedTick'], ['marks'],
  ['cars', 0, 'id'], ['cars', 0, 'role'], ['cars', 0, 'main'], ['cars', 0, 'files'], ['cars', 0, 'pose', 'x'], ['cars', 0, 'pose', 'heading'],
] as const;

function setPath(root: unknown, path: readonly (string | number)[], v: unknown): void {
  let o = root as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) {
    o = o?.[k] as Record<string | number, unknown>;
    if (!o || typeof o !== 'object') return; // an earlier mutation replaced the parent
  }
  if (o && typeof o === 'object') o[path[path.length - 1]!] = v;
}

/** Applies `f` to the section's JSON value; a section already broken by an earlier byte mutation stays as it is. */
const jsonMutation = (tag: 'H' | 'E', f: (v: unknown) => unknown): Mutation => (s) => {
  let v: unknown;
  try {
    v = jsonOf(get(s, tag) ?? new Uint8Array(0));
    return put(s, tag, jsonBytes(f(v)));
  } catch {
    return s;
  }
};

const headerField: fc.Arbitrary<Mutation> = fc
  .tuple(fc.constantFrom(...HEADER_PATHS), anyValue)
  .map(([path, v]) => jsonMutation('H', (h) => (setPath(h, path, v), h)));

/** A numeric `key = value` line of the embedded car text scaled (absurd but well-typed), deleted or garbled. */
const carText: fc.Arbitrary<(text: string) => string> = fc.oneof(
  fc.tuple(fc.nat(), fc.constantFrom(0, -1, 1e-3, 0.5, 2, 1e3)).map(([k, f]) => (text: string) => {
    const lines = text.split('\n');
    const nums = lines.map((l, i) => (/^\s*[a-z_]+\s*=\s*-?\d/.test(l) ? i : -1)).filter((i) => i >= 0);
    const i = nums[k % nums.length]!;
    lines[i] = lines[i]!.replace(/=\s*(-?[\d.e+-]+)/, (_, n: string) => `= ${Number(n) * f}`);
    return lines.join('\n');
  }),
  fc.nat().map((k) => (text: string) => text.split('\n').filter((_, i, a) => i !== k % a.length).join('\n')),
  fc.tuple(fc.nat(), fc.string({ maxLength: 8 })).map(([k, g]) => (text: string) => text.slice(0, k % text.length) + g + text.slice(k % text.length)),
  fc.constantFrom((t: string) => `extends = "hatch-gti"\n${t}`, (t: string) => `extends = "../../../../etc/passwd"\n${t}`, () => ''),
);

const embeddedCar: fc.Arbitrary<Mutation> = fc.tuple(fc.boolean(), carText).map(([inEdit, f]) =>
  inEdit
    ? jsonMutation('E', (e) => {
        const cfg = (e as { kind: string; files: Record<string, string> }[]).find((x) => x?.kind === 'config');
        if (cfg && typeof cfg.files?.['hatch-gti.toml'] === 'string') cfg.files['hatch-gti.toml'] = f(cfg.files['hatch-gti.toml']);
        return e;
      })
    : jsonMutation('H', (h) => {
        const files = (h as ReplayData['header']).cars?.[0]?.files;
        if (typeof files?.['hatch-gti.toml'] === 'string') files['hatch-gti.toml'] = f(files['hatch-gti.toml']);
        return h;
      }),
);

const EDIT_FIELDS = ['tick', 'kind', 'car', 'pose', 'main', 'files'] as const;
const edits: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fc.nat(1), fc.constantFrom(...EDIT_FIELDS), anyValue).map(([i, k, v]) => jsonMutation('E', (e) => { const x = (e as Record<string, unknown>[])[i]; if (x && typeof x === 'object') x[k] = v; return e; })),
  fc.tuple(fc.nat(1), fc.integer({ min: 1, max: 300 })).map(([i, n]) => jsonMutation('E', (e) => { const a = e as unknown[]; return [...a, ...Array.from({ length: n }, () => a[i])]; })),
  fc.constant(jsonMutation('E', () => [])),
);

/** Rewrites the inputs section's leading counts (cars, ticks) or swaps in a flat section of declared size. */
const inputs: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fc.constantFrom(0, 1, 2, 64, 65, 2 ** 31), fc.constantFrom(0, TICKS - 1, TICKS, TICKS + 1, MAX_REPLAY_TICKS, 2 ** 40)).map(([cars, ticks]) => (s: Sections) => {
    const old = get(s, 'I');
    if (!old) return s;
    let p = 0;
    for (let k = 0; k < 2; k++) while (p < old.length && old[p++]! & 0x80);
    const w = new ByteWriter(16);
    w.uvar(cars);
    w.uvar(ticks);
    w.raw(old.subarray(p));
    return put(s, 'I', w.done());
  }),
  fc.tuple(fc.constantFrom(1, 2, 64), fc.constantFrom(TICKS, BUDGET_CAR_TICKS + 1, MAX_REPLAY_TICKS)).map(([cars, ticks]) => (s: Sections) =>
    put(jsonMutation('H', (h) => ({ ...(h as object), ticks, cars: Array.from({ length: cars }, () => (h as ReplayData['header']).cars?.[0]) }))(s), 'I', flatInputs(cars, ticks)),
  ),
);

/** Byte-level: flip, overwrite, truncate or extend one section; drop, duplicate or add a section. */
const bytes: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fc.constantFrom(...'HIECK'), fc.nat(), fc.integer({ min: 1, max: 255 })).map(([tag, at, x]) => (s: Sections) => {
    const b = get(s, tag)?.slice();
    if (b?.length) b[at % b.length] ^= x;
    return b ? put(s, tag, b) : s;
  }),
  fc.tuple(fc.constantFrom(...'HIECK'), fc.nat()).map(([tag, n]) => (s: Sections) => put(s, tag, (get(s, tag) ?? new Uint8Array(0)).subarray(0, n % ((get(s, tag)?.length ?? 0) + 1)))),
  fc.tuple(fc.constantFrom(...'HIECK'), fc.uint8Array({ minLength: 1, maxLength: 16 })).map(([tag, extra]) => (s: Sections) => put(s, tag, Uint8Array.from([...(get(s, tag) ?? []), ...extra]))),
  fc.constantFrom(...'HIECK').map((tag) => (s: Sections) => s.filter(([t]) => t !== tag)),
  fc.constantFrom(...'HIECK').map((tag) => (s: Sections) => [...s, [tag, get(s, tag) ?? new Uint8Array(0)]] as Sections),
  fc.tuple(fc.constantFrom(...'TPQZ\u0000'), fc.uint8Array({ maxLength: 64 })).map(([tag, b]) => (s: Sections) => [...s, [tag, b]] as Sections),
);

const mutation = fc.oneof(headerField, embeddedCar, edits, inputs, bytes);

/** Typed-array bytes a decoded replay holds (inputs, keyframes, stage files): bounded by the payload. */
function decodedBytes(d: ReplayData): number {
  let n = 0;
  for (const car of d.inputs.channels) for (const ch of car) n += ch.values.byteLength + ch.ends.byteLength;
  for (const k of d.keyframes) for (const c of k.snapshot.components) for (const col of c.fields.values()) n += col.byteLength + c.eids.byteLength;
  if (d.stageFiles) n += d.stageFiles.heightPng.byteLength + d.stageFiles.surfacePng.byteLength;
  return n;
}

function expectReplayError(e: unknown): void {
  if (!(e instanceof ReplayFormatError)) throw e;
  expect(e.field.length).toBeGreaterThan(0);
  expect(e.message.startsWith('fuzz.bitrally: ')).toBe(true);
}

describe('property tests over hostile replay files', () => {
  it('the recorded replay itself verifies (the mutations start from a good file)', async () => {
    const r = await verifyReplayData(decodeReplay(rec.bytes), env);
    expect(r.ok).toBe(true);
    expect(decodeReplay(rec.bytes).edits.map((e) => e.kind)).toEqual(['place', 'config']);
  });

  it(`well-typed mutations (${RUNS} cases): refused with a ReplayFormatError naming the field, or verified within the budget`, async () => {
    const outcomes = { refused: 0, verified: 0, desynced: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), async (ms) => {
        const payload = payloadOf(ms.reduce((s, m) => m(s), clone(SECS)));
        let d: ReplayData;
        try {
          d = decodeReplay(packReplay(payload, 0), 'fuzz.bitrally'); // stored, not deflated: fast
          expect(decodedBytes(d)).toBeLessThanOrEqual(4 * payload.length);
          const r = await verifyReplayData(d, env);
          expect(r.ticks).toBe(d.header.ticks); // ran to the end: within the tick budget, never stopped early
          expect(r.budgetExceeded).toBeNull();
          outcomes[r.ok ? 'verified' : 'desynced']++;
        } catch (e) {
          expectReplayError(e);
          outcomes.refused++;
        }
      }),
      { numRuns: RUNS, seed: 160_016 },
    );
    // the generators reach every outcome (else the property would say little)
    expect(Math.min(outcomes.refused, outcomes.verified, outcomes.desynced)).toBeGreaterThan(0);
  }, 300_000);

  it(`decoding any byte string (${RUNS} cases) throws nothing but ReplayFormatError and holds at most 4 bytes per payload byte`, () => {
    const payload0 = payloadOf(SECS);
    const anySections = fc.array(
      fc.tuple(fc.constantFrom(...SECTION_TAGS, 'Z', '\u00ff'), fc.oneof(fc.uint8Array({ maxLength: 256 }), fc.constantFrom(...SECS.map(([, b]) => b)))),
      { maxLength: 8 },
    );
    const lyingLength = fc.tuple(fc.nat(), fc.nat()).map(([at, len]) => {
      const p = payload0.slice();
      new DataView(p.buffer).setUint32(Math.min(at % p.length, p.length - 4), len, true);
      return p;
    });
    const flipped = fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })).map(([at, x]) => {
      const p = payload0.slice();
      p[at % p.length] ^= x;
      return p;
    });
    const payloads = fc.oneof(anySections.map((s) => payloadOf(s)), lyingLength, flipped, fc.uint8Array({ maxLength: 512 }));
    const files = fc.oneof(
      payloads.map((p) => packReplay(p, 0)), // valid container and CRC: the inner checks are reached
      fc.uint8Array({ maxLength: 256 }),
      fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })).map(([at, x]) => {
        const b = rec.bytes.slice();
        b[at % b.length] ^= x;
        return b;
      }),
    );
    let decoded = 0;
    fc.assert(
      fc.property(files, (file) => {
        try {
          const payload = openContainer(file, 'fuzz.bitrally');
          const d = decodeReplay(file, 'fuzz.bitrally');
          decoded++;
          expect(decodedBytes(d)).toBeLessThanOrEqual(4 * payload.length);
        } catch (e) {
          expectReplayError(e);
        }
      }),
      { numRuns: RUNS, seed: 16_160 },
    );
    expect(decoded).toBeGreaterThan(0); // some mutations (a flipped name, marks…) still decode: both branches run
  });
});
