/**
 * Town generator invariants (terrain/town): the lane graph is connected both ways, every path is
 * tangent-continuous (primitive to primitive, lane to connector to lane), junctions have 3–4 arms (bends only
 * at the 4 corners), each signalised junction has one master light whose two phases never show green/yellow
 * together, buildings keep off the lanes, and the town is a pure function of the seed.
 */
import { describe, expect, it } from 'vitest';
import { armCount, evalPath, evalPrim, generateTown, lightColour, lightCycleS, pathPoint, townHash, LANE_WIDTH_M } from '../../terrain/town/index';

const town = generateTown(3);
// positions agree to float rounding of a few hundred metres (|x| ≤ 500 m → ~1e-13 m); use 1e-9 m
const POS_TOL_M = 1e-9;
const ANGLE_TOL = 1e-12;

const wrap = (a: number): number => Math.atan2(Math.sin(a), Math.cos(a));

describe('town network', () => {
  it('every path is reachable from every other (strongly connected lane graph)', () => {
    const n = town.paths.length;
    const reach = (adj: number[][]): number => {
      const seen = new Uint8Array(n);
      const stack = [0];
      seen[0] = 1;
      let count = 1;
      while (stack.length) for (const q of adj[stack.pop()!]!) if (!seen[q]) { seen[q] = 1; count++; stack.push(q); }
      return count;
    };
    const fwd = town.paths.map((p) => p.next);
    const back: number[][] = town.paths.map(() => []);
    town.paths.forEach((p) => p.next.forEach((q) => back[q]!.push(p.id)));
    expect(reach(fwd)).toBe(n);
    expect(reach(back)).toBe(n);
  });

  it('paths are tangent-continuous: primitive joints, lane → connector → lane', () => {
    const a = pathPoint(), b = pathPoint();
    for (const p of town.paths) {
      for (let k = 0; k + 1 < p.prims.length; k++) {
        evalPrim(p.prims[k]!, p.prims[k]!.len, a);
        evalPrim(p.prims[k + 1]!, 0, b);
        expect(Math.hypot(a.x - b.x, a.z - b.z)).toBeLessThan(POS_TOL_M);
        expect(Math.abs(wrap(a.psi - b.psi))).toBeLessThan(ANGLE_TOL);
      }
      evalPath(p.prims, p.length, a);
      for (const q of p.next) {
        evalPath(town.paths[q]!.prims, 0, b);
        expect(Math.hypot(a.x - b.x, a.z - b.z)).toBeLessThan(POS_TOL_M);
        expect(Math.abs(wrap(a.psi - b.psi))).toBeLessThan(ANGLE_TOL);
      }
    }
  });

  it('junctions have 3 or 4 arms; the 4 grid corners are 2-arm bends; 1–2 lanes each way', () => {
    const arms = town.network.nodes.map(armCount);
    expect(arms.filter((k) => k === 2)).toHaveLength(4);
    expect(arms.every((k) => k >= 2 && k <= 4)).toBe(true);
    expect(arms.some((k) => k === 3)).toBe(true);
    for (const e of town.network.edges) expect([1, 2]).toContain(e.lanes);
    // a turn arc is tangent to both lanes: a quarter circle (|Δψ| = π/2 over the arc)
    for (const p of town.paths.filter((q) => q.turn !== 'straight')) {
      const arcs = p.prims.filter((q) => q.kappa !== 0);
      expect(arcs).toHaveLength(1);
      expect(Math.abs(arcs[0]!.kappa * arcs[0]!.len)).toBeCloseTo(Math.PI / 2, 12);
    }
  });

  it('each signalised junction has one master light: its two phases never show green or yellow together', () => {
    const lights = town.control.lights.filter((l) => l !== null);
    expect(lights.length).toBeGreaterThan(0);
    for (const l of lights) {
      expect(town.control.arms[l.node]!.every((c) => c === 'light')).toBe(true);
      const cycle = lightCycleS(l);
      const seen = [new Set<number>(), new Set<number>()];
      for (let t = 0; t < cycle; t += 0.25) {
        const a = lightColour(l, 0, t), b = lightColour(l, 1, t);
        seen[0]!.add(a);
        seen[1]!.add(b);
        expect(a === 2 || b === 2).toBe(true);
      }
      // each phase shows all three colours in one cycle
      expect(seen[0]!.size).toBe(3);
      expect(seen[1]!.size).toBe(3);
    }
    // signs only on the yielding arms of unsignalised junctions
    town.network.nodes.forEach((n, i) => {
      if (armCount(n) === 2) expect(town.control.arms[i]!.every((c) => c === 'none')).toBe(true);
    });
  });

  it('buildings keep off every lane (lane centre ± half a lane outside every footprint)', () => {
    const pt = pathPoint();
    let hits = 0;
    for (const p of town.paths) {
      for (let s = 0; s <= p.length; s += 2) {
        evalPath(p.prims, s, pt);
        for (const b of town.scenery.buildings) if (Math.abs(pt.x - b.x) < b.halfX + LANE_WIDTH_M / 2 && Math.abs(pt.z - b.z) < b.halfZ + LANE_WIDTH_M / 2) hits++;
      }
    }
    expect(town.scenery.buildings.length).toBeGreaterThan(0);
    expect(hits).toBe(0);
  });

  it('is a pure function of the seed (same hash twice, another seed differs)', () => {
    expect(townHash(generateTown(3))).toBe(townHash(town));
    expect(townHash(generateTown(4))).not.toBe(townHash(town));
  });

  it('refuses out-of-range options with the key and the range', () => {
    expect(() => generateTown(1, { blocksX: 40 })).toThrow(/blocksX.*\[2, 16\].*40/);
  });
});
