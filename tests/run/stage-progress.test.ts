/**
 * Stage timing as pipeline pass 10 (src/run/stage-progress.ts): the StageProgress component of the player's car
 * advances by the StageRun rules each tick, its events reach `world.events`, a recovery adds its penalty, two
 * worlds stepped interleaved in one process keep apart, and a stage replay of an earlier sim version is refused.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readStageFiles } from '../../terrain/node';
import { loadStage } from '../../terrain/stage';
import type { RoadProjection } from '../../terrain/road';
import { setInputSource } from '../../src/ecs/controls';
import { stateHash } from '../../src/ecs/hash';
import { STAGE_PHASE_COUNTDOWN } from '../../src/ecs/components/progress';
import { buildRunWorld, type RunWorld } from '../../src/run/run-world';
import { stepRun } from '../../src/run/step';
import { carConfigFromReplay, replayCarFromText, vehicleCarAdapter } from '../../src/run/cars';
import { DEFAULT_RUN, StageRun, type RunEvent } from '../../src/run/stage-run';
import { addStageRecovery, hasStageProgress, stageCourseOf, stageEventsOf } from '../../src/run/stage-progress';
import { StageProgressView } from '../../src/run/stage-progress-view';
import { RECOVER_PENALTY_S } from '../../src/systems/sim/vehicle/recovery';
import { AiDriver } from '../../src/systems/sim/ai/driver';
import { DEFAULT_DRIVER, stagePath } from '../../src/systems/sim/ai/stage-path';
import { driverVehicleFromConfig } from '../../src/systems/sim/ai/car-params';
import { readCarFile } from '../../src/replay/node';
import { ScriptedDriver } from '../../src/replay/script';
import { recordRun } from '../../src/replay/record-run';
import { decodeReplay } from '../../src/replay/format';
import { verifyReplayData } from '../../src/replay/verify';
import { nodeStageSource } from '../../src/replay/node';
import { ReplayFormatError } from '../../src/replay/bytes';
import { checkStageReplayVersion, SIM_VERSION } from '../../src/replay/version';
import { hatchCar, SETUP } from '../replay/helpers';

const dir = join(__dirname, '../../src/content/stages/test-short');
const files = readStageFiles(dir);
const stage = loadStage(files, join(dir, 'stage.toml'));
const pose = { x: stage.start.x, y: stage.start.y, z: stage.start.z, heading: stage.start.heading };
const GAME_SETUP = { dt: 1 / 500, integrator: 'midpoint' as const, seed: 1, gravity_m_s2: 9.81, ground: null };
const COUNTDOWN_TICKS = Math.round(DEFAULT_RUN.countdownS / GAME_SETUP.dt);
/** test-short is 620 m − its start; the AI finishes it well inside this. */
const MAX_TICKS = 60 * 500;

function aiRun(): { run: RunWorld; ai: AiDriver } {
  const car = replayCarFromText({ id: 'rally-awd', main: 'rally-awd.toml', text: readCarFile('rally-awd'), read: readCarFile, pose });
  const cfg = carConfigFromReplay(car);
  const ai = new AiDriver({ path: stagePath(stage, cfg), vehicle: driverVehicleFromConfig(cfg), params: DEFAULT_DRIVER });
  const run = buildRunWorld({ ...GAME_SETUP, cars: [car] }, stage, vehicleCarAdapter);
  setInputSource(run.world, run.cars[0]!, ai);
  return { run, ai };
}

