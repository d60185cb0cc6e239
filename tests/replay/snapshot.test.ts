import { describe, expect, it } from 'vitest';
import { createSimWorld } from '../../src/ecs/world';
import { spawnBody, setAppliedForce } from '../../src/ecs/prefabs';
import { runTick } from '../../src/run/pipeline';
import { stateHash } from '../../src/ecs/hash';
import { diffSnapshots, saveSnapshot, SnapshotError, type WorldSnapshot } from '../../src/ecs/snapshot';
import { decodeSnapshot, decodeSnapshotSet, encodeSnapshot, encodeSnapshotSet } from '../../src/replay/snapshot-codec';
import { restoreSnapshot } from '../../src/run/snapshot';
import { buildRunWorld } from '../../src/run/run-world';
import { vehicleCarAdapter } from '../../src/run/cars';
import { HeldInput, setInputSource } from '../../src/ecs/controls';
import { hatchCar, SETUP } from './helpers';

function bodies(seed = 3) {
  const w = createSimWorld({ seed, integrator: 'rk4' });
  for (let i = 0; i < 3; i++) {
    const e = spawnBody(w, { mass: 2 + i, inertia: [1, 2, 3], position: [i, 5, 0], angularVelocity: [0.3, 2 + i, 0.1] });
    setAppliedForce(w, e, [0, 4, 0], [0, 0, 0], [0.4, 0, 0]);
  }
  return w;
}

