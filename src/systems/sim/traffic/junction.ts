/**
 * Behaviour at junctions (Félez §6.3.2–6.3.3). A vehicle may drive onto a junction connector only once it
 * holds it: the junction grants a connector when none of the connectors it conflicts with (crossing, merging
 * or diverging within CONFLICT_CLEARANCE_M) is occupied, the exit lane has room, and the rules of its entry
 * allow it:
 *  - traffic light (master light per junction, phases shared by the entries of one axis): go on green; on
 *    yellow stop if the stop line can be reached at the comfortable deceleration (a more aggressive driver
 *    accepts a harder stop as "can't stop"), else commit; stop on red. A left turn on green yields to the
 *    oncoming traffic;
 *  - stop sign: halt at the line first, then yield to traffic on the priority arms;
 *  - give way: a passive driver halts as at a stop sign, others slow to a crawl, and yield;
 *  - priority arm or bend: occupancy only.
 * Yielding: a vehicle on a priority arm that will arrive within the accepted time gap and whose movement
 * conflicts. Equal rank (two yielding vehicles waiting): the degree of visibility (Figure 10) decides: the
 * driver who has the other nearer the centre of its view concedes. A driver who has waited past
 * MAX_YIELD_WAIT_S stops conceding on visibility (but never on occupancy), which ends any waiting cycle.
 */
import { datan2 } from '../../../../terrain/dmath';
import { lightColour } from '../../../../terrain/town/index';
import { wrapPi } from '../ai/driver-model';
import { APPROACH_COMMITTED, APPROACH_FREE } from './state';
import { COMFORT_DECEL_MS2, MAX_DECEL_MS2, STANDSTILL_GAP_M } from './references';
import { EXTERNAL } from './buckets';
import type { TrafficSim } from './sim';

/** Distance before the stop line where a driver asks for the junction, beyond its braking distance, m. */
const REQUEST_MARGIN_M = 15;
/** Accepted time gap to priority traffic: passive 5 s … aggressive 3 s. */
const GAP_ACCEPT_MAX_S = 5;
const GAP_ACCEPT_MIN_S = 3;
/** Halt needed at a stop sign: speed below, for at least, within the distance of the line. */
export const HALT_SPEED_MS = 0.2;
const HALT_TIME_S = 1;
const HALT_ZONE_M = 4;
const MAX_YIELD_WAIT_S = 8;
/** Harder stops on yellow an aggressive driver still rejects as impossible (× comfortable deceleration). */
const YELLOW_DECEL_SPREAD = 0.6;

const axisOfArm = (arm: number): 0 | 1 => (arm % 2 === 0 ? 0 : 1);

/** Distance from vehicle k's front to the end of its lane (the stop line), m. */
export function distanceToLine(sim: TrafficSim, k: number): number {
  const st = sim.state;
  return sim.town.paths[st.path[k]!]!.length - st.s[k]! - sim.typeOf(k).lengthM / 2;
}

/** The light decision: may go, must stop, or commit through yellow. */
function lightAllows(sim: TrafficSim, k: number, node: number, arm: number, d: number): boolean {
  const st = sim.state;
  const light = sim.town.control.lights[node]!;
  const col = lightColour(light, axisOfArm(arm), st.timeS);
  if (col === 0) return true;
  const u = st.u[k]!;
  if (col === 1) {
    if (st.approach[k] === APPROACH_COMMITTED) return true;
    const b = COMFORT_DECEL_MS2 * (1 + YELLOW_DECEL_SPREAD * (1 - st.aggr[k]!));
    if (d > (u * u) / (2 * b)) return false;
    st.approach[k] = APPROACH_COMMITTED;
    return true;
  }
  // red: only a vehicle that cannot stop any more at full braking keeps going (it committed on yellow)
  return st.approach[k] === APPROACH_COMMITTED && d < (u * u) / (2 * MAX_DECEL_MS2);
}

/** Visibility angle (Figure 10): angle between vehicle a's heading and the line from a to b, rad in [0, π]. */
export function visibilityAngle(ax: number, az: number, apsi: number, bx: number, bz: number): number {
  // bearing of b from a, in the heading convention forward = (sin ψ, cos ψ)
  return Math.abs(wrapPi(datan2(bx - ax, bz - az) - apsi));
}

/**
 * True when connector c must be left to another vehicle now. `leftOnGreen`: a left turn under a green light
 * yields to oncoming traffic going straight or right (by time gap). Otherwise (a minor arm): yield by time gap
 * to vehicles on priority arms and, between two minor arms, by visibility.
 */
function mustYield(sim: TrafficSim, k: number, c: number, leftOnGreen: boolean): boolean {
  const { town, state: st, buckets } = sim;
  const conn = town.paths[c]!;
  const control = town.control.arms[conn.node]!;
  const accept = GAP_ACCEPT_MAX_S - (GAP_ACCEPT_MAX_S - GAP_ACCEPT_MIN_S) * st.aggr[k]!;
  for (const c2 of conn.conflicts) {
    const p2 = town.paths[c2]!;
    if (leftOnGreen && (p2.arm !== (conn.arm + 2) % 4 || p2.turn === 'left')) continue;
    const ctl2 = control[p2.arm]!;
    const byVisibility = !leftOnGreen && (ctl2 === 'stop' || ctl2 === 'giveway');
    // the first vehicle before the stop line on that lane, if it is headed for c2
    const lane = p2.from;
    const i = buckets.start[lane + 1]! - 1;
    if (i < buckets.start[lane]!) continue;
    const j = buckets.items[i]!;
    if (j === k || (j === EXTERNAL ? sim.player!.next1 : st.next1[j]!) !== c2) continue;
    if (byVisibility) {
      if (concedesByVisibility(sim, k, j)) return true;
      continue;
    }
    const uJ = j === EXTERNAL ? sim.player!.u : st.u[j]!;
    const dJ = town.paths[lane]!.length - buckets.itemS[i]!;
    if (dJ / Math.max(uJ, 1) < accept) return true;
  }
  return false;
}

