/**
 * Town replays (issue 23): a town run records like any other run (the player's quantised inputs, checksums),
 * plus the header's `town` field: the town seed and traffic size, the ticks before which the instructor acted,
 * and the traffic's car files. The traffic is deterministic from these and the player's inputs, so the
 * verifier rebuilds the town (`TownRun`), re-simulates from tick 0 with the recorded inputs and instructor
 * actions, and compares every checksum (the world's state and the traffic's: `TownRun.stateHash`). A town run
 * records no keyframes: a world snapshot holds no traffic state, so there is nothing to restore from.
 */
import { neutralInput, type InputSource, type QuantizedInput } from '../ecs/controls';
import type { SimWorld } from '../ecs/world';
import type { CarConfig } from '../content/car-schema';
import { BUILTIN_CARS, readBuiltin } from '../content/cars/index';
import { carConfigFromReplay, embedCarFiles } from '../run/cars';
import { TownRun } from '../run/town';
import type { InstructorPick } from '../run/town-accidents';
import { ReplayRecorder } from './recorder';
import { ReplayFormatError } from './bytes';
import { InputCursor, type InputStreams } from './inputs';
import type { ReplayData, ReplayHeader, ReplayTown } from './format';
import { checkTickBudget, WallBudget } from './budget';
import { WALL_CHECK_EVERY_TICKS } from './limits';
import { SIM_VERSION } from './version';
import type { VerifyEnv, VerifyReport } from './verify-report';

/** Keyframe spacing of a town recording: never (a tick count past any replay's length). */
export const TOWN_NO_KEYFRAMES_S = 1e9;

/** The shipped cars as the traffic's car files (every town run uses them; the header embeds them). */
export function builtinTrafficCars(): ReplayTown['trafficCars'] {
  return BUILTIN_CARS.map((b) => ({ id: b.id, main: b.file, files: embedCarFiles(b.file, b.text, readBuiltin) }));
}

/** Parses embedded car files; a file the loader refuses is a replay error naming the header field. */
function parseCar(src: ReplayTown['trafficCars'][number], field: string, file: string): CarConfig {
  try {
    return carConfigFromReplay(src);
  } catch (e) {
    throw new ReplayFormatError(file, field, 'a valid car file', (e as Error).message.slice(0, 160));
  }
}

/** Plays a car's recorded inputs (neutral past the end). */
export class TownRecordedInput implements InputSource {
  private readonly q: QuantizedInput = neutralInput();
  private readonly cursor: InputCursor;
  constructor(private readonly inputs: InputStreams) {
    this.cursor = new InputCursor(inputs, 0);
  }
  next(world: SimWorld): QuantizedInput {
    return world.tick >= this.inputs.ticks ? neutralInput() : this.cursor.read(world.tick, this.q);
  }
}

/** The town run a town replay header describes, its player's car driven by `input`. */
export function buildTownReplayRun(header: ReplayHeader, input: InputSource, file = 'replay'): TownRun {
  const town = header.town;
  if (!town) throw new ReplayFormatError(file, 'header.town', 'a town run', 'none');
  const playerCar = header.cars[0];
  if (header.cars.length !== 1 || playerCar?.role !== 'player') throw new ReplayFormatError(file, 'header.cars', 'one player car in a town run', `${header.cars.length} cars`);
  const player = parseCar(playerCar, 'header.cars.0', file);
  const trafficCars = town.trafficCars.map((c, i) => parseCar(c, `header.town.trafficCars.${i}`, file));
  const run = new TownRun({ seed: town.seed, cars: town.cars, player, trafficCars, playerInput: input });
  const w = run.world;
  if (w.dt !== header.dt || w.integrator !== header.integrator || w.seed !== header.seed) {
    throw new ReplayFormatError(file, 'header.dt', `a town run's setup (dt ${w.dt}, ${w.integrator}, seed ${w.seed})`, `dt ${header.dt}, ${header.integrator}, seed ${header.seed}`);
  }
  return run;
}

