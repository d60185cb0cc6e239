/**
 * Road-edge dressing (terrain/forest.ts): the forest's density follows the road edge. On a straight 3 km road
 * (band areas exact), the trees per band of distance from the edge match the profile's integral: each
 * candidate cell is kept with probability density · S² · (clearing × patch factors), and those factors do not
 * depend on the distance from the edge, so (trees in band b) / (trees in the wall) = ∫_b density / ∫_wall density,
 * within 3 Poisson standard deviations. Nothing stands on the verge or near a station; clearings leave stretches
 * of the wall empty. On the shipped snow-ridge stage: the same verge rule, marker posts at their spacing and
 * offset, and a collider for every tree, rock and post within reach of the road.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Road } from '../../terrain/road';
import { edgePosts, forestDensity, forestGridM, nearStation, scatterForest, STATION_GAP_M, type ForestInput, type ForestProfile } from '../../terrain/forest';
import { loadStageFromDir } from '../../terrain/node';
import { fromScenery } from '../../src/systems/sim/collision/scene';
import { DEFAULT_DITCH, ditchOuterM } from '../../terrain/ditch';

const PROFILE: ForestProfile = { clearM: 3.5, wallM: 12, wallDensity: 1 / 36, farDensity: 1 / 400, decayM: 15, bandM: 70 };
const HALF_W = 3.5;
const ROAD_M = 3000;

/** A straight road along +z through the middle of a 3.2 km map. */
function straightInput(seed: number): ForestInput {
  const road = Road.fromControlPoints([[0, -ROAD_M / 2], [0, 0], [0, ROAD_M / 2]], 2 * HALF_W, () => 0);
  return { seed, road, halfWidthM: HALF_W, ox: -1600, oz: -1600, side: 3200, stationsM: [], profile: PROFILE, rocks: { edgeBandM: 4, edgeProb: 0.05, woodsProb: 0.01 } };
}

/** ∫ forestDensity over [a, b] from the road edge (midpoint rule, 1 cm steps: the profile is smooth per piece). */
function densityIntegral(a: number, b: number): number {
  const h = 0.01;
  let s = 0;
  for (let e = a + h / 2; e < b; e += h) s += forestDensity(e, PROFILE) * h;
  return s;
}

/** Distance from the road edge of a straight road's item, m (the road is the z axis). */
const edgeOf = (it: readonly number[]): number => Math.abs(it[0]!) - HALF_W;

describe('forest density across the road', () => {
  it('is 0 on the verge and past the band, the wall density across the wall, then decays to the far density', () => {
    expect(forestDensity(PROFILE.clearM - 0.01, PROFILE)).toBe(0);
    expect(forestDensity(PROFILE.clearM, PROFILE)).toBe(PROFILE.wallDensity);
    expect(forestDensity(PROFILE.clearM + PROFILE.wallM, PROFILE)).toBe(PROFILE.wallDensity);
    const past = PROFILE.clearM + PROFILE.wallM + PROFILE.decayM;
    // one e-folding length past the wall: far + (wall − far)/e
    expect(forestDensity(past, PROFILE)).toBeCloseTo(PROFILE.farDensity + (PROFILE.wallDensity - PROFILE.farDensity) / Math.E, 12);
    expect(forestDensity(PROFILE.bandM + 0.01, PROFILE)).toBe(0);
    // one candidate per grid cell at the wall's density: acceptance density · S² ≤ 1 everywhere
    expect(PROFILE.wallDensity * forestGridM(PROFILE) ** 2).toBeCloseTo(1, 12);
  });

  const f = straightInput(3101);
  const { trees, rocks } = scatterForest(f);
  // the last 50 m at each end are left out (the band there wraps round the road's ends)
  const inStraight = (it: readonly number[]): boolean => Math.abs(it[1]!) < ROAD_M / 2 - 90;

  it('is deterministic', () => {
    const again = scatterForest(straightInput(3101));
    expect(again.trees).toEqual(trees);
    expect(again.rocks).toEqual(rocks);
    expect(scatterForest(straightInput(3102)).trees).not.toEqual(trees);
  });

  it('keeps the verge clear: no tree or rock closer to the road edge than clearM (0.1 m rounding)', () => {
    for (const it of [...trees, ...rocks]) expect(edgeOf(it)).toBeGreaterThanOrEqual(PROFILE.clearM - 0.1);
    for (const it of trees) expect(edgeOf(it)).toBeLessThanOrEqual(PROFILE.bandM + 0.1);
  });

  it('thins with the distance from the edge as the profile says (trees per band, ±3σ)', () => {
    const wallEnd = PROFILE.clearM + PROFILE.wallM;
    const bands: [number, number][] = [[wallEnd, 25], [25, 40], [40, 55], [55, PROFILE.bandM]];
    const count = (a: number, b: number): number => trees.filter((t) => inStraight(t) && edgeOf(t) >= a && edgeOf(t) < b).length;
    const wall = count(PROFILE.clearM + 4, wallEnd); // past the rocks' verge band (there rocks take a share)
    const wallInt = densityIntegral(PROFILE.clearM + 4, wallEnd);
    expect(wall).toBeGreaterThan(500);
    let prev = Infinity;
    for (const [a, b] of bands) {
      const want = (wall * densityIntegral(a, b)) / wallInt;
      const got = count(a, b);
      expect(Math.abs(got - want)).toBeLessThanOrEqual(3 * Math.sqrt(want) + 0.03 * want);
      expect(got / (b - a)).toBeLessThan(prev);
      prev = got / (b - a);
    }
  });

  it('leaves clearings: stretches of the wall with at most one tree, ≥ 8 % of 40 m stretches', () => {
    // outside a clearing a 40 m stretch of wall holds density · area · patch ≥ 1/36 · 480 · 0.6 ≈ 8 trees:
    // P(≤ 1) < 0.3 % by Poisson, so the empty stretches are the clearings
    let empty = 0, stretches = 0;
    for (const side of [1, -1])
      for (let z = -ROAD_M / 2 + 100; z + 40 < ROAD_M / 2 - 100; z += 40) {
        stretches++;
        const n = trees.filter((t) => Math.sign(t[0]!) === side && t[1]! >= z && t[1]! < z + 40 && edgeOf(t) < PROFILE.clearM + PROFILE.wallM).length;
        if (n <= 1) empty++;
      }
    expect(empty / stretches).toBeGreaterThanOrEqual(0.08);
    expect(empty / stretches).toBeLessThanOrEqual(0.5);
  });

  it('leaves a gap round the stations (start, finish, checkpoints)', () => {
    const stations = [200, 1500, 2800];
    const withGaps = scatterForest({ ...f, stationsM: stations });
    for (const it of [...withGaps.trees, ...withGaps.rocks]) expect(nearStation(f.road.project(it[0]!, it[1]!).distanceM, stations)).toBe(false);
    // the road distance of z is z + 1500 on this road: every station's ±STATION_GAP_M holds trees without gaps
    for (const s of stations) expect(trees.some((t) => Math.abs(t[1]! + ROAD_M / 2 - s) < STATION_GAP_M)).toBe(true);
  });
});

