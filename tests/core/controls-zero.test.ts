/**
 * Replays store inputs as integers, which have no −0, and the state hash sees the sign of zero: a live run
 * that consumed steer = −0 and its playback that consumed +0 used to desync (found by the props e2e: tick
 * 2000, Controls.steer −0 vs +0). Math.round(−0.0004 · 1000) is −0, so the quantiser and the controls pass
 * must both hand the simulation +0.
 */
import { describe, expect, it } from 'vitest';
import { neutralInput, quantizeInput, setInputSource, type QuantizedInput } from '../../src/ecs/controls';
import { stateHash } from '../../src/ecs/hash';
import { rig } from '../vehicle/helpers';

describe('controls: no −0 reaches the simulation', () => {
  it('quantizeInput turns tiny negative axis values into +0, not −0', () => {
    const q = quantizeInput({ steer: -0.0004, throttle: -0.0001, brake: -0, clutch: 0, handbrake: -1e-9 });
    for (const v of [q.steer, q.throttle, q.brake, q.clutch, q.handbrake]) expect(Object.is(v, 0)).toBe(true);
    // and the rounding itself is unchanged away from zero
    expect(quantizeInput({ steer: -0.0006, throttle: 0.5, brake: 0, clutch: 0, handbrake: 0 }).steer).toBe(-1);
  });

  it('a source handing −0 drives bit for bit like one handing +0 (what a replay feeds back)', () => {
    const hashes: string[] = [];
    for (const zero of [-0, 0]) {
      const r = rig('hatch-gti');
      const input: QuantizedInput = { ...neutralInput(), steer: zero, brake: zero, throttle: 300 };
      setInputSource(r.world, r.eid, { next: () => input });
      r.run(0.5);
      expect(Object.is(r.world.c.Controls.steer[r.eid], 0)).toBe(true);
      hashes.push(stateHash(r.world));
    }
    expect(hashes[0]).toBe(hashes[1]);
  });
});
