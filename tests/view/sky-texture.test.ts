/**
 * The generated sky (src/systems/view/sky-texture.ts): the projection and its inverse agree; the texture's rim is
 * exactly the horizon colour (= the fog colour, so the far terrain meets the sky without a seam); the brightest
 * pixel lies toward the sun; and the clouds cover a part of the upper sky, neither none nor all of it.
 */
import { describe, expect, it } from 'vitest';
import { paintSky, skyDirection, skyUv } from '../../src/systems/view/sky-texture';
import { SKY_HORIZON, SKY_TOP, SUN_LIGHT_DIR } from '../../src/systems/view/scene';

const SIZE = 128;
const COLS = { top: [SKY_TOP.r, SKY_TOP.g, SKY_TOP.b], horizon: [SKY_HORIZON.r, SKY_HORIZON.g, SKY_HORIZON.b] } as const;
const SUN = [-SUN_LIGHT_DIR[0], -SUN_LIGHT_DIR[1], -SUN_LIGHT_DIR[2]] as const;
const px = paintSky(SIZE, SUN, COLS);
const at = (i: number, j: number): [number, number, number] => {
  const o = 4 * (j * SIZE + i);
  return [px[o]!, px[o + 1]!, px[o + 2]!];
};

describe('sky texture', () => {
  it('skyDirection inverts skyUv above the horizon', () => {
    for (const d of [[0.3, 0.8, -0.2], [-0.9, 0.1, 0.4], [0.01, 0.99, 0.02]] as const) {
      const l = Math.hypot(...d);
      const back = skyDirection(...skyUv(d[0], d[1], d[2]))!;
      for (let k = 0; k < 3; k++) expect(back[k]!).toBeCloseTo(d[k]! / l, 9);
    }
    // below the horizon maps onto the rim
    const [u, v] = skyUv(1, -0.5, 0);
    expect(Math.hypot(2 * u - 1, 2 * v - 1)).toBeCloseTo(1, 9);
  });

  it('outside the rim is the horizon (fog) colour to the byte, and the last ring inside meets it', () => {
    const want = COLS.horizon.map((c) => Math.round(c * 255));
    const spread = Math.max(...COLS.top.map((t, k) => Math.abs(t - COLS.horizon[k]!))) * 255;
    for (let j = 0; j < SIZE; j++)
      for (let i = 0; i < SIZE; i++) {
        const r = Math.hypot((2 * (i + 0.5)) / SIZE - 1, (2 * (j + 0.5)) / SIZE - 1);
        if (r > 1) expect(at(i, j)).toEqual(want);
        else if (r > 1 - 2 / SIZE) {
          // elevation ≤ (2 / SIZE)·(π/2): the gradient factor sqrt(sin e) bounds the step from the horizon colour
          const bound = Math.sqrt(Math.sin((2 / SIZE) * (Math.PI / 2))) * spread + 1;
          at(i, j).forEach((c, k) => expect(Math.abs(c - want[k]!)).toBeLessThanOrEqual(bound));
        }
      }
  });

  it('the sun is a white disc where the light comes from, brighter than the sky opposite it', () => {
    const [su, sv] = skyUv(...SUN);
    const sunPx = at(Math.floor(su * SIZE), Math.floor(sv * SIZE));
    for (const c of sunPx) expect(c).toBeGreaterThanOrEqual(250);
    // the same elevation on the other side of the sky: no glow there
    const [ou, ov] = skyUv(-SUN[0], SUN[1], -SUN[2]);
    const opp = at(Math.floor(ou * SIZE), Math.floor(ov * SIZE));
    expect(opp[0] + opp[1] + opp[2]).toBeLessThan(sunPx[0] + sunPx[1] + sunPx[2] - 60);
  });

  it('clouds cover part of the upper sky', () => {
    let cloudy = 0, n = 0;
    for (let j = 0; j < SIZE; j++)
      for (let i = 0; i < SIZE; i++) {
        const d = skyDirection((i + 0.5) / SIZE, (j + 0.5) / SIZE);
        if (!d || d[1] < 0.5) continue;
        const ang = Math.acos(d[0] * SUN[0] + d[1] * SUN[1] + d[2] * SUN[2]) ;
        if (ang < 0.6) continue; // away from the sun's glow
        n++;
        const [r, , b] = at(i, j);
        // clear sky is blue (b well above r); cloud is grey-white (r close to b)
        if (b - r < 40) cloudy++;
      }
    expect(cloudy / n).toBeGreaterThan(0.1);
    expect(cloudy / n).toBeLessThan(0.7);
  });
});
