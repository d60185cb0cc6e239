/**
 * A whole rally, headless: three stages generated from one rally seed, driven by the autopilot in the game's
 * world (scenery colliders, the car's collider), the car's damage carried from stage to stage, a service park
 * after stage 2 (one branch repairs within the budget, the other overruns it), AI rivals, and the overall time
 * = Σ stage times + penalties. A front and side hit is injected during stage 1 (the crush a collision would add,
 * through the collision pass's own `addCrushTo`), so that there is damage to carry and to repair.
 */
import { describe, expect, it } from 'vitest';
import { generateStage } from '../../terrain/index';
import type { Stage } from '../../terrain/stage';
import { loadBuiltinCar } from '../../src/content/cars/index';
import { driveStage, type DriveResult } from '../../src/run/autopilot';
import { addCrushTo } from '../../src/systems/sim/collision/system';
import type { CarDamage } from '../../src/systems/sim/collision/damage-state';
import { planRallyStages } from '../../src/run/rally/plan';
import { LANDSCAPE_IDS, toGenerateOptions, type StageGenParams } from '../../src/app/stage-gen/params';
import { completeStage, createRally, nextRallyStep, serviceRally, withRivalTimes, type RallyState } from '../../src/run/rally/rally';
import { LATE_PENALTY_S_PER_MIN, repairItems, SETUP_CHANGE_MIN } from '../../src/run/rally/service';
import { overallClassification, stageClassification } from '../../src/run/rally/classification';
import { rallyRivals, rivalStageTimes } from '../../src/run/rally/rivals';

const SEED = 20261125;
const car = loadBuiltinCar('rally-awd');
/**
 * The rally's stages as the game generates them (toGenerateOptions of the in-game generator), made short and on
 * a small map (1 km, 513² heightmap) to keep the test fast: the rules, not the scenery, are under test.
 */
const refs = planRallyStages({ seed: SEED, stageCount: 3, landscapes: LANDSCAPE_IDS, landscape: 'forest-gravel', lengthKm: { min: 1, max: 1 } });
const stages: Stage[] = refs.map((r) => {
  if (r.kind !== 'generated') throw new Error('generated stages expected');
  return generateStage({ ...toGenerateOptions(r.params as StageGenParams), size: 513, relief: 0.3 }).stage;
});
/** Stage 1's hit, 6 s into the run (3 s after the lights): 0.25 m into the front, 0.08 m into the left side. */
const HIT_TICK = 3000;
const HIT = { front: 0.25, left: 0.08 };

/** The stage time the rally counts: the drive plus the recovery penalties (driveStage's time, from StageProgress). */
const counted = (r: DriveResult): number => r.timeS;

function drive(k: number, s: RallyState, hit = false): DriveResult {
  return driveStage({
    stage: stages[k]!, car, gameWorld: true, integrator: 'euler', initialDamage: s.damage,
    onTick: hit ? (world, eid) => void (world.tick === HIT_TICK && (addCrushTo(world, eid, 0, HIT.front), addCrushTo(world, eid, 2, HIT.left))) : undefined,
  });
}

const sameBits = (a: CarDamage, b: CarDamage): boolean => (Object.keys(a) as (keyof CarDamage)[]).every((k) => Object.is(a[k], b[k]));