/** Equal rank: k concedes if it sees j nearer the centre of its view than j sees k (and k has not waited too long). */
function concedesByVisibility(sim: TrafficSim, k: number, j: number): boolean {
  const st = sim.state;
  if (j === EXTERNAL || st.waitS[k]! > MAX_YIELD_WAIT_S) return j === EXTERNAL;
  if (st.u[j]! > HALT_SPEED_MS * 10) return false; // j is not waiting at its line
  const aK = visibilityAngle(st.x[k]!, st.z[k]!, st.psi[k]!, st.x[j]!, st.z[j]!);
  const aJ = visibilityAngle(st.x[j]!, st.z[j]!, st.psi[j]!, st.x[k]!, st.z[k]!);
  return aK < aJ || (aK === aJ && st.serial[k]! > st.serial[j]!);
}

/** Room on the exit lane for this vehicle (the last vehicle there is a body length + G0 in). */
function exitHasRoom(sim: TrafficSim, k: number, c: number): boolean {
  const exit = sim.town.paths[c]!.next[0]!;
  const b = sim.buckets;
  if (b.count(exit) === 0) return true;
  const first = b.start[exit]!;
  const j = b.items[first]!;
  const lenJ = j === EXTERNAL ? sim.player!.lengthM : sim.typeOf(j).lengthM;
  return b.itemS[first]! - lenJ / 2 > sim.typeOf(k).lengthM + STANDSTILL_GAP_M;
}

function conflictsFree(sim: TrafficSim, c: number): boolean {
  for (const c2 of sim.town.paths[c]!.conflicts) if (sim.occupancy(c2) > 0) return false;
  return true;
}

/** The entry rule of the arm (light, signs) allows vehicle k to go now (not counting occupancy). */
function entryRuleAllows(sim: TrafficSim, k: number, c: number, d: number): boolean {
  const st = sim.state;
  const conn = sim.town.paths[c]!;
  const ctl = sim.town.control.arms[conn.node]![conn.arm]!;
  if (ctl === 'light') {
    if (!lightAllows(sim, k, conn.node, conn.arm, d)) return false;
    return conn.turn !== 'left' || !mustYield(sim, k, c, true);
  }
  if (ctl === 'stop' || (ctl === 'giveway' && st.aggr[k]! < 1 / 3)) {
    if (!(d < HALT_ZONE_M && st.waitS[k]! >= HALT_TIME_S)) return false;
    return !mustYield(sim, k, c, false);
  }
  if (ctl === 'giveway') return !mustYield(sim, k, c, false);
  return true;
}

/**
 * The stop distance the junction ahead imposes on vehicle k (Infinity = none): k is on a lane, its next path
 * connector c. Grants c when the rules allow, releases a grant it can no longer use (light turned).
 */
export function junctionStop(sim: TrafficSim, k: number): number {
  const st = sim.state;
  const c = st.next1[k]!;
  const d = distanceToLine(sim, k);
  const u = st.u[k]!;
  if (st.held[k] === c) {
    const ctl = sim.town.control.arms[sim.town.paths[c]!.node]![sim.town.paths[c]!.arm]!;
    if (ctl !== 'light' || lightAllows(sim, k, sim.town.paths[c]!.node, sim.town.paths[c]!.arm, d)) return Infinity;
    release(sim, k);
    return d;
  }
  if (d > (u * u) / (2 * COMFORT_DECEL_MS2) + REQUEST_MARGIN_M) return Infinity;
  if (st.held[k]! >= 0) return d; // still holding the previous junction (tail not out yet)
  // only the first vehicle of the lane asks (a grant behind it would lock the one in front out)
  if (sim.buckets.firstAhead(st.path[k]!, st.s[k]!, k) >= 0) return d;
  if (!entryRuleAllows(sim, k, c, d) || !conflictsFree(sim, c) || !exitHasRoom(sim, k, c)) return d;
  st.held[k] = c;
  sim.granted[c]!++;
  return Infinity;
}

/** Gives back vehicle k's connector grant. */
export function release(sim: TrafficSim, k: number): void {
  const c = sim.state.held[k]!;
  if (c >= 0) sim.granted[c]!--;
  sim.state.held[k] = -1;
  sim.state.approach[k] = APPROACH_FREE;
}

/**
 * The player's car asks for the connector ahead like a traffic driver on a priority arm (occupancy only), so
 * the junction stops handing conflicting connectors to traffic; the grant is dropped once its tail is out.
 * Returns true when the player holds its next connector (or needs none).
 */
export function grantPlayer(sim: TrafficSim): boolean {
  const pl = sim.player;
  if (!pl || pl.path < 0) return true;
  const p = sim.town.paths[pl.path]!;
  if (p.kind !== 'lane') return true;
  if (sim.playerHeld >= 0 && sim.playerHeld !== pl.next1 && pl.s > pl.lengthM / 2 + 0.5) sim.playerHeld = -1;
  if (sim.playerHeld === pl.next1) return true;
  const d = p.length - pl.s - pl.lengthM / 2;
  if (d > (pl.u * pl.u) / (2 * COMFORT_DECEL_MS2) + REQUEST_MARGIN_M) return true;
  // like a traffic driver, only the first in its lane asks
  if (sim.playerHeld >= 0 || sim.buckets.firstAhead(pl.path, pl.s, EXTERNAL) >= 0 || !conflictsFree(sim, pl.next1)) return false;
  sim.playerHeld = pl.next1;
  return true;
}
