import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readStageFiles } from '../../terrain/node';
import { loadStage } from '../../terrain/stage';
import { recordRun } from '../../src/replay/record-run';
import { carConfigFromReplay, replayCarFromText, vehicleCarAdapter } from '../../src/run/cars';
import { decodeReplay } from '../../src/replay/format';
import { buildRunWorld } from '../../src/run/run-world';
import { ReplayPlayer } from '../../src/replay/player';
import { nodeStageSource, readCarFile } from '../../src/replay/node';
import { verifyReplayData } from '../../src/replay/verify';
import { stateHash } from '../../src/ecs/hash';
import { AiDriver } from '../../src/systems/sim/ai/driver';
import { DEFAULT_DRIVER, stagePath } from '../../src/systems/sim/ai/stage-path';
import { driverVehicleFromConfig } from '../../src/systems/sim/ai/car-params';
import { recordAiStageRun } from '../../src/replay/record-ai';

const dir = join(__dirname, '../../src/content/stages/test-short');
const files = readStageFiles(dir);
const stage = loadStage(files, join(dir, 'stage.toml'));
const pose = { x: stage.start.x, y: stage.start.y, z: stage.start.z, heading: stage.start.heading };
// the game's run setup (src/app/game.ts RUN_SETUP)
const SETUP = { dt: 1 / 500, integrator: 'midpoint' as const, seed: 1, gravity_m_s2: 9.81 };

describe.each(['classic-rwd', 'rally-awd'])('AI-driven stage run (%s), as the game autopilot drives it', (carId) => {
  const car = replayCarFromText({ id: carId, main: `${carId}.toml`, text: readCarFile(carId), read: readCarFile, pose });
  const cfg = carConfigFromReplay(car);
  const ai = new AiDriver({ path: stagePath(stage, cfg), vehicle: driverVehicleFromConfig(cfg), params: DEFAULT_DRIVER });
  // countdown: the AI holds (brake + handbrake) for the 3 s of lights, like GameSession
  const rec = recordRun({ setup: SETUP, cars: [car], sources: [ai], stage: { stage, files }, maxSeconds: 90, keyframeEverySeconds: 2, adapter: vehicleCarAdapter, beforeTick: (run) => (ai.hold = run.world.tick < 1500) });
  const data = decodeReplay(rec.bytes);

  it('reaches the finish; re-simulation matches every checksum and the final hash, and recomputes the stage time', async () => {
    expect(data.header.result?.finished).toBe(true);
    const r = await verifyReplayData(data, { stages: nodeStageSource, cars: vehicleCarAdapter });
    expect(r.firstDesync).toBeNull();
    expect(r.checksumsMatched).toBe(data.checksums.length);
    expect(r.finalHash).toBe(stateHash(rec.run.world));
    expect(r.stageTimeS).toBe(data.header.result!.stageTimeS);
  });

  it('every keyframe restored into a fresh world (the viewer seeking) reproduces the next checksum', () => {
    for (const kf of data.keyframes) {
      const next = data.checksums.find((c) => c.tick > kf.tick);
      if (!next) continue;
      const run = buildRunWorld(data.header, stage, vehicleCarAdapter);
      const p = new ReplayPlayer(data, run, vehicleCarAdapter, { resync: false });
      p.seek(kf.tick);
      while (p.tick < next.tick) p.step();
      expect({ tick: kf.tick, desync: p.desync?.tick ?? null }).toEqual({ tick: kf.tick, desync: null });
      p.dispose();
    }
  });
});

describe('a run recorded past the finish (laps of a circuit, the replay bench)', () => {
  it('is marked at the finish once, on the tick the car crossed the line', () => {
    const car = replayCarFromText({ id: 'rally-awd', main: 'rally-awd.toml', text: readCarFile('rally-awd'), read: readCarFile, pose });
    const rec = recordAiStageRun({ setup: SETUP, stage, files, car, maxSeconds: 90, stopAtFinish: false });
    const finishTick = rec.timing!.finishTick!;
    // it drove on: the run is longer than the stage run by at least a second
    expect(rec.run.world.tick).toBe(Math.round(90 / SETUP.dt));
    expect(finishTick).toBeLessThan(rec.run.world.tick - 500);
    const marks = decodeReplay(rec.bytes).header.marks.filter((m) => m.kind === 'finish');
    expect(marks).toEqual([{ tick: finishTick, kind: 'finish', label: 'finish' }]);
  });
});