describe('a three-stage rally driven by the autopilot', () => {
  const rivals = rallyRivals(SEED, 3);
  let rally = createRally({ id: 'r1', name: 'Headless', seed: SEED, stages: refs, serviceEvery: 2, carId: car.id, rivals });
  const runs: DriveResult[] = [];
  const rivalRuns = stages.map((st) => rivalStageTimes(st, car, rivals));
  rivalRuns.forEach((t, k) => (rally = withRivalTimes(rally, k, t)));

  it('stage 1: the hit is kept as the damage leaving the stage', () => {
    const r = drive(0, rally, true);
    runs.push(r);
    expect(r.finished, JSON.stringify(r)).toBe(true);
    expect(r.startDamage).toEqual({ crushFrontM: 0, crushRearM: 0, crushLeftM: 0, crushRightM: 0, hits: 0 });
    expect(r.endDamage!.crushFrontM).toBeGreaterThanOrEqual(HIT.front);
    expect(r.endDamage!.crushLeftM).toBeGreaterThanOrEqual(HIT.left);
    rally = completeStage(rally, { timeS: counted(r), damage: r.endDamage! });
    expect(nextRallyStep(rally)).toEqual({ kind: 'stage', stage: 1 });
  });

  it('stage 2: the damage entering it is, bit for bit, the damage that left stage 1', () => {
    const r = drive(1, rally);
    runs.push(r);
    expect(r.finished, JSON.stringify(r)).toBe(true);
    expect(sameBits(r.startDamage!, runs[0]!.endDamage!)).toBe(true);
    rally = completeStage(rally, { timeS: counted(r), damage: r.endDamage! });
    expect(nextRallyStep(rally)).toEqual({ kind: 'service', afterStage: 1 });
  });

  it('service within budget: front repaired, no penalty; overrun: 10 s per minute or part late', () => {
    const items = repairItems(rally.damage);
    const front = items.find((i) => i.id === 'front')!;
    const left = items.find((i) => i.id === 'left')!;
    // minutes from the documented costs: front 6 + 0.5/cm, left side 5 + 0.5/cm, rounded up
    expect(front.minutes).toBe(Math.ceil(6 + 0.5 * rally.damage.crushFrontM * 100 - 1e-9));
    expect(left.minutes).toBe(Math.ceil(5 + 0.5 * rally.damage.crushLeftM * 100 - 1e-9));
    const within = serviceRally(rally, { repairs: ['front'], setupChanged: false });
    const w = within.services[0]!;
    expect(w.minutesUsed).toBe(front.minutes);
    expect(w.minutesUsed).toBeLessThanOrEqual(rally.serviceBudgetMin);
    expect(w.penaltyS).toBe(0);
    expect(within.damage.crushFrontM).toBe(0);
    expect(within.damage.crushLeftM).toBe(rally.damage.crushLeftM);
    // everything plus a setup change: over the 30 min budget
    const all = items.map((i) => i.id);
    const over = serviceRally(rally, { repairs: all, setupChanged: true });
    const o = over.services[0]!;
    const used = items.reduce((s, i) => s + i.minutes, 0) + SETUP_CHANGE_MIN;
    expect(o.minutesUsed).toBe(used);
    expect(o.lateMin).toBe(used - rally.serviceBudgetMin);
    expect(o.lateMin).toBeGreaterThan(0);
    expect(o.penaltyS).toBe(LATE_PENALTY_S_PER_MIN * Math.ceil(used - rally.serviceBudgetMin));
    expect(over.damage).toEqual({ crushFrontM: 0, crushRearM: 0, crushLeftM: 0, crushRightM: 0, hits: rally.damage.hits });
    rally = over;
  });

  it('stage 3 starts with the serviced car; overall = Σ stage times + penalties, rivals classified', () => {
    const r = drive(2, rally);
    runs.push(r);
    expect(r.finished, JSON.stringify(r)).toBe(true);
    expect(sameBits(r.startDamage!, rally.damage)).toBe(true);
    rally = completeStage(rally, { timeS: counted(r), damage: r.endDamage! });
    expect(nextRallyStep(rally)).toEqual({ kind: 'finished' });
    const overall = overallClassification(rally);
    const me = overall.find((o) => o.isPlayer)!;
    const penalties = rally.services.reduce((s, v) => s + v.penaltyS, 0);
    expect(penalties).toBeGreaterThan(0);
    expect(me.totalS).toBe(runs.reduce((s, x) => s + counted(x), 0) + penalties);
    expect(overall).toHaveLength(1 + rivals.length);
    for (let i = 1; i < overall.length; i++) expect(overall[i]!.totalS).toBeGreaterThanOrEqual(overall[i - 1]!.totalS);
    for (const [i, rv] of rivals.entries()) {
      const row = overall.find((o) => o.name === rv.name)!;
      expect(row.totalS).toBe(rivalRuns.reduce((s, t) => s + t[i]!, 0));
    }
    expect(stageClassification(rally, 0)!.find((c) => c.isPlayer)!.timeS).toBe(counted(runs[0]!));
  });

  it('rival times are deterministic (same rally → same times) and spread by skill', () => {
    expect(rivalStageTimes(stages[0]!, car, rivals)).toEqual(rivalRuns[0]);
    for (const t of rivalRuns) for (const x of t) expect(x).not.toBeNull();
    const first = rivalRuns[0]!;
    expect(new Set(first).size).toBe(rivals.length);
  });
});
