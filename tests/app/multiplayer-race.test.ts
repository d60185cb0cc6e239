/**
 * A race room's pieces in the game that run without a page: the race HUD shared with the offline race (the timer
 * is the race clock plus the penalties, the events' toasts carry the rules' penalties), the lobby's laps line, the
 * laps range the setup offers against the room's own, and the `refused` notice (the room's reason shown as text).
 */
import { describe, expect, it } from 'vitest';
import { raceEventToast, raceTimerS } from '../../src/app/rallycross/race-hud';
import { lapsText } from '../../src/app/multiplayer/lobby-screen';
import { refusedNoticeHtml } from '../../src/app/multiplayer/refused-notice';
import { DEFAULT_RACE_LAPS, RACE_LAPS_RANGE } from '../../src/net/room-kind';
import { lapsFrom } from '../../server/rooms/race-room';
import { RECOVER_PENALTY_S } from '../../src/systems/sim/vehicle/recovery';
import { JOKER_PENALTY_S, JUMP_START_PENALTY_S } from '../../src/run/race';
import { raceResultS } from '../../src/run/race-rules';

describe('race HUD pieces (offline race and race rooms)', () => {
  it('the timer is the race clock before the flag, the flag time after it, penalties included as raceResultS counts them', () => {
    const racing = { finishTimeS: null, penaltyS: RECOVER_PENALTY_S };
    expect(raceTimerS(racing, 12.5)).toBe(12.5 + RECOVER_PENALTY_S);
    const done = { finishTimeS: 58.81, penaltyS: RECOVER_PENALTY_S + JOKER_PENALTY_S };
    // after the flag the clock no longer moves the timer: it is the results' time
    expect(raceTimerS(done, 70)).toBe(raceResultS(done));
    expect(raceTimerS(done, 70)).toBe(58.81 + RECOVER_PENALTY_S + JOKER_PENALTY_S);
  });

  it("each penalised event's toast names the rules' penalty; laps, start and finish have none", () => {
    expect(raceEventToast('recover')?.text).toBe(`Recovered +${RECOVER_PENALTY_S} s`);
    expect(raceEventToast('joker-penalty')?.text).toBe(`Joker lap missed +${JOKER_PENALTY_S} s`);
    expect(raceEventToast('jump-start')?.text).toBe(`Jump start! +${JUMP_START_PENALTY_S} s`);
    expect(raceEventToast('joker')?.text).toBe('Joker lap taken');
    for (const ev of ['lap', 'start', 'finish'] as const) expect(raceEventToast(ev)).toBeNull();
  });
});

describe('race room laps in the game', () => {
  it('the lobby shows a race room laps to every seat (singular for one), nothing for a stage room', () => {
    expect(lapsText(1)).toContain('>1 lap<');
    expect(lapsText(3)).toContain('>3 laps<');
    expect(lapsText(null)).toBe('');
  });

  it('every laps count the setup offers is one the room takes as given; one past either end gets the default', () => {
    const [lo, hi] = RACE_LAPS_RANGE;
    for (let n = lo; n <= hi; n++) expect(lapsFrom({ laps: n })).toBe(n);
    expect(lapsFrom({ laps: lo - 1 })).toBe(DEFAULT_RACE_LAPS);
    expect(lapsFrom({ laps: hi + 1 })).toBe(DEFAULT_RACE_LAPS);
  });

  it("the refused notice shows the room's reason as text and tells the player to reload", () => {
    const html = refusedNoticeHtml('packet layout version 1, expected 2 <b>(client and server differ)</b>');
    expect(html).toContain('packet layout version 1, expected 2 &lt;b&gt;(client and server differ)&lt;/b&gt;');
    expect(html).not.toContain('<b>');
    expect(html).toMatch(/Reload the page/);
  });
});