describe('StageProgress pass', () => {
  it('follows the StageRun rules bit for bit on an AI run to the finish; start after the countdown, one split per checkpoint, finish time = Σ dt since the lights', () => {
    const { run, ai } = aiRun();
    const { world } = run;
    const e = run.cars[0]!;
    expect(hasStageProgress(world, e)).toBe(true);
    // the reference: the same rules fed by hand from the car's road projection after each tick (as drivers did)
    const ref = new StageRun({ ...stageCourseOf(stage), checkpointsM: stage.checkpoints.map((c) => c.distanceM) });
    const proj: RoadProjection = { distanceM: 0, lateralM: 0, index: 0 };
    const view = new StageProgressView(world, e);
    const b = world.c.RigidBody;
    const startTicks: number[] = [];
    let sumDt = 0;
    while (view.finishTick === null && world.tick < MAX_TICKS) {
      ai.hold = !view.canDrive;
      stepRun(world);
      view.sync();
      stage.road.project(b.px[e]!, b.pz[e]!, proj);
      const hw = stage.road.widths[proj.index]! / 2;
      const speed = Math.hypot(b.vx[e]!, b.vy[e]!, b.vz[e]!);
      const expected: RunEvent[] = ref.tick({ dt: world.dt, distanceM: proj.distanceM, lateralM: proj.lateralM, roadHalfWidthM: hw, speedMS: speed, throttle: world.c.Controls.throttle[e]! });
      expect(stageEventsOf(world.events, e)).toEqual(expected);
      if (expected.includes('start')) startTicks.push(world.tick);
      if (view.phase !== 'countdown' && !expected.includes('start')) sumDt += world.dt;
      world.events.length = 0;
      expect([view.phase, view.timeS, view.progressM, view.penaltyS]).toEqual([ref.phase, ref.timeS, ref.progressM, ref.penaltyS]);
    }
    expect(startTicks).toEqual([COUNTDOWN_TICKS]);
    expect(view.finishTick).toBe(world.tick);
    expect(view.finishTimeS).toBe(ref.finishTimeS);
    // timeS accumulates dt once per running tick: the same sum in the same order, and ≈ ticks × dt
    expect(view.finishTimeS).toBe(sumDt);
    const ticks = view.finishTick! - COUNTDOWN_TICKS;
    expect(Math.abs(view.finishTimeS! - ticks * world.dt)).toBeLessThanOrEqual(ticks * ticks * Number.EPSILON * world.dt);
    expect(view.splits.map((s) => s.timeS)).toEqual(ref.splits.map((s) => s.timeS));
    expect(view.splits).toHaveLength(stage.checkpoints.length);
    expect(view.splits[0]!.timeS).toBeLessThan(view.finishTimeS!);
    expect(view.progressM).toBeGreaterThanOrEqual(stage.finish.distanceM);
  });

  it('a recovery adds the penalty to the time (exactly RECOVER_PENALTY_S), counts once and clears the stuck timer; a car that runs no stage is left alone', () => {
    const run = buildRunWorld({ ...GAME_SETUP, cars: [hatchCar(pose), hatchCar(pose, 'ai')] }, stage, vehicleCarAdapter);
    const [player, ai] = [run.cars[0]!, run.cars[1]!];
    expect(hasStageProgress(run.world, ai)).toBe(false);
    for (let i = 0; i < COUNTDOWN_TICKS + 250; i++) stepRun(run.world);
    const p = run.world.c.StageProgress;
    const t0 = p.timeS[player]!;
    const before = stateHash(run.world);
    addStageRecovery(run.world, player);
    expect(p.timeS[player]).toBe(t0 + RECOVER_PENALTY_S);
    expect(p.penaltyS[player]).toBe(RECOVER_PENALTY_S);
    expect(p.recoveries[player]).toBe(1);
    expect(p.stuckS[player]).toBe(0);
    expect(stateHash(run.world)).not.toBe(before); // the penalty is state
    const h = stateHash(run.world);
    addStageRecovery(run.world, ai);
    expect(stateHash(run.world)).toBe(h);
  });

  it('two worlds in one process, stepped interleaved, hash like the same runs stepped alone', () => {
    const make = (seed: number): RunWorld => {
      const run = buildRunWorld({ ...GAME_SETUP, cars: [hatchCar(pose)] }, stage, vehicleCarAdapter);
      setInputSource(run.world, run.cars[0]!, new ScriptedDriver(seed, 8, DEFAULT_RUN.countdownS));
      return run;
    };
    const TICKS = COUNTDOWN_TICKS + 1000;
    const EVERY = 100;
    const alone = (seed: number): string[] => {
      const r = make(seed);
      const out: string[] = [];
      for (let i = 1; i <= TICKS; i++) {
        stepRun(r.world);
        if (i % EVERY === 0) out.push(stateHash(r.world));
      }
      return out;
    };
    const [ha, hb] = [alone(3), alone(7)];
    const a = make(3);
    const b = make(7);
    const ia: string[] = [];
    const ib: string[] = [];
    for (let i = 1; i <= TICKS; i++) {
      stepRun(a.world);
      stepRun(b.world);
      if (i % EVERY === 0) {
        ia.push(stateHash(a.world));
        ib.push(stateHash(b.world));
      }
    }
    expect(ia).toEqual(ha);
    expect(ib).toEqual(hb);
    expect(ha).not.toEqual(hb); // the two runs differ, so sharing state would show
    expect(a.world.c.StageProgress.phase[a.cars[0]!]).not.toBe(STAGE_PHASE_COUNTDOWN);
  });

  it(`a stage replay recorded before StageProgress was state is refused naming header.simVersion; flat ground and ${SIM_VERSION} pass`, async () => {
    expect(() => checkStageReplayVersion({ simVersion: 'bitrally-sim-5', stage: { id: 'x' } }, 'old.bitrally')).toThrow(ReplayFormatError);
    expect(() => checkStageReplayVersion({ simVersion: 'bitrally-sim-5', stage: { id: 'x' } }, 'old.bitrally')).toThrow(/old\.bitrally.*header\.simVersion.*bitrally-sim-6 or later.*bitrally-sim-5/s);
    expect(() => checkStageReplayVersion({ simVersion: 'bitrally-sim-5', stage: null })).not.toThrow();
    expect(() => checkStageReplayVersion({ simVersion: SIM_VERSION, stage: { id: 'x' } })).not.toThrow();
    const rec = recordRun({ setup: SETUP, cars: [hatchCar(pose)], sources: [new ScriptedDriver(4, 8, 3)], stage: { stage, files }, maxSeconds: 1, adapter: vehicleCarAdapter });
    const data = decodeReplay(rec.bytes);
    expect((await verifyReplayData(data, { stages: nodeStageSource, cars: vehicleCarAdapter })).ok).toBe(true);
    const old = { ...data, header: { ...data.header, simVersion: 'bitrally-sim-5' } };
    await expect(verifyReplayData(old, { stages: nodeStageSource, cars: vehicleCarAdapter })).rejects.toBeInstanceOf(ReplayFormatError);
  });
});
