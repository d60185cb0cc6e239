/** The rally's pure rules: the stage plan from a seed, service costs and the time-control penalty, retirement. */
import { describe, expect, it } from 'vitest';
import { clampStageCount, planRallyStages, RALLY_STAGE_KM } from '../../src/run/rally/plan';
import { checkStageGenParams, LANDSCAPE_IDS } from '../../src/app/stage-gen/params';
import { latePenaltyS, repairItems, repairMinutes, runService, SERVICE_BUDGET_MIN } from '../../src/run/rally/service';
import { completeStage, createRally, nextRallyStep, retireStage, RETIREMENT_PENALTY_S, serviceAfter, serviceRally, withRivalTimes } from '../../src/run/rally/rally';
import { overallClassification, stageClassification } from '../../src/run/rally/classification';
import { rallyRivals } from '../../src/run/rally/rivals';
import { NO_DAMAGE } from '../../src/systems/sim/collision/damage-state';

describe('rally plan from a seed', () => {
  it('is the same list for the same seed, another for another seed', () => {
    const a = planRallyStages({ seed: 42, stageCount: 6, landscapes: LANDSCAPE_IDS });
    expect(planRallyStages({ seed: 42, stageCount: 6, landscapes: LANDSCAPE_IDS })).toEqual(a);
    expect(planRallyStages({ seed: 43, stageCount: 6, landscapes: LANDSCAPE_IDS })).not.toEqual(a);
    expect(new Set(a.map((r) => (r.kind === 'generated' ? r.params.seed : -1))).size).toBe(6);
  });
  it('keeps 3–10 stages, lengths in the drawn range, one landscape unless mixed', () => {
    expect([clampStageCount(1), clampStageCount(7.4), clampStageCount(99)]).toEqual([3, 7, 10]);
    const plan = planRallyStages({ seed: 9, stageCount: 10, landscapes: LANDSCAPE_IDS });
    expect(plan).toHaveLength(10);
    const opts = plan.map((r) => (r.kind === 'generated' ? r.params : null)!);
    for (const o of opts) {
      expect(o.lengthKm).toBeGreaterThanOrEqual(RALLY_STAGE_KM.min);
      expect(o.lengthKm).toBeLessThanOrEqual(RALLY_STAGE_KM.max);
      // the in-game generator's parameters: valid as they are (0.5 km steps, 31-bit seed, a known landscape)
      expect(checkStageGenParams(o)).toEqual(o);
    }
    expect(new Set(opts.map((o) => o.landscape)).size).toBe(1);
    const mixed = planRallyStages({ seed: 9, stageCount: 10, landscapes: LANDSCAPE_IDS, landscape: 'mixed' }).map((r) => (r.kind === 'generated' ? r.params.landscape : ''));
    expect(new Set(mixed).size).toBeGreaterThan(1);
  });
});

describe('service park', () => {
  it('time control: 10 s per minute or part of a minute late', () => {
    expect([0, -3, 0.01, 1, 1.01, 2, 7.5].map(latePenaltyS)).toEqual([0, 0, 10, 10, 20, 20, 80]);
  });
  it('repair minutes: fixed part + part per cm, rounded up; scratches under 5 mm need nothing', () => {
    expect(repairMinutes('front', 0.1)).toBe(11); // 6 + 0.5·10
    expect(repairMinutes('rear', 0.1)).toBe(6); // 3 + 0.25·10 = 5.5 → 6
    expect(repairMinutes('left', 0.03)).toBe(7); // 5 + 0.5·3 = 6.5 → 7
    expect(repairItems({ ...NO_DAMAGE, crushRearM: 0.004 })).toEqual([]);
  });
  it('a retirement makes the next service repair everything at no time cost', () => {
    const d = { crushFrontM: 0.5, crushRearM: 0.3, crushLeftM: 0.4, crushRightM: 0.4, hits: 9 };
    const paid = runService(d, { repairs: ['front', 'rear', 'left', 'right'], setupChanged: false });
    expect(paid.minutesUsed).toBe(31 + 11 + 25 + 25);
    expect(paid.penaltyS).toBe(latePenaltyS(paid.minutesUsed - SERVICE_BUDGET_MIN));
    const free = runService(d, { repairs: [], setupChanged: false }, SERVICE_BUDGET_MIN, true);
    expect(free.minutesUsed).toBe(0);
    expect(free.damageAfter).toEqual({ ...NO_DAMAGE, hits: 9 });
  });
});

describe('rally steps and retirement', () => {
  const stages = planRallyStages({ seed: 5, stageCount: 4, landscapes: LANDSCAPE_IDS });
  const rivals = rallyRivals(5, 3);
  const base = createRally({ id: 'x', name: 'x', seed: 5, stages, serviceEvery: 2, carId: 'rally-awd', rivals });

  it('services after every N stages, never after the last', () => {
    expect([0, 1, 2, 3].map((k) => serviceAfter(base, k))).toEqual([false, true, false, false]);
    expect(() => serviceRally(base, { repairs: [], setupChanged: false })).toThrow(/expected a service step/);
  });

  it('a retired stage counts as the slowest classified time + 300 s; the car is repaired free at the next service', () => {
    const hurt = { ...NO_DAMAGE, crushFrontM: 0.4, hits: 2 };
    let s = withRivalTimes(withRivalTimes(base, 0, [100, 110, null]), 1, [200, 190, 195]);
    s = completeStage(s, { timeS: 105, damage: NO_DAMAGE });
    s = retireStage(s, { damage: hurt });
    expect(s.damage).toEqual(hurt);
    const st0 = stageClassification(s, 0)!;
    // the rival that did not finish stage 1 gets the slowest classified time (110) + 300
    expect(st0.find((c) => c.name === rivals[2]!.name)).toEqual({ name: rivals[2]!.name, isPlayer: false, timeS: 110 + RETIREMENT_PENALTY_S, retired: true });
    const st1 = stageClassification(s, 1)!;
    expect(st1.find((c) => c.isPlayer)!.timeS).toBe(200 + RETIREMENT_PENALTY_S);
    expect(nextRallyStep(s)).toEqual({ kind: 'service', afterStage: 1 });
    s = serviceRally(s, { repairs: [], setupChanged: true });
    expect(s.services[0]).toMatchObject({ free: true, minutesUsed: 5, penaltyS: 0 });
    expect(s.damage).toEqual({ ...NO_DAMAGE, hits: 2 });
    const me = overallClassification(s).find((o) => o.isPlayer)!;
    expect(me).toMatchObject({ stagesS: 105 + 200 + RETIREMENT_PENALTY_S, penaltyS: 0, retirements: 1, stagesDone: 2 });
  });
});
