/**
 * The race's HUD pieces shared by the offline rallycross race (session.ts) and a multiplayer race room's drive
 * (src/app/multiplayer/session.ts): lap n/N and the joker indicator beside the timer, the timer with the
 * penalties included (as the results count them), and the toast of each race event of the player's car.
 */
import type { RaceEvent, RaceRunState } from '../../run/race-rules';
import { JOKER_PENALTY_S, JUMP_START_PENALTY_S } from '../../run/race';
import { RECOVER_PENALTY_S } from '../../systems/sim/vehicle/recovery';
import type { Hud } from '../../systems/view/hud';

/** The timer a race shows, s: the race clock (or the time at the flag) plus the penalties so far. */
export function raceTimerS(run: Pick<RaceRunState, 'finishTimeS' | 'penaltyS'>, raceClockS: number): number {
  return (run.finishTimeS ?? raceClockS) + run.penaltyS;
}

/** Lap n/N (the lap being driven, at most N), the joker (taken / due; none on a circuit without one), the penalty line. */
export function showRaceHud(hud: Hud, run: Pick<RaceRunState, 'lap' | 'jokers' | 'penaltyS'>, laps: number, hasJoker: boolean): void {
  hud.setPenalty(run.penaltyS);
  hud.setRace({ lap: Math.min(laps, run.lap + 1), laps, jokerTaken: hasJoker ? run.jokers > 0 : null });
}

/** What a race event of the player's car shows as a toast (text, seconds), or null (laps, start, finish). */
export function raceEventToast(ev: RaceEvent): { text: string; durS: number } | null {
  switch (ev) {
    case 'jump-start':
      return { text: `Jump start! +${JUMP_START_PENALTY_S} s`, durS: 3 };
    case 'joker':
      return { text: 'Joker lap taken', durS: 2 };
    case 'recover':
      return { text: `Recovered +${RECOVER_PENALTY_S} s`, durS: 2.5 };
    case 'joker-penalty':
      return { text: `Joker lap missed +${JOKER_PENALTY_S} s`, durS: 3 };
    default:
      return null;
  }
}
