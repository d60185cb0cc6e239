import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeReplay } from '../../src/replay/format';
import { recordRun } from '../../src/replay/record-run';
import { ScriptedDriver } from '../../src/replay/script';
import { verifyReplay, verifyReplayData } from '../../src/replay/verify';
import { vehicleCarAdapter } from '../../src/run/cars';
import { ReplayPlayer } from '../../src/replay/player';
import { buildRunWorld } from '../../src/run/run-world';
import { stateHash } from '../../src/ecs/hash';
import { hatchCar, CAR_FILE, SETUP, inputSample, setInputSample } from './helpers';

const env = { stages: null, cars: vehicleCarAdapter };

describe('record → replay (5 minutes, scripted driver, full car pipeline)', () => {
  it('re-simulation matches every checksum and the final hash; a recorded recovery replays', async () => {
    let placed = false;
    const rec = recordRun({
      setup: SETUP,
      cars: [hatchCar()],
      sources: [new ScriptedDriver(11)],
      maxSeconds: 300,
      checksumEveryTicks: 250,
      keyframeEverySeconds: 5,
      adapter: vehicleCarAdapter,
      beforeTick: (run, r) => {
        if (!placed && run.world.tick === 60_000) {
          placed = true;
          const pose = { x: 3.25, y: 0, z: -7.5, heading: 0.3 };
          vehicleCarAdapter.place(run.world, run.cars[0]!, pose);
          r.edit(0, pose);
        }
      },
    });
    const liveFinal = stateHash(rec.run.world);
    const data = decodeReplay(rec.bytes, 'five-minutes.bitrally');
    expect(data.header.ticks).toBe(150_000);
    expect(data.checksums.length).toBe(150_000 / 250 + 1); // + the tick-0 checksum
    expect(data.keyframes.length).toBe(300 / 5); // none at tick 0 (format 2: the player saves its fresh world)
    expect(data.edits).toHaveLength(1);
    const report = await verifyReplayData(data, env);
    expect(report.firstDesync).toBeNull();
    expect(report.checksumsChecked).toBe(data.checksums.length);
    expect(report.checksumsMatched).toBe(data.checksums.length);
    expect(report.finalHash).toBe(liveFinal);
    expect(report.ok).toBe(true);
    // the car really drove (the replay is not of a parked car)
    const b = rec.run.world.c.RigidBody;
    const e = rec.run.cars[0]!;
    expect(Math.hypot(b.vx[e]!, b.vz[e]!)).toBeGreaterThan(3);
    // bytes per minute of driving (bench target ≤ 10 KB/min; here the scripted driver changes input every 8 ticks)
    expect(rec.bytes.length / 5).toBeLessThan(20_000);
  }, 180_000);
});

describe('playback details', () => {
  const rec = recordRun({ setup: SETUP, cars: [hatchCar()], sources: [new ScriptedDriver(5)], maxSeconds: 20, keyframeEverySeconds: 2, checksumEveryTicks: 250, adapter: vehicleCarAdapter });
  const data = decodeReplay(rec.bytes);

  it('seeking (backwards and forwards, between keyframes) lands on the recorded state', () => {
    const p = new ReplayPlayer(data, buildRunWorld(data.header, null, vehicleCarAdapter), vehicleCarAdapter);
    p.seek(7_321);
    expect(p.tick).toBe(7_321);
    p.seek(5_000); // a checksum tick (250 × 20)
    expect(stateHash(p.world)).toBe(data.checksums.find((c) => c.tick === 5_000)!.hash);
    p.seek(1_250);
    expect(stateHash(p.world)).toBe(data.checksums.find((c) => c.tick === 1_250)!.hash);
    p.seek(1e9);
    expect(p.ended).toBe(true);
    expect(stateHash(p.world)).toBe(data.checksums[data.checksums.length - 1]!.hash);
    expect(p.desync).toBeNull();
  });

  it('a changed input is reported at the first following checksum with the fields that differed, then resyncs on keyframes', async () => {
    const bad = decodeReplay(rec.bytes);
    setInputSample(bad.inputs, 0, 0, 3_100, inputSample(bad.inputs, 0, 0, 3_100) + 400); // one steering sample
    const report = await verifyReplayData(bad, env);
    expect(report.ok).toBe(false);
    expect(report.firstDesync!.tick).toBe(3_250); // first checksum after tick 3100
    expect(report.firstDesync!.comparedAtTick).toBe(4_000); // next keyframe (every 2 s = 1000 ticks)
    expect(report.firstDesync!.differences.length).toBeGreaterThan(0);
    expect(report.firstDesync!.differences.map((d) => d.what)).toContain('RigidBody.px');
    const p = new ReplayPlayer(bad, buildRunWorld(bad.header, null, vehicleCarAdapter), vehicleCarAdapter);
    p.seek(3_500);
    expect(p.trusted).toBe(false);
    p.seek(4_000);
    expect(p.trusted).toBe(true);
    expect(stateHash(p.world)).toBe(data.checksums.find((c) => c.tick === 4_000)!.hash); // recorded truth shown
  });

  it('editing the car file after recording changes nothing: the replay embeds the text', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bitrally-car-'));
    const file = join(dir, 'hatch-gti.toml');
    const text = readFileSync(CAR_FILE, 'utf8');
    writeFileSync(file, text);
    const car = { ...hatchCar(), files: { 'hatch-gti.toml': readFileSync(file, 'utf8') } };
    const r = recordRun({ setup: SETUP, cars: [car], sources: [new ScriptedDriver(9)], maxSeconds: 4, adapter: vehicleCarAdapter });
    const edited = text.replace(/mass_kg = 1420/, 'mass_kg = 1600');
    expect(edited).not.toBe(text);
    writeFileSync(file, edited);
    const report = await verifyReplay(r.bytes, env);
    expect(report.ok).toBe(true);
    // the edit does matter to a new recording: same script, edited file → another final state
    const r2 = recordRun({ setup: SETUP, cars: [{ ...car, files: { 'hatch-gti.toml': readFileSync(file, 'utf8') } }], sources: [new ScriptedDriver(9)], maxSeconds: 4, adapter: vehicleCarAdapter });
    expect(stateHash(r2.run.world)).not.toBe(report.finalHash);
  });
});
