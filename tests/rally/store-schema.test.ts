/**
 * The rally the game saves (src/app/rally/rally-store.ts) is checked with RallyStateSchema when it is read back:
 * every state the rules produce must pass it unchanged, and a damaged record must be refused naming the key.
 */
import { describe, expect, it } from 'vitest';
import { RallyStateSchema } from '../../src/app/rally/rally-store';
import { LANDSCAPE_IDS } from '../../src/app/stage-gen/params';
import { planRallyStages } from '../../src/run/rally/plan';
import { completeStage, createRally, retireStage, serviceRally, withRivalTimes } from '../../src/run/rally/rally';
import { rallyRivals } from '../../src/run/rally/rivals';
import { dailyRally } from '../../src/app/rally/new-rally';

describe('saved rally schema', () => {
  const hurt = { crushFrontM: 0.2, crushRearM: 0, crushLeftM: 0.05, crushRightM: 0, hits: 2 };
  let s = createRally({ id: 'r', name: 'R', seed: 7, stages: planRallyStages({ seed: 7, stageCount: 4, landscapes: LANDSCAPE_IDS }), serviceEvery: 1, carId: 'rally-awd', rivals: rallyRivals(7) });
  const states = [s];
  s = withRivalTimes(s, 0, [60, 61, null, 62, 63]);
  s = completeStage(s, { timeS: 59.5, damage: hurt });
  states.push(s);
  s = serviceRally(s, { repairs: ['front'], setupChanged: true });
  states.push(s);
  s = retireStage(s, { damage: hurt });
  states.push(s, dailyRally('2026-11-25'));

  it('accepts every state the rules produce, unchanged', () => {
    for (const st of states) expect(RallyStateSchema.parse(JSON.parse(JSON.stringify(st)))).toEqual(st);
  });
  it('refuses a damaged record, naming the key', () => {
    const bad = JSON.parse(JSON.stringify(s)) as Record<string, unknown>;
    (bad.damage as Record<string, unknown>).crushFrontM = 'a lot';
    const r = RallyStateSchema.safeParse(bad);
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.path).toEqual(['damage', 'crushFrontM']);
  });
});
