/**
 * Replays for the server tests, recorded headlessly through the project's recorder the way the game records a
 * run (the AI driving the game's run setup on the shipped stage test-short, holding through the 3 s countdown),
 * and the hostile variants of one: an input sample changed, the final time edited, another car file, a stage the
 * server does not know, a zip bomb.
 */
import { join } from 'node:path';
import { deflateSync } from 'fflate';
import { readStageFiles } from '../../terrain/node';
import { loadStage } from '../../terrain/stage';
import { recordAiStageRun } from '../../src/replay/record-ai';
import { replayCarFromText } from '../../src/run/cars';
import { decodeReplay, encodeReplay, REPLAY_FORMAT, REPLAY_MAGIC, type ReplayData } from '../../src/replay/format';
import { InputStreamEncoder, inputAt } from '../../src/replay/inputs';
import { readCarFile } from '../../src/replay/node';
import { crc32 } from '../../src/replay/bytes';
import { DEFAULT_DRIVER } from '../../src/systems/sim/ai/stage-path';
import type { QuantizedInput } from '../../src/ecs/controls';

export const STAGE_DIR = join(import.meta.dirname, '../../src/content/stages/test-short');
/** The game's run setup (src/app/game.ts RUN_SETUP). */
export const GAME_SETUP = { dt: 1 / 500, integrator: 'midpoint' as const, seed: 1, gravity_m_s2: 9.81 };

/** An AI run on a shipped stage (default test-short) to the finish, as the game records it; the driver's skill varies the time. */
export function recordFinishedRun(carId = 'rally-awd', skill = DEFAULT_DRIVER.skill, stageDir = STAGE_DIR, maxSeconds = 120): Uint8Array {
  const files = readStageFiles(stageDir);
  const stage = loadStage(files, join(stageDir, 'stage.toml'));
  const pose = { x: stage.start.x, y: stage.start.y, z: stage.start.z, heading: stage.start.heading };
  const car = replayCarFromText({ id: carId, main: `${carId}.toml`, text: readCarFile(carId), read: readCarFile, pose });
  const rec = recordAiStageRun({ setup: GAME_SETUP, stage, files, car, driver: { ...DEFAULT_DRIVER, skill }, maxSeconds });
  if (!rec.timing?.finishTimeS) throw new Error(`fixture: the AI did not finish ${stage.id}`);
  return rec.bytes;
}

function partsOf(d: ReplayData, inputsBytes: Uint8Array) {
  return { header: d.header, inputsBytes, edits: d.edits, checksums: d.checksums, keyframes: d.keyframes, stageFiles: d.stageFiles };
}

/** The inputs re-encoded, with `edit` applied to each tick's quantised input. */
function encodeInputs(d: ReplayData, edit: (car: number, tick: number, q: QuantizedInput) => void): Uint8Array {
  const enc = new InputStreamEncoder(d.inputs.cars);
  const q: QuantizedInput = { steer: 0, throttle: 0, brake: 0, clutch: 0, handbrake: 0, buttons: 0 };
  for (let t = 0; t < d.inputs.ticks; t++) {
    for (let c = 0; c < d.inputs.cars; c++) {
      inputAt(d.inputs, c, t, q);
      edit(c, t, q);
      enc.push(c, q);
    }
  }
  return enc.encode(d.inputs.ticks);
}

/** Re-encoded with the header changed (`inputs` unchanged). */
export function withHeader(bytes: Uint8Array, change: (d: ReplayData) => ReplayData['header']): Uint8Array {
  const d = decodeReplay(bytes);
  return encodeReplay({ ...partsOf(d, encodeInputs(d, () => undefined)), header: change(d) });
}

/** One input sample changed: the steering at `tick` one quantum further left. */
export function withInputChanged(bytes: Uint8Array, tick: number): Uint8Array {
  const d = decodeReplay(bytes);
  return encodeReplay(partsOf(d, encodeInputs(d, (c, t, q) => (t === tick && c === 0 ? (q.steer += q.steer < 0 ? 1 : -1) : undefined))));
}

/** The final stage time edited (`deltaS` faster). */
export function withFinalTimeEdited(bytes: Uint8Array, deltaS: number): Uint8Array {
  return withHeader(bytes, (d) => ({ ...d.header, result: { ...d.header.result!, stageTimeS: d.header.result!.stageTimeS! - deltaS } }));
}

/** The car's main file swapped for `text` (a tuned car under the same name). */
export function withCarFile(bytes: Uint8Array, text: string): Uint8Array {
  return withHeader(bytes, (d) => {
    const car = d.header.cars[0]!;
    return { ...d.header, cars: [{ ...car, files: { ...car.files, [car.main]: text } }] };
  });
}

/** Names a stage the server does not have (another id and content hash). */
export function withUnknownStage(bytes: Uint8Array): Uint8Array {
  return withHeader(bytes, (d) => ({ ...d.header, stage: { id: 'secret-shortcut', hash: '0123456789abcdef', embedded: false } }));
}

/**
 * A zip bomb: a valid container whose payload deflates `inflatedBytes` of zeros into a few hundred KB, declaring
 * `declaredBytes` as its inflated length (honest: the real size; lying: a small number).
 */
export function zipBomb(inflatedBytes: number, declaredBytes = inflatedBytes): Uint8Array {
  const packed = deflateSync(new Uint8Array(inflatedBytes), { level: 9 });
  const out = new Uint8Array(24 + packed.length);
  out.set(new TextEncoder().encode(REPLAY_MAGIC), 0);
  const dv = new DataView(out.buffer);
  dv.setUint16(8, REPLAY_FORMAT, true);
  dv.setUint32(12, declaredBytes, true);
  dv.setUint32(16, packed.length, true);
  dv.setUint32(20, crc32(packed), true);
  out.set(packed, 24);
  return out;
}