/** Checks one recorded checksum after each tick (TownRun.tick's observer). */
class TownChecker {
  checked = 0;
  matched = 0;
  desync: VerifyReport['firstDesync'] = null;
  constructor(
    private readonly run: TownRun,
    private readonly sums: Map<number, string>,
  ) {}
  check(tick: number): void {
    const h = this.sums.get(tick);
    if (h === undefined) return;
    const found = this.run.stateHash();
    this.checked++;
    if (h === found) this.matched++;
    else this.desync ??= { tick, timeS: tick * this.run.world.dt, expected: h, found, differences: [], comparedAtTick: null };
  }
  afterTick(world: SimWorld): void {
    this.check(world.tick);
  }
}

/** Re-simulates a town replay from tick 0 and compares every checksum (`verifyReplayData` sends town replays here). */
export function verifyTownReplay(data: ReplayData, env: VerifyEnv): VerifyReport {
  const h = data.header;
  checkTickBudget(h, env.budget?.maxCarTicks, env.file);
  if (data.keyframes.length > 0 || data.edits.length > 0) throw new ReplayFormatError(env.file ?? 'replay', 'keyframes', 'no keyframes or edits in a town run', `${data.keyframes.length} keyframes, ${data.edits.length} edits`);
  const wall = new WallBudget(h, env.budget);
  const run = buildTownReplayRun(h, new TownRecordedInput(data.inputs), env.file);
  const instruct = new Map<number, number>();
  for (const t of h.town!.instructorTicks) instruct.set(t, (instruct.get(t) ?? 0) + 1);
  const checker = new TownChecker(run, new Map(data.checksums.map((c) => [c.tick, c.hash])));
  checker.check(0);
  const obs = { checker };
  let budgetExceeded: VerifyReport['budgetExceeded'] = null;
  while (run.world.tick < h.ticks && !budgetExceeded) {
    for (let i = instruct.get(run.world.tick) ?? 0; i > 0; i--) run.instruct();
    run.tick(obs);
    if (run.world.tick % WALL_CHECK_EVERY_TICKS === 0) budgetExceeded = wall.over(run.world.tick, h.ticks);
  }
  const last = data.checksums[data.checksums.length - 1];
  return {
    ok: checker.desync === null && checker.checked === data.checksums.length && budgetExceeded === null,
    ticks: run.world.tick,
    simSeconds: run.world.tick * run.world.dt,
    checksumsChecked: checker.checked,
    checksumsMatched: checker.matched,
    firstDesync: checker.desync,
    finalHash: run.stateHash(),
    recordedFinalHash: last ? last.hash : null,
    simVersion: { recorded: h.simVersion, current: SIM_VERSION },
    stageTimeS: null,
    recordedStageTimeS: null,
    splitsS: [],
    keyframeMismatches: [],
    budgetExceeded,
  };
}

export interface TownRecordingOptions {
  seed: number;
  cars: number;
  /** The player's car as the header embeds it (pose: where the town run spawned it). */
  player: ReplayHeader['cars'][number];
  trafficCars: ReplayTown['trafficCars'];
  name?: string;
  /** ISO date (display only; the caller reads the clock). */
  createdAt?: string;
}

/**
 * Records a town run: a replay recorder on its world whose checksums hash the world and the traffic, and the
 * instructor actions taken between ticks (`instruct`), written to the header's `town` field.
 */
export class TownRecording {
  readonly recorder: ReplayRecorder;
  private readonly instructorTicks: number[] = [];

  constructor(
    readonly run: TownRun,
    o: TownRecordingOptions,
  ) {
    const town = (): ReplayTown => ({ seed: o.seed, cars: o.cars, instructorTicks: [...this.instructorTicks], trafficCars: o.trafficCars });
    this.recorder = new ReplayRecorder(run.world, {
      name: o.name ?? `Town ${o.seed}`,
      createdAt: o.createdAt,
      stage: null,
      keyframeEverySeconds: TOWN_NO_KEYFRAMES_S,
      cars: [{ car: o.player, eid: run.playerEid }],
      stateHash: () => run.stateHash(),
      town,
    });
  }

  /** The instructor action now (between ticks), recorded with the tick it precedes. */
  instruct(): InstructorPick | null {
    this.instructorTicks.push(this.run.world.tick);
    return this.run.instruct();
  }

  /** One tick of the run, recorded. */
  tick(): void {
    this.run.tick({ recorder: this.recorder });
  }
}
