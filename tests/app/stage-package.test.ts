/**
 * Stage packages (src/app/stage-gen/package.ts): a stage exports to one zip and imports back to the same files and
 * content hash; hostile files (truncated, a 1 GiB declared size, a zip bomb lying about its size, a wrong version,
 * a zip that is no stage package, changed files) are refused with one ContentError line and nothing is saved;
 * random damage and random bytes only ever give a ContentError (fast-check).
 */
import fc from 'fast-check';
import { deflateSync, strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { exportStagePackage, importStagePackage, importStagePackageInto, MAX_STAGE_PACKAGE_BYTES } from '../../src/app/stage-gen/package';
import { stagePreview } from '../../src/app/stage-gen/preview';
import type { StoredStageData } from '../../src/app/stage-gen/stage-db';
import { stageHash } from '../../src/replay/stage-check';
import { ContentError } from '../../src/validate/errors';
import { GENERATOR_VERSION, generateStage } from '../../terrain/generate';

const g = generateStage({ seed: 7, lengthKm: 0.6, surface: 'gravel', size: 257, relief: 0.05, id: 'gen-test', name: 'Package test' });
const STAGE: StoredStageData = { id: 'gen-test', name: 'Package test', params: null, generatorVersion: GENERATOR_VERSION, files: { ...g.files, paceNotesToml: g.files.paceNotesToml! }, hash: stageHash(g.files), preview: stagePreview(g.stage) };
const PKG = exportStagePackage(STAGE);

/** The one-line message of the ContentError `f` throws (fails the test for anything else). */
function refusal(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ContentError);
    expect((e as ContentError).issues).toHaveLength(1);
    return (e as Error).message;
  }
  throw new Error('expected a refusal, the package was accepted');
}

/** Offset of `name`'s central-directory header in a zip. */
function centralHeader(zip: Uint8Array, name: string): number {
  const v = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const want = strToU8(name);
  for (let p = 0; p + 46 < zip.length; p++) {
    if (v.getUint32(p, true) !== 0x02014b50 || v.getUint16(p + 28, true) !== want.length) continue;
    if (want.every((c, i) => zip[p + 46 + i] === c)) return p;
  }
  throw new Error(`no central header for ${name}`);
}

/** A package with its entries replaced or added (the others as exported). */
function repack(entries: Record<string, Uint8Array>): Uint8Array {
  const base: Record<string, Uint8Array> = {
    'manifest.json': strToU8(JSON.stringify({ format: 'bitrally-stage-package', version: 1, id: STAGE.id, name: STAGE.name, hash: STAGE.hash })),
    'stage.toml': strToU8(STAGE.files.stageToml),
    'height.png': STAGE.files.heightPng,
    'surface.png': STAGE.files.surfacePng,
  };
  return zipSync({ ...base, ...entries });
}