describe('snapshot', () => {
  it('restoring a mid-run snapshot into a fresh world continues bit-identically (bodies, RK4)', () => {
    const a = bodies();
    for (let i = 0; i < 300; i++) runTick(a);
    const snap = decodeSnapshot(encodeSnapshot(saveSnapshot(a)));
    for (let i = 0; i < 700; i++) runTick(a);
    const b = bodies();
    b.rng.nextU32(); // perturb: the restore must bring the PRNG back too
    restoreSnapshot(b, snap);
    expect(b.tick).toBe(300);
    for (let i = 0; i < 700; i++) runTick(b);
    expect(stateHash(b)).toBe(stateHash(a));
    expect(b.c.RigidBody.vx[1]).toBe(a.c.RigidBody.vx[1]); // derived velocity refreshed by the restore
  });

  it('restoring a car keyframe reproduces the rest of the run (vehicle state blocks, wheels)', () => {
    const mk = () => {
      const r = buildRunWorld({ ...SETUP, ground: { kind: 'flat', height_m: 0 }, cars: [hatchCar()] }, null, vehicleCarAdapter);
      const h = new HeldInput();
      h.input = { steer: 200, throttle: 900, brake: 0, clutch: 0, handbrake: 0, buttons: 0 };
      setInputSource(r.world, r.cars[0]!, h);
      return r;
    };
    const a = mk();
    for (let i = 0; i < 1500; i++) runTick(a.world);
    const snap = saveSnapshot(a.world);
    for (let i = 0; i < 1000; i++) runTick(a.world);
    const b = mk();
    for (let i = 0; i < 37; i++) runTick(b.world); // some other state
    restoreSnapshot(b.world, snap);
    for (let i = 0; i < 1000; i++) runTick(b.world);
    expect(stateHash(b.world)).toBe(stateHash(a.world));
    expect(a.world.c.RigidBody.pz[a.cars[0]!]).toBeGreaterThan(5); // the car did drive
  });

  it('a snapshot set (replay keyframes, columnar byte planes) round-trips every bit and is smaller once deflated', async () => {
    const { deflateSync } = await import('fflate');
    const w = bodies(5);
    const snaps: WorldSnapshot[] = [];
    for (let k = 0; k < 12; k++) {
      for (let i = 0; i < 50; i++) runTick(w);
      snaps.push(saveSnapshot(w));
    }
    // values the bytes must carry exactly: −0, NaN payload, subnormal, infinity
    const f = snaps[3]!.components.find((c) => c.name === 'RigidBody')!.fields.get('px')!;
    f[0] = -0;
    f[1] = Number.MIN_VALUE;
    f[2] = Number.NEGATIVE_INFINITY;
    const back = decodeSnapshotSet(encodeSnapshotSet(snaps));
    expect(back).toHaveLength(snaps.length);
    back.forEach((b, i) => {
      expect(diffSnapshots(snaps[i]!, b)).toEqual([]);
      expect(encodeSnapshot(b)).toEqual(encodeSnapshot(snaps[i]!)); // byte for byte (Object.is on −0 too)
    });
    const whole = snaps.map(encodeSnapshot);
    const joined = new Uint8Array(whole.reduce((a, b) => a + b.length, 0));
    whole.reduce((at, b) => (joined.set(b, at), at + b.length), 0);
    expect(deflateSync(encodeSnapshotSet(snaps), { level: 9 }).length).toBeLessThan(deflateSync(joined, { level: 9 }).length);
    // different layouts (another entity set) fall back to whole snapshots, still exact
    const other = saveSnapshot(bodies(6));
    other.entities = Int32Array.from([...other.entities, 99]);
    const mixed = decodeSnapshotSet(encodeSnapshotSet([snaps[0]!, other]));
    expect(diffSnapshots(other, mixed[1]!)).toEqual([]);
    expect(decodeSnapshotSet(encodeSnapshotSet([]))).toEqual([]);
    // truncated or padded sets are refused
    const b = encodeSnapshotSet(snaps);
    expect(() => decodeSnapshotSet(b.subarray(0, b.length - 3))).toThrow(SnapshotError);
    expect(() => decodeSnapshotSet(new Uint8Array([...b, 0]))).toThrow(/trailing/);
  });

  it('diff names the component, field and entity that differ', () => {
    const a = bodies();
    for (let i = 0; i < 10; i++) runTick(a);
    const s1 = saveSnapshot(a);
    a.c.RigidBody.Ly[2] = a.c.RigidBody.Ly[2]! + 1e-12;
    const d = diffSnapshots(s1, saveSnapshot(a));
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ what: 'RigidBody.Ly', eid: 2 });
  });

  it('refuses a world with another entity set, and truncated bytes', () => {
    const a = bodies();
    const snap = saveSnapshot(a);
    const b = createSimWorld();
    spawnBody(b, { mass: 1, inertia: [1, 1, 1] });
    expect(() => restoreSnapshot(b, snap)).toThrow(/entity set differs/);
    const bytes = encodeSnapshot(snap);
    expect(() => decodeSnapshot(bytes.subarray(0, bytes.length - 5))).toThrow(SnapshotError);
  });

  it('refuses a car keyframe without Wheel.travelRate (written before bitrally-sim-4: massless wheels)', () => {
    const mk = () => buildRunWorld({ ...SETUP, ground: { kind: 'flat', height_m: 0 }, cars: [hatchCar()] }, null, vehicleCarAdapter);
    const a = mk();
    for (let i = 0; i < 50; i++) runTick(a.world);
    const snap = saveSnapshot(a.world);
    // A sim-3 build had no travelRate state: its keyframes carry every other Wheel field but not that one.
    const old: WorldSnapshot = {
      ...snap,
      components: snap.components.map((c) => (c.name === 'Wheel' ? { ...c, fields: new Map([...c.fields].filter(([f]) => f !== 'travelRate')) } : c)),
    };
    const bytes = encodeSnapshotSet([old]);
    const b = mk();
    const before = stateHash(b.world);
    // Refused through the byte format too (field names travel in the keyframe block), and nothing is written.
    expect(() => restoreSnapshot(b.world, decodeSnapshotSet(bytes)[0]!)).toThrow('snapshot: component "Wheel" lacks state field "travelRate"');
    expect(stateHash(b.world)).toBe(before);
  });

  it('snapshots of the version before honest state (with an extension section) are refused, naming both versions', () => {
    const one = encodeSnapshot(saveSnapshot(bodies()));
    new DataView(one.buffer, one.byteOffset).setUint32(4, 1, true);
    expect(() => decodeSnapshot(one)).toThrow('snapshot: version 1, this build reads version 2');
    const set = encodeSnapshotSet([saveSnapshot(bodies())]);
    new DataView(set.buffer, set.byteOffset).setUint32(4, 1, true);
    expect(() => decodeSnapshotSet(set)).toThrow('snapshot set: version 1, this build reads version 2');
  });
});
