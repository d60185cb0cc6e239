/**
 * Headless town traffic (issue 23 item 6):
 *   npm run traffic -- [--seed N] [--cars 200] [--minutes 10] [--player hatch-gti | --no-player] [--accidents K] [--json]
 * Generates the town of the seed, fills the control zone with traffic (Félez et al. model, docs/traffic.md)
 * around the player's car (driven by the autopilot round the ring road), runs it and prints: vehicles simulated,
 * km driven, lane changes, stops at red lights, red-light crossings, pedestrian-crossing violations, collisions (traffic–
 * traffic and with the player), the instructor's accidents by kind with their delta-v (--accidents K: the
 * instructor blinds K vehicles at evenly spread times), the realtime factor and the state hash. Exit 1 when a rule was broken
 * (a collision between traffic vehicles, a red light or a zebra crossing run), 2 on a bad command line.
 */
import { parseCommand, type CommandSpec } from './args';
import { exitWith, runCommand } from './errors';
import { builtinCarIds, loadCarArg } from './inputs';
import { loadBuiltinCar } from '../content/cars/index';
import { TownRun } from '../run/town';
import type { Accident } from '../run/town-accidents';
import { distanceDrivenM } from '../systems/sim/traffic/index';
import { townHash } from '../../terrain/town/index';

const SPEC = {
  usage: 'npm run traffic --',
  summary: "Headless town traffic: Félez et al.'s urban traffic model around the player's car, in a generated town.",
  details: ['Prints vehicles simulated, km driven, red-light stops, rule violations, collisions, the realtime factor and the state hash.'],
  positionals: [],
  options: {
    seed: { type: 'integer', default: 1, min: 0, max: 4294967295, help: 'town and traffic seed' },
    cars: { type: 'integer', default: 200, min: 0, max: 2000, help: 'traffic vehicles kept around the player' },
    minutes: { type: 'number', value: 'min', default: 10, above: 0, max: 240, help: 'simulated time' },
    player: { type: 'string', value: 'car', default: 'hatch-gti', help: `the player's car (a car file or a built-in id: ${builtinCarIds().join(', ')})` },
    'no-player': { type: 'boolean', help: 'no player: the control zone covers the whole town' },
    accidents: { type: 'integer', value: 'K', default: 0, min: 0, max: 100, help: 'instructor actions: K vehicles blinded at times (i+1)·T/(K+1)' },
    json: { type: 'boolean', help: 'print one JSON line' },
  },
  examples: ['npm run traffic -- --seed 7 --cars 200 --minutes 10', 'npm run traffic -- --minutes 2 --accidents 3', 'npm run -s traffic -- --minutes 1 --json | jq .state_hash'],
} as const satisfies CommandSpec;

export function trafficMain(argv: string[]): number {
  return runCommand(() => {
    const o = parseCommand(SPEC, argv).options;
    const trafficCars = builtinCarIds().map((id) => loadBuiltinCar(id));
    const player = o['no-player'] ? null : loadCarArg(o.player);
    const simS = o.minutes * 60;
    const instructorTimesS = Array.from({ length: o.accidents }, (_, i) => ((i + 1) * simS) / (o.accidents + 1));
    const run = new TownRun({ seed: o.seed, cars: o.cars, player, trafficCars, instructorTimesS });
    const t0 = process.hrtime.bigint();
    run.run(simS);
    const wallS = Number(process.hrtime.bigint() - t0) / 1e9;
    const st = run.traffic.stats;
    const report = {
      seed: o.seed,
      town_hash: townHash(run.town),
      simulated_s: simS,
      vehicles_simulated: st.spawned,
      vehicles_alive: run.traffic.state.count,
      km_driven: distanceDrivenM(run.traffic) / 1000,
      red_light_stops: st.redLightStops,
      lane_changes: st.laneChanges,
      red_light_crossings: st.redLightCrossings,
      zebra_crossing_violations: st.crossingViolations,
      collisions: st.collisions,
      player_contacts: st.playerContacts,
      instructor_picks: run.picks.length,
      accidents: accidentSummary(run.accidents.accidents),
      promotions: run.lod.promotions,
      realtime_factor: simS / wallS,
      state_hash: run.stateHash(),
    };
    if (o.json) console.log(JSON.stringify(report));
    else {
      console.log(`town seed ${o.seed} (${report.town_hash}), ${o.minutes} min simulated${player ? `, player ${player.id}` : ', no player'}`);
      console.log(`vehicles simulated ${report.vehicles_simulated} (alive at the end ${report.vehicles_alive}), ${report.km_driven.toFixed(1)} km driven`);
      console.log(`lane changes ${report.lane_changes}`);
      console.log(`stops at red lights ${report.red_light_stops}; red-light crossings ${report.red_light_crossings}; zebra-crossing violations ${report.zebra_crossing_violations}`);
      console.log(`collisions ${report.collisions} (traffic–traffic), ${report.player_contacts} with the player`);
      console.log(`instructor picks ${report.instructor_picks}/${o.accidents}; promotions to the full car model ${report.promotions}`);
      for (const a of report.accidents) console.log(`accidents ${a.kind}: ${a.count} (${a.instructed} instructed), delta-v mean ${a.dv_mean_ms.toFixed(2)} m/s, max ${a.dv_max_ms.toFixed(2)} m/s`);
      console.log(`realtime factor ${report.realtime_factor.toFixed(1)}×; state hash ${report.state_hash}`);
    }
    return st.collisions + st.redLightCrossings + st.crossingViolations > 0 ? 1 : 0;
  });
}

/** Accidents by kind: count, instructed ones, mean and largest delta-v of the car parties (m/s). */
function accidentSummary(list: readonly Accident[]): { kind: string; count: number; instructed: number; dv_mean_ms: number; dv_max_ms: number }[] {
  const kinds = [...new Set(list.map((a) => a.kind))].sort();
  return kinds.map((kind) => {
    const of = list.filter((a) => a.kind === kind);
    const dv = of.flatMap((a) => a.parties.filter((p) => Number.isFinite(p.massKg)).map((p) => Math.hypot(p.dvx, p.dvz)));
    return { kind, count: of.length, instructed: of.filter((a) => a.instructed).length, dv_mean_ms: dv.reduce((x, y) => x + y, 0) / dv.length, dv_max_ms: Math.max(...dv) };
  });
}

if (process.argv[1]?.endsWith('traffic.ts')) exitWith(trafficMain(process.argv.slice(2)));
