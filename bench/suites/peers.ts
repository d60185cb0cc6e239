/**
 * Our car against Rapier's DynamicRayCastVehicleController and cannon-es RaycastVehicle (bench/peers-harness.ts:
 * same heightfield window of the test-short stage, mass, wheel geometry, springs, dt 2 ms, scripted inputs),
 * measured by bench/peers-run.ts in two processes: one with the deterministic Math the game uses
 * (terrain/dmath.ts), one with the engine's own Math (bench/native-math.ts in its place). In each, repeated
 * interleaved blocks, CPU time, every car asserted to stay on its terrain for every block. Rapier twice:
 * like-for-like (its chassis box does not collide with the heightfield: ours has no chassis–terrain contact)
 * and default (chassis box against the heightfield). Values are medians over the blocks; a ratio is the median
 * of the per-round ratios (the two blocks of a round ran back to back), with its range over the rounds.
 */
import { runJsonChild } from '../child-json';
import type { BenchResult, BenchSuite } from '../types';

/** Issue #19 item 2: our full car at most half of Rapier's like-for-like step. */
const RAPIER_LFL_GOAL = 0.5;

interface PeersRun {
  steps: number;
  rounds: number;
  us: Record<string, number[]>;
  moved: Record<string, number>;
  patchM: number;
}

type MathKind = 'deterministic' | 'native';

function runPeers(math: MathKind, steps: number, rounds: number): PeersRun {
  return runJsonChild<PeersRun>('./peers-run.ts', [String(steps), String(rounds), '--json'], math === 'native' ? ['./native-math-register.mjs'] : []);
}

const median = (a: readonly number[]): number => {
  const s = [...a].sort((p, q) => p - q);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : 0.5 * (s[m - 1]! + s[m]!);
};
const range = (a: readonly number[], digits = 2): string => `${Math.min(...a).toFixed(digits)}–${Math.max(...a).toFixed(digits)}`;

/** Per-round ratios of engine a to engine b. */
function ratios(run: PeersRun, a: string, b: string): number[] {
  return run.us[a]!.map((v, r) => v / run.us[b]![r]!);
}

const ENGINE_LABEL: Record<string, string> = {
  'rapier-lfl': 'rapier, like-for-like (chassis not colliding with the terrain)',
  rapier: 'rapier, default (chassis box colliding with the heightfield)',
  'cannon-es': 'cannon-es (chassis box colliding with the heightfield)',
};

function stepRows(det: PeersRun, nat: PeersRun): BenchResult[] {
  const blocks = `median of ${det.rounds} interleaved blocks of ${det.steps} steps`;
  const row = (name: string, us: number[], run: PeersRun, engine: string): BenchResult => ({
    suite: 'peers',
    name,
    value: median(us),
    spread: range(us),
    unit: 'µs CPU/vehicle/step',
    note: `${blocks}, range ${range(us)}; stayed on its ${run.patchM.toFixed(0)} m terrain window, last block ended ${run.moved[engine]!.toFixed(0)} m from the start`,
  });
  return [
    row('bitrally, deterministic Math: one car, step', det.us.bitrally!, det, 'bitrally'),
    row('bitrally, native Math: one car, step', nat.us.bitrally!, nat, 'bitrally'),
    ...['rapier-lfl', 'rapier', 'cannon-es'].map((e) => row(`${ENGINE_LABEL[e]}: step`, det.us[e]!, det, e)),
  ];
}

function ratioRow(run: PeersRun, math: MathKind, peer: string, goal: boolean): BenchResult {
  const r = ratios(run, 'bitrally', peer);
  const base: BenchResult = {
    suite: 'peers',
    name: `ratio bitrally (${math} Math) / ${peer === 'rapier-lfl' ? 'rapier like-for-like' : peer === 'rapier' ? 'rapier default' : peer}`,
    value: median(r),
    spread: range(r, 3),
    unit: '×',
    note: `median of ${r.length} per-round ratios, range ${range(r, 3)}; < 1 = ours faster per step`,
  };
  if (!goal) return base;
  return {
    ...base,
    target: RAPIER_LFL_GOAL,
    lowerIsBetter: true,
    quickReportOnly: 'short blocks on a shared machine spread ±50 % (in a full run the rounds read 0.3–0.55 around a median of 0.43–0.45); the full run, seven interleaved rounds, is the goal row',
  };
}

export const suite: BenchSuite = {
  name: 'peers',
  async run({ quick }) {
    const steps = quick ? 1500 : 5000;
    const rounds = quick ? 5 : 7;
    const det = runPeers('deterministic', steps, rounds);
    const nat = runPeers('native', steps, rounds);
    return [
      ...stepRows(det, nat),
      ratioRow(det, 'deterministic', 'rapier-lfl', true),
      ratioRow(nat, 'native', 'rapier-lfl', false),
      ratioRow(det, 'deterministic', 'rapier', false),
      ratioRow(nat, 'native', 'rapier', false),
      ratioRow(det, 'deterministic', 'cannon-es', false),
    ];
  },
};
