/**
 * Town traffic (issue 23): the realtime factor of a town run with 200 traffic vehicles (Félez et al. bicycle
 * model and driver, 50 Hz) around the player's car (full vehicle model, 500 Hz, autopilot), headless on one
 * core, goal ≥ 10×; and the traffic step alone per vehicle.
 */
import { loadBuiltinCar } from '../../src/content/cars/index';
import { TownRun } from '../../src/run/town';
import type { BenchResult, BenchSuite } from '../types';

const CAR_IDS = ['rally-awd', 'hatch-gti', 'classic-rwd'];
/** Issue #23: 200 traffic cars + the player at ≥ 10× real time. */
const TOWN_GOAL_RTF = 10;
const TRAFFIC_CARS = 200;

function timeRun(run: TownRun, warmS: number, simS: number): number {
  run.run(warmS);
  const t0 = performance.now();
  run.run(simS);
  return (performance.now() - t0) / 1000;
}

export const suite: BenchSuite = {
  name: 'traffic',
  async run({ quick }) {
    const cars = CAR_IDS.map((id) => loadBuiltinCar(id));
    const simS = quick ? 10 : 60;
    const withPlayer = new TownRun({ seed: 1, cars: TRAFFIC_CARS, player: cars[1]!, trafficCars: cars });
    const wall = timeRun(withPlayer, 2, simS);
    const trafficOnly = new TownRun({ seed: 1, cars: TRAFFIC_CARS, player: null, trafficCars: cars });
    const wallT = timeRun(trafficOnly, 2, simS);
    const steps = simS / 0.02;
    const out: BenchResult[] = [
      {
        suite: 'traffic',
        name: `town run, ${TRAFFIC_CARS} traffic cars + the player`,
        value: simS / wall,
        unit: '× real time',
        lowerIsBetter: false,
        target: TOWN_GOAL_RTF,
        quickReportOnly: 'a 10 s run on a shared CI core is too noisy near the goal; the full run checks it',
        note: `${simS} s simulated, seed 1; ${withPlayer.traffic.state.count} traffic vehicles alive at the end; player: full model at 500 Hz (midpoint) with the autopilot; ${withPlayer.lod.promotions} traffic promotions to the full model (within 15 m)`,
      },
      {
        suite: 'traffic',
        name: `traffic step, ${TRAFFIC_CARS} vehicles, no player`,
        value: (wallT * 1e6) / (steps * trafficOnly.traffic.state.count),
        unit: 'µs/vehicle/step',
        note: `driver + bicycle model + junctions + contact check at 50 Hz; ${(simS / wallT).toFixed(1)}× real time`,
      },
    ];
    return out;
  },
};
