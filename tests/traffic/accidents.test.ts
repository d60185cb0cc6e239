/**
 * Instructor accidents (issue 23 item 4): the instructor blinds a vehicle (Félez et al.: its references to
 * nearby vehicles, lights and signs switched off); the collision that follows involves that vehicle, near where
 * it was picked, and is resolved by Wu's impulse on the full car model, so the logged delta-v obeys the momentum
 * balance m1 Δv1 = −m2 Δv2 up to the tyre and ground forces acting over the same contact ticks.
 */
import { describe, expect, it } from 'vitest';
import { loadBuiltinCar } from '../../src/content/cars/index';
import { TownRun } from '../../src/run/town';
import { STANDARD_GRAVITY_M_S2 } from '../../src/content/world-constants';
import { spawnCli } from '../cli/spawn';
import type { AccidentParty } from '../../src/run/town-accidents';

const cars = ['rally-awd', 'hatch-gti', 'classic-rwd'].map((id) => loadBuiltinCar(id));
/** Fastest a blinded vehicle drives (the street speed × the most aggressive driver's factor, with margin), m/s. */
const MAX_TRAFFIC_SPEED_MS = 20;
/** The instructed collision comes within this time of the pick (a vehicle ahead within 40 m at ≥ 5 m/s), s. */
const PICK_TO_CRASH_S = 10;
/**
 * Horizontal tyre force per unit weight bound over a contact tick: tyre grip μ ≤ 1.2 on dry tarmac, and the
 * axle loads can rise above the static weight while the car pitches in the crash: 2 covers both.
 */
const TYRE_FORCE_PER_WEIGHT = 2;

describe('instructor accidents', () => {
  it('happen where chosen, and their delta-v obeys the momentum balance of the collision model', () => {
    const run = new TownRun({ seed: 1, cars: 120, player: cars[1]!, trafficCars: cars, instructorTimesS: [5, 14] });
    run.run(26);
    expect(run.picks.length).toBe(2);
    const dt = run.world.dt;
    for (const pick of run.picks) {
      const a = run.accidents.accidents.find((x) => x.timeS >= pick.timeS && x.parties.some((p) => p.id === `traffic ${pick.serial}`));
      expect(a, `an accident of traffic ${pick.serial}`).toBeDefined();
      expect(a!.instructed).toBe(true);
      expect(a!.timeS - pick.timeS).toBeLessThan(PICK_TO_CRASH_S);
      expect(Math.hypot(a!.x - pick.x, a!.z - pick.z)).toBeLessThan(MAX_TRAFFIC_SPEED_MS * (a!.timeS - pick.timeS) + 5);
      expect(a!.closingMS).toBeGreaterThan(1);
      const [p, q] = a!.parties as [AccidentParty, AccidentParty];
      expect(Number.isFinite(p.massKg) && Number.isFinite(q.massKg)).toBe(true);
      // m1 Δv1 + m2 Δv2 = (tyre and ground forces) × (contact ticks), never more than the bound
      const imbalance = Math.hypot(p.massKg * p.dvx + q.massKg * q.dvx, p.massKg * p.dvz + q.massKg * q.dvz);
      const tol = TYRE_FORCE_PER_WEIGHT * STANDARD_GRAVITY_M_S2 * dt * a!.contacts * (p.massKg + q.massKg);
      expect(imbalance).toBeLessThan(tol);
      // and the exchanged momentum is far larger than that tolerance (the check can fail)
      expect(p.massKg * Math.hypot(p.dvx, p.dvz)).toBeGreaterThan(5 * tol);
      expect(p.crushM + q.crushM).toBeGreaterThan(0);
    }
    // the instructor's accidents are not rule violations; the other drivers still keep the rules
    expect(run.traffic.stats.collisions).toBe(0);
    expect(run.traffic.stats.redLightCrossings).toBe(0);
  }, 120_000);

  it('npm run traffic -- --accidents 1 prints the accident by kind with its delta-v', async () => {
    const r = await spawnCli('src/cli/traffic.ts', ['--seed', '1', '--cars', '100', '--minutes', '0.4', '--accidents', '1', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { instructor_picks: number; accidents: { kind: string; count: number; instructed: number; dv_mean_ms: number }[] };
    expect(out.instructor_picks).toBe(1);
    const instructed = out.accidents.reduce((n, a) => n + a.instructed, 0);
    expect(instructed).toBeGreaterThanOrEqual(1);
    for (const a of out.accidents) expect(a.dv_mean_ms).toBeGreaterThan(0);
  }, 120_000);
});