describe('stage packages', () => {
  it('export → import gives back the same files and content hash; the same stage always exports to the same bytes', () => {
    const back = importStagePackage(PKG, 'p.zip');
    expect(back.hash).toBe(STAGE.hash);
    expect(back.files.stageToml).toBe(STAGE.files.stageToml);
    expect(back.files.heightPng).toEqual(STAGE.files.heightPng);
    expect(back.files.surfacePng).toEqual(STAGE.files.surfacePng);
    expect(back.files.paceNotesToml).toBe(STAGE.files.paceNotesToml);
    expect([back.id, back.name, back.generatorVersion, back.params]).toEqual(['gen-test', 'Package test', GENERATOR_VERSION, null]);
    expect(back.preview).toEqual(STAGE.preview);
    expect(exportStagePackage(STAGE)).toEqual(PKG);
  });

  it('a truncated package is refused as cut short', () => {
    for (const n of [PKG.length - 1, PKG.length - 30, Math.floor(PKG.length / 2), 10]) expect(refusal(() => importStagePackage(PKG.slice(0, n), 't.zip'))).toMatch(/^t\.zip: .*(cut short|no zip directory)/);
  });

  it('an entry declaring 1 GiB is refused before inflating, naming the entry and the cap', () => {
    const bad = PKG.slice();
    new DataView(bad.buffer).setUint32(centralHeader(bad, 'height.png') + 24, 2 ** 30, true);
    expect(refusal(() => importStagePackage(bad, 'big.zip'))).toBe('big.zip: height.png: declared size expected at most 32.0 MiB, found 1024.0 MiB (refused before inflating)');
  });

  it('a zip bomb that declares a small size is stopped one byte past it', () => {
    const bomb = repack({ 'stage.toml': new Uint8Array(0) });
    // replace stage.toml's data by 4 MiB of deflated zeros while its headers still say 0 bytes
    const zeros = deflateSync(new Uint8Array(4 * 1048576), { level: 9 });
    const p = centralHeader(bomb, 'stage.toml');
    const v = new DataView(bomb.buffer);
    const local = v.getUint32(p + 42, true);
    expect(v.getUint16(p + 10, true)).toBe(8); // deflate, as fflate writes it
    const stored = v.getUint32(p + 20, true);
    expect(zeros.length).toBeGreaterThan(stored);
    const start = local + 30 + v.getUint16(local + 26, true) + v.getUint16(local + 28, true);
    const out = new Uint8Array(bomb.length - stored + zeros.length);
    out.set(bomb.subarray(0, start));
    out.set(zeros, start);
    out.set(bomb.subarray(start + stored), start + zeros.length);
    const ov = new DataView(out.buffer);
    const shift = zeros.length - stored;
    ov.setUint32(p + shift + 20, zeros.length, true); // the compressed size is honest, the size is not
    ov.setUint32(out.length - 22 + 16, v.getUint32(bomb.length - 22 + 16, true) + shift, true); // directory moved
    for (const name of ['height.png', 'surface.png', 'manifest.json']) {
      const q = centralHeader(out, name);
      const lo = ov.getUint32(q + 42, true);
      if (lo > local) ov.setUint32(q + 42, lo + shift, true);
    }
    expect(refusal(() => importStagePackage(out, 'bomb.zip'))).toMatch(/^bomb\.zip: stage\.toml: expected 0 bytes \(its declared size\), found more \(a zip bomb/);
  });

  it('a package of another version is refused naming the version this game reads', () => {
    const v2 = repack({ 'manifest.json': strToU8(JSON.stringify({ format: 'bitrally-stage-package', version: 2, id: STAGE.id, name: STAGE.name, hash: STAGE.hash })) });
    expect(refusal(() => importStagePackage(v2, 'v2.zip'))).toBe('v2.zip: manifest.json: version: expected 1 (the stage package version this game reads), found 2');
  });

  it('a zip that is not a stage package is refused naming what it holds', () => {
    const other = zipSync({ 'readme.txt': strToU8('hello'), 'photo.jpg': new Uint8Array(100) });
    expect(refusal(() => importStagePackage(other, 'holiday.zip'))).toBe('holiday.zip: (whole file): expected a BitRally stage package (manifest.json, stage.toml, height.png, surface.png, pacenotes.toml), found a zip holding "readme.txt"');
    expect(refusal(() => importStagePackage(strToU8('just some text, not a zip at all'), 'notes.txt'))).toMatch(/no zip directory/);
  });

  it('refuses a file over the size cap before reading it, changed files (hash), and a stage with a shipped id', async () => {
    expect(refusal(() => importStagePackage(new Uint8Array(MAX_STAGE_PACKAGE_BYTES + 1), 'huge.zip'))).toBe('huge.zip: file size: expected at most 48 MiB (a stage package), found 48.0 MiB');
    const edited = repack({ 'stage.toml': strToU8(STAGE.files.stageToml.replace('name = "Package test"', 'name = "Edited"')) });
    expect(refusal(() => importStagePackage(edited, 'e.zip'))).toMatch(/^e\.zip: manifest\.json: hash: expected the content hash of the stage files/);
    const saved: StoredStageData[] = [];
    const target = { save: async (s: StoredStageData) => void saved.push(s), isShippedId: (id: string) => id === 'gen-test' };
    await expect(importStagePackageInto(PKG, 'p.zip', target)).rejects.toThrow(/id: expected an id no shipped stage has, found "gen-test"/);
    expect(saved).toHaveLength(0);
  });

  it('nothing is saved for any refused file; a good one is saved once', async () => {
    const saved: StoredStageData[] = [];
    const target = { save: async (s: StoredStageData) => void saved.push(s), isShippedId: () => false };
    for (const bad of [PKG.slice(0, 100), repack({ 'manifest.json': strToU8('{"version": 3}') }), zipSync({ 'a.txt': strToU8('a') })]) {
      await expect(importStagePackageInto(bad, 'bad.zip', target)).rejects.toBeInstanceOf(ContentError);
    }
    expect(saved).toHaveLength(0);
    await importStagePackageInto(PKG, 'p.zip', target);
    expect(saved.map((s) => s.hash)).toEqual([STAGE.hash]);
  });

  it('random damage (truncation, byte changes) and random bytes give the same stage or a ContentError, nothing else', () => {
    const damaged = fc.record({
      cut: fc.integer({ min: 0, max: PKG.length }),
      flips: fc.array(fc.tuple(fc.integer({ min: 0, max: PKG.length - 1 }), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 4 }),
    });
    fc.assert(
      fc.property(damaged, ({ cut, flips }) => {
        const b = PKG.slice(0, Math.max(cut, PKG.length - 200));
        for (const [i, x] of flips) if (i < b.length) b[i]! ^= x;
        try {
          expect(importStagePackage(b, 'x.zip').hash).toBe(STAGE.hash); // a flip in a time stamp or the zip comment
        } catch (e) {
          expect(e).toBeInstanceOf(ContentError);
        }
      }),
      { numRuns: 150, seed: 20 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), (bytes) => {
        expect(() => importStagePackage(bytes, 'r.zip')).toThrow(ContentError);
      }),
      { numRuns: 300, seed: 21 },
    );
  });
});
