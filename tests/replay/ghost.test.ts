import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readStageFiles } from '../../terrain/node';
import { loadStage } from '../../terrain/stage';
import { recordRun } from '../../src/replay/record-run';
import { ScriptedDriver } from '../../src/replay/script';
import { vehicleCarAdapter } from '../../src/run/cars';
import { nodeStageSource } from '../../src/replay/node';
import { decodeReplay } from '../../src/replay/format';
import { buildRunWorld } from '../../src/run/run-world';
import { ReplayPlayer } from '../../src/replay/player';
import { StageProgressView } from '../../src/run/stage-progress-view';
import { GhostRun, GHOST_LEAD_S } from '../../src/app/replay/ghost';
import { hatchCar, SETUP } from './helpers';

const dir = join(__dirname, '../../src/content/stages/test-short');
const files = readStageFiles(dir);
const stage = loadStage(files, join(dir, 'stage.toml'));
const pose = { x: stage.start.x, y: stage.start.y, z: stage.start.z, heading: stage.start.heading };

describe('ghost', () => {
  // 3 s countdown (handbrake), then a scripted drive: 9 s in all
  const rec = recordRun({ setup: SETUP, cars: [hatchCar(pose)], sources: [new ScriptedDriver(11, 8, 3)], stage: { stage, files }, maxSeconds: 9, adapter: vehicleCarAdapter });

  it('runs in lockstep ahead of the live run: poses equal a separate re-simulation bit for bit; Δ = 0 wherever the live car gains ground on the same run', async () => {
    const ghost = await GhostRun.create(rec.bytes, 'pb.bitrally', nodeStageSource, vehicleCarAdapter);
    // the "live" run: the same replay re-simulated separately, with the game's stage rules
    const data = decodeReplay(rec.bytes);
    const run = buildRunWorld(data.header, stage, vehicleCarAdapter);
    const live = new ReplayPlayer(data, run, vehicleCarAdapter);
    const timing = new StageProgressView(run.world, run.cars[0]!);
    const lead = Math.round(GHOST_LEAD_S / run.world.dt);
    const p = new Float64Array(7);
    let gains = 0;
    let lastProgress = -Infinity;
    const b = run.world.c.RigidBody;
    const e = run.cars[0]!;
    while (live.step()) {
      timing.sync();
      const t = run.world.tick;
      ghost.advance(t, 1 << 20);
      expect(ghost.player.world.tick).toBe(Math.min(data.header.ticks, t + lead));
      expect(ghost.poseAt(t, p)).not.toBeNull();
      expect([...p]).toEqual([b.px[e], b.py[e], b.pz[e], b.qw[e], b.qx[e], b.qy[e], b.qz[e]]);
      const r = timing;
      if (r.phase !== 'running') continue;
      const d = ghost.draw(t, 1, r.progressM, r.timeS)!;
      expect(d).not.toBeNull();
      if (r.progressM > lastProgress) {
        // reached this distance for the first time now: the ghost reached it at the same stage time
        expect(d).toBe(0);
        gains++;
      } else expect(d).toBeGreaterThanOrEqual(0); // standing still costs time
      lastProgress = Math.max(lastProgress, r.progressM);
    }
    expect(gains).toBeGreaterThan(100);
    ghost.dispose();
  });

  it('time at a distance interpolates linearly between the samples that bracket it; beyond what is simulated it is unknown', async () => {
    const ghost = await GhostRun.create(rec.bytes, 'pb.bitrally', nodeStageSource, vehicleCarAdapter);
    ghost.advance(1 << 30, 1 << 30);
    // the (progress, stage time) pairs of the run, from a separate replica: first arrival at each distance
    const data = decodeReplay(rec.bytes);
    const run = buildRunWorld(data.header, stage, vehicleCarAdapter);
    const live = new ReplayPlayer(data, run, vehicleCarAdapter);
    const timing = new StageProgressView(run.world, run.cars[0]!);
    const pairs: [number, number][] = [];
    while (live.step()) {
      timing.sync();
      const r = timing;
      if (r.phase === 'running' && (pairs.length === 0 || r.progressM > pairs[pairs.length - 1]![0])) pairs.push([r.progressM, r.timeS]);
    }
    expect(pairs.length).toBeGreaterThan(100);
    for (let k = 1; k < pairs.length; k += 37) {
      const [d0, t0] = pairs[k - 1]!;
      const [d1, t1] = pairs[k]!;
      expect(ghost.timeAt(d1)).toBe(t1);
      // half-way in distance: half-way in time (linear interpolation), to rounding
      // tolerance: rounding of the midpoint and of (d − d0)/(d1 − d0) is a few ulp(d1) over (d1 − d0), times (t1 − t0)
      const tol = ((t1 - t0) * 4 * Number.EPSILON * d1) / (d1 - d0) + 4 * Number.EPSILON * t1;
      expect(Math.abs(ghost.timeAt((d0 + d1) / 2)! - (t0 + t1) / 2)).toBeLessThanOrEqual(tol);
    }
    const far = pairs[pairs.length - 1]![0];
    expect(ghost.timeAt(far + 0.01)).toBeNull();
    ghost.dispose();
  });
});
