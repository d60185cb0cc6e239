/**
 * A driven player's car located on the town's lanes (town mode): a point on a path at arc length s, heading along
 * it, is located on that path at s (segments and the arcs of junction turns); heading the other way it is on the
 * opposite lane, never this one; far from every path the last location is kept.
 */
import { describe, expect, it } from 'vitest';
import { evalPath, generateTown, pathPoint } from '../../terrain/town/index';
import { locateOnTown } from '../../src/run/town-player';

const town = generateTown(3);
const prev = { path: -7, s: 0, next1: -1 };
/** Arc length round-off of the nearest-point solve, m. */
const S_TOL_M = 1e-6;

describe('locateOnTown', () => {
  it('finds the path and arc length of a point on a lane and on a turning connector', () => {
    const lane = town.paths.find((p) => p.kind === 'lane' && p.length > 60)!;
    const turn = town.paths.find((p) => p.kind === 'connector' && p.turn !== 'straight' && p.prims.some((q) => q.kappa !== 0))!;
    for (const [p, s] of [[lane, 30], [turn, turn.length / 2]] as const) {
      const pt = evalPath(p.prims, s, pathPoint());
      const loc = locateOnTown(town, pt.x, pt.z, pt.psi, prev);
      expect(loc.path).toBe(p.id);
      expect(Math.abs(loc.s - s)).toBeLessThan(S_TOL_M);
      expect(loc.next1).toBe(p.kind === 'connector' ? p.next[0] : (p.next.find((c) => town.paths[c]!.turn === 'straight') ?? p.next[0]));
    }
  });

  it('never puts a car on a lane it faces against; keeps the last place off every lane', () => {
    const lane = town.paths.find((p) => p.kind === 'lane' && p.length > 60)!;
    const pt = evalPath(lane.prims, 30, pathPoint());
    const back = locateOnTown(town, pt.x, pt.z, pt.psi + Math.PI, prev);
    expect(back.path).not.toBe(lane.id);
    const far = town.bounds;
    expect(locateOnTown(town, far.maxX + 500, far.maxZ + 500, 0, prev)).toBe(prev);
  });
});
