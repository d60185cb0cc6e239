/**
 * Daily rally: the same UTC date gives the same stages everywhere. This process generates the daily rally's
 * stages with the game's generator-worker code (stageGenApi); a second Node process (`npm run rally -- daily --json`, spawned) does the same; the stage content hashes
 * (the hash replays pin: stage.toml, height PNG, surface PNG) must be equal stage for stage.
 */
import { describe, expect, it } from 'vitest';
import { stageGenApi } from '../../src/app/stage-gen/generate-api';
import { LANDSCAPE_IDS, type StageGenParams } from '../../src/app/stage-gen/params';
import { stageHash } from '../../src/replay/stage-check';
import { dailyRallyPlan, dailyRallySeed, DAILY_RALLY, planRallyStages } from '../../src/run/rally/plan';
import { spawnCli } from '../cli/spawn';
import { parseStageToml } from '../../terrain/stage';
import { isCanonicalGeneratedStage } from '../../server/verify/canonical-stage';
import { serverDailyRally } from '../../server/daily-rally';

const DATE = '2026-11-25';

/** FNV-1a 32-bit over the date text, written out here from its definition (offset basis, prime). */
function fnv1a(text: string): number {
  let h = 2166136261;
  for (const ch of text) h = Number((BigInt((h ^ ch.charCodeAt(0)) >>> 0) * 16777619n) % 4294967296n);
  return h;
}

describe('daily rally', () => {
  it('seeds from the UTC date alone: FNV-1a of YYYY-MM-DD', () => {
    expect(dailyRallySeed(DATE)).toBe(fnv1a(DATE));
    expect(dailyRallySeed('2026-11-26')).not.toBe(dailyRallySeed(DATE));
    expect(() => dailyRallySeed('2026-13-01')).toThrow(/expected a UTC date YYYY-MM-DD, found "2026-13-01"/);
    expect(() => dailyRallySeed('25.11.2026')).toThrow(RangeError);
  });

  it('gives the same stages, hash for hash, in a second Node process', async () => {
    const plan = dailyRallyPlan(DATE, LANDSCAPE_IDS);
    const refs = planRallyStages(plan);
    expect(refs).toHaveLength(DAILY_RALLY.stageCount);
    const here = refs.map((r) => {
      if (r.kind !== 'generated') return null;
      const g = stageGenApi.generate(r.params as StageGenParams);
      // the hash the worker reports is the replay's stage hash of the files it returns
      expect(g.hash).toBe(stageHash(g.files));
      // the server counts a run on it towards the daily-rally total (server/verify/canonical-stage.ts)
      expect(isCanonicalGeneratedStage(parseStageToml(g.files.stageToml, 'stage.toml'))).toBe(true);
      return { id: g.id, hash: g.hash };
    });
    const ran = await spawnCli('src/cli/rally.ts', ['daily', '--date', DATE, '--json']);
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    const there = JSON.parse(ran.stdout) as { seed: number; stages: { id: string; hash: string }[] };
    expect(there.seed).toBe(plan.seed);
    expect(there.stages.map((s) => ({ id: s.id, hash: s.hash }))).toEqual(here);
    expect(here.map((s) => s!.id)).toEqual(serverDailyRally(DATE).stageIds);
    // four distinct stages, not one stage four times
    expect(new Set(here.map((s) => s!.hash)).size).toBe(DAILY_RALLY.stageCount);
  }, 120_000);
});