describe('edge marker posts', () => {
  it('stand every spacing on both sides, offset off the edge, except near stations and items to avoid', () => {
    const { road } = straightInput(1);
    const rule = { spacingM: 50, offsetM: 1.5, keepClearM: 3 };
    const avoid: [number, number, number, number][] = [[HALF_W + 1.5, 1000 - ROAD_M / 2, 0, 1]]; // beside the post at 1000 m, left
    const posts = edgePosts(road, 20, 2020, rule, [20, 2020, 1500], avoid);
    const want = new Set<string>();
    for (let d = 70; d < 2020; d += 50) if (!nearStation(d, [20, 2020, 1500])) for (const s of [1, -1]) want.add(`${s},${d}`);
    want.delete('1,1000');
    expect(posts.length).toBe(want.size);
    for (const p of posts) {
      const pr = road.project(p[0], p[1]);
      expect(Math.abs(Math.abs(pr.lateralM) - (HALF_W + 1.5))).toBeLessThan(0.06);
      expect(want.has(`${Math.sign(pr.lateralM)},${Math.round(pr.distanceM)}`)).toBe(true);
    }
  });
});

describe('shipped snow-ridge: road-edge scenery', () => {
  const stage = loadStageFromDir(join(__dirname, '../../src/content/stages/snow-ridge'));
  const edge = (x: number, z: number): number => Math.abs(stage.road.project(x, z).lateralM) - stage.road.poseAt(stage.road.project(x, z).distanceM).width / 2;

  it('keeps trees and rocks off the verge and posts at their spacing', () => {
    const start = stage.start.distanceM;
    const posts = stage.scenery.filter((s) => s.kind === 'post');
    // snow-ridge has ditches: trees and rocks beyond the ditch's outer lip (+ 0.5 m, − 0.1 m rounding), posts on
    // the 1 m shoulder (0.8 m off the edge)
    const lip = ditchOuterM(1, DEFAULT_DITCH);
    for (const it of stage.scenery) if (it.kind === 'tree' || it.kind === 'rock') expect(edge(it.x, it.z)).toBeGreaterThanOrEqual(lip + 0.4);
    // every 50 m from the start, 0.8 m off the edge; at most a tenth of the slots left out
    const slots = 2 * Math.floor((stage.finish.distanceM - start) / 50);
    expect(posts.length).toBeGreaterThanOrEqual(0.9 * slots);
    for (const p of posts) {
      const d = stage.road.project(p.x, p.z).distanceM - start;
      expect(Math.abs(d - 50 * Math.round(d / 50))).toBeLessThan(1);
      expect(Math.abs(edge(p.x, p.z) - 0.8)).toBeLessThan(0.1);
    }
  });

  it('gives every tree, rock and post within 20 m of the road edge a static collider', () => {
    const sc = fromScenery(stage.scenery);
    const names = new Set(sc.names);
    let near = 0;
    stage.scenery.forEach((it, n) => {
      if (!(it.kind === 'tree' || it.kind === 'rock' || it.kind === 'post') || edge(it.x, it.z) > 20) return;
      near++;
      expect(names.has(`${it.kind}#${n}`)).toBe(true);
    });
    expect(near).toBeGreaterThan(1500);
  });
});
