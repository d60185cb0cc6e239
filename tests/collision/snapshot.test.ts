import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseScenario } from '../../src/content/scenario-schema';
import { buildScenario } from '../../src/run/scenario';
import { runTick } from '../../src/run/pipeline';
import { stateHash } from '../../src/ecs/hash';
import { saveSnapshot } from '../../src/ecs/snapshot';
import { restoreSnapshot } from '../../src/run/snapshot';
import { loadHavokNode } from '../../src/systems/sim/collision/havok-node';

beforeAll(async () => {
  await loadHavokNode();
});

function resumeMatches(name: string, splitTick: number, moreTicks: number) {
  const f = `src/content/scenarios/${name}.toml`;
  const s = parseScenario(readFileSync(f, 'utf8'), f);
  const A = buildScenario(s).world;
  for (let i = 0; i < splitTick; i++) runTick(A);
  A.events.length = 0;
  const snap = saveSnapshot(A);
  let eventsA = 0;
  for (let i = 0; i < moreTicks; i++) {
    runTick(A);
    eventsA += A.events.length;
    A.events.length = 0;
  }
  const B = buildScenario(s).world;
  restoreSnapshot(B, snap);
  let eventsB = 0;
  for (let i = 0; i < moreTicks; i++) {
    runTick(B);
    eventsB += B.events.length;
    B.events.length = 0;
  }
  let maxProp = 0, maxCar = 0;
  for (let e = 0; e < A.capacity; e++) {
    if (A.c.Prop.mass[e]! > 0) maxProp = Math.max(maxProp, Math.hypot(A.c.Prop.px[e]! - B.c.Prop.px[e]!, A.c.Prop.py[e]! - B.c.Prop.py[e]!, A.c.Prop.pz[e]! - B.c.Prop.pz[e]!));
    if (A.c.CarCollider.front[e]! > 0) maxCar = Math.max(maxCar, Math.hypot(A.c.RigidBody.px[e]! - B.c.RigidBody.px[e]!, A.c.RigidBody.pz[e]! - B.c.RigidBody.pz[e]!));
  }
  return { a: stateHash(A), b: stateHash(B), eventsA, eventsB, maxProp, maxCar };
}

describe('collision state in snapshots (replay keyframes)', () => {
  it('restoring mid-contact (car scraping along a wall) resumes bit-identically, same events', () => {
    // tick 330: between the first (t = 0.636 s) and the last (0.872 s) strike of the glancing scenario
    const r = resumeMatches('collision-glancing-wall', 330, 600);
    expect(r.b).toBe(r.a);
    expect(r.eventsB).toBe(r.eventsA);
  });
  it('with Havok props, a restore re-places the prop bodies; Havok\'s internal caches are not restored, so the run stays close but not bit-identical', () => {
    const r = resumeMatches('collision-props', 760, 400); // just after the barrel strike
    expect(r.maxCar).toBeLessThan(0.05);
    expect(r.maxProp).toBeLessThan(0.25);
  });
});
