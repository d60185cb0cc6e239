/**
 * Pixel helpers for the livery checks (cars.spec.mjs) and the spray visibility check (dressing.spec.mjs): hue and
 * chroma of a pixel, a car file's primary hue, and the screen box the chase camera frames the car in.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decode } from 'fast-png';
import { root } from './serve.mjs';

/** A pixel counts as paint when its chroma (max − min of r, g, b in 0..1) is at least this: livery colours are
 * 0.6–0.85, gravel, grass, sky and shadows stay under 0.3. */
export const MIN_CHROMA = 0.35;
/** The dominant hue may differ from the file's colour by this much under the scene's light (sun, sky fill). */
export const HUE_TOLERANCE_DEG = 25;
/** The chase camera frames the car in the middle of the lower half of the view, down to the bottom edge (x0, x1, y0, y1 as fractions). */
export const CHASE_BOX = [0.36, 0.64, 0.5, 1];

export function hueOf(r, g, b) {
  const mx = Math.max(r, g, b);
  const mn = Math.min(r, g, b);
  const c = mx - mn;
  if (c === 0) return { h: 0, c };
  let h;
  if (mx === r) h = ((g - b) / c) % 6;
  else if (mx === g) h = (b - r) / c + 2;
  else h = (r - g) / c + 4;
  return { h: (h * 60 + 360) % 360, c };
}
export const hueDist = (a, b) => Math.min(Math.abs(a - b), 360 - Math.abs(a - b));

/** The car's primary colour from its file (the `[look]` table). */
export function primaryOf(id) {
  const text = readFileSync(join(root, 'src/content/cars', `${id}.toml`), 'utf8');
  const m = /\[look\][\s\S]*?primary\s*=\s*"#([0-9a-fA-F]{6})"/.exec(text);
  if (!m) throw new Error(`${id}.toml has no [look] primary`);
  const v = parseInt(m[1], 16);
  return hueOf(((v >> 16) & 255) / 255, ((v >> 8) & 255) / 255, (v & 255) / 255).h;
}

/** Pixels in the box (fractions of the image) of a PNG that are paint of hue `hue` (within the tolerance). */
export function paintPixels(png, box, hue) {
  const img = decode(png);
  const ch = img.channels;
  const [x0, x1, y0, y1] = [Math.round(box[0] * img.width), Math.round(box[1] * img.width), Math.round(box[2] * img.height), Math.round(box[3] * img.height)];
  let n = 0;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const i = (y * img.width + x) * ch;
      const { h, c } = hueOf(img.data[i] / 255, img.data[i + 1] / 255, img.data[i + 2] / 255);
      if (c >= MIN_CHROMA && hueDist(h, hue) <= HUE_TOLERANCE_DEG) n++;
    }
  return n;
}

/** Pixels of two same-size PNGs whose r, g or b differ by more than `minDelta` (0..255). */
export function changedPixels(pngA, pngB, minDelta) {
  const a = decode(pngA);
  const b = decode(pngB);
  let n = 0;
  for (let p = 0; p < a.width * a.height; p++)
    for (let k = 0; k < 3; k++)
      if (Math.abs(a.data[p * a.channels + k] - b.data[p * b.channels + k]) > minDelta) {
        n++;
        break;
      }
  return n;
}
