/**
 * Re-simulates tests/replay/fixtures/format4-scripted.bitrally with this build's simulation and writes its state
 * checksums, keyframes and header.simVersion back, keeping the format 4 build's inputs section ('I', run streams)
 * byte for byte: the file stays a format 4 file (what tests/replay/old-formats.test.ts reads) whose recorded
 * states are this sim version's. Run it after a change that alters simulation results on flat ground
 * (src/replay/version.ts SIM_VERSION bumped):
 *   npx tsx tests/replay/rehash-format4-fixture.ts [--check]
 * `--check` writes nothing and exits 1 when the fixture's states are not this build's.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeReplay, packReplay, type ReplayData } from '../../src/replay/format';
import { recordRun } from '../../src/replay/record-run';
import { InputCursor } from '../../src/replay/inputs';
import { neutralInput, type InputSource } from '../../src/ecs/controls';
import { SIM_VERSION } from '../../src/replay/version';
import { jsonBytes, payloadOf, section, sectionsOf, withSection } from './wire';

const FIXTURE = join(import.meta.dirname, 'fixtures/format4-scripted.bitrally');

/** The fixture's car-0 inputs, tick by tick. */
function recordedInput(inputs: ReplayData['inputs']): InputSource {
  const cursor = new InputCursor(inputs, 0);
  const q = neutralInput();
  return { next: (w) => cursor.read(w.tick, q) };
}

function main(check: boolean): number {
  const bytes = readFileSync(FIXTURE);
  const old = decodeReplay(bytes, 'format4-scripted.bitrally');
  const h = old.header;
  // the same run re-recorded by this build: the fixture's own inputs played back, its cadences
  const again = recordRun({
    setup: { dt: h.dt, integrator: h.integrator, seed: h.seed, gravity_m_s2: h.gravity_m_s2 },
    cars: h.cars,
    sources: [recordedInput(old.inputs)],
    stage: null,
    groundHeightM: h.ground?.kind === 'flat' ? h.ground.height_m : 0,
    maxSeconds: h.ticks * h.dt,
    checksumEveryTicks: h.checksumEveryTicks,
    keyframeEverySeconds: h.keyframeEveryTicks * h.dt,
    name: h.name,
    createdAt: h.createdAt,
  });
  const fresh = sectionsOf(again.bytes);
  const same = JSON.stringify(decodeReplay(again.bytes).checksums) === JSON.stringify(old.checksums);
  if (check) {
    console.log(same ? `${FIXTURE}: states match ${SIM_VERSION}` : `${FIXTURE}: states differ from ${SIM_VERSION} (run without --check to rewrite)`);
    return same ? 0 : 1;
  }
  let secs = sectionsOf(bytes);
  secs = withSection(secs, 'H', jsonBytes({ ...h, simVersion: SIM_VERSION }));
  secs = withSection(secs, 'C', section(fresh, 'C'));
  secs = withSection(secs, 'K', section(fresh, 'K'));
  writeFileSync(FIXTURE, packReplay(payloadOf(secs), 9, 4));
  console.log(`${FIXTURE}: ${same ? 'states unchanged' : 'checksums and keyframes re-simulated'} (${SIM_VERSION})`);
  return 0;
}

process.exitCode = main(process.argv.includes('--check'));
