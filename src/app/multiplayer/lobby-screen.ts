/**
 * 'multiplayer-lobby': the room's join code, its seats (name, car, ready; names are the players' own text, so
 * escaped), a race room's laps, Ready and Leave, and the countdown to the server's `startsAt` on this page's estimate of the server
 * clock (ServerClock). The room's stage starts loading here; when everyone is ready the drive screen opens and
 * waits for the room's 'go'.
 */
import { html, registerScreen } from '../screens';
import { CARS } from '../cars';
import { escapeHtml as esc } from '../escape-html';
import type { Lobby } from '../../net/room-client';
import type { Stage } from '../../../terrain/stage';
import { leaveRoom, type MultiplayerState } from './state';

/** The seats table of a lobby message; `mySlot`'s row is marked. */
export function seatsHtml(l: Lobby, mySlot: number): string {
  const carName = (id: string): string => CARS().find((c) => c.id === id)?.name ?? id;
  return l.seats
    .slice()
    .sort((a, b) => a.slot - b.slot)
    .map((s) => `<tr class="${s.slot === mySlot ? 'mp-me' : ''}" data-slot="${s.slot}"><td>${s.slot + 1}</td><td>${esc(s.name)}</td><td>${esc(carName(s.car))}</td><td>${s.ready ? 'ready ✓' : 'not ready'}</td></tr>`)
    .join('');
}

/** A race room's laps as the lobby shows them to every seat (the creator chose them), '' in a stage room. */
export function lapsText(laps: number | null): string {
  return laps === null ? '' : ` · <span data-mp-laps>${laps} ${laps === 1 ? 'lap' : 'laps'}</span>`;
}

export function registerLobbyScreen(mp: MultiplayerState, loadStage: (id: string) => Promise<Stage>): void {
  registerScreen('multiplayer-lobby', (ctx) => {
    const client = mp.client;
    if (!client) {
      queueMicrotask(() => ctx.show('multiplayer'));
      return { el: html('<h2>Multiplayer</h2>') };
    }
    const seat = client.seat;
    mp.stage ??= loadStage(seat.stage ?? '');
    mp.stage.catch(() => undefined); // the drive screen reports a failed load
    const el = html(`<h2>Room <span class="mp-room-code" data-mp-code>${esc(seat.code)}</span></h2>
      <div class="sub">${client.kind === 'race' ? 'Rallycross race on' : 'Stage'} ${esc(seat.stage ?? '')}${lapsText(seat.laps)} · give the code to the other players · ${(1 / (seat.simDtS * seat.ticksPerPacket)).toFixed(1)} states/s</div>
      <table class="mp-seats" data-mp-seats></table>
      <div class="mp-countdown" data-mp-countdown></div>
      <button class="item default" data-k="ready">Ready</button>
      <button class="item" data-k="leave">Leave the room</button>
      <div class="hint">A: ready · B: leave</div>`);
    const table = el.querySelector<HTMLElement>('[data-mp-seats]')!;
    const countdown = el.querySelector<HTMLElement>('[data-mp-countdown]')!;
    let shown: Lobby | null = null;
    const leave = (): void => void leaveRoom(mp).then(() => ctx.show('multiplayer'));
    el.querySelector<HTMLElement>('[data-k="ready"]')!.onclick = () => client.ready();
    el.querySelector<HTMLElement>('[data-k="leave"]')!.onclick = leave;
    const update = (): void => {
      const l = mp.lobby;
      if (!l) return;
      if (l !== shown) {
        shown = l;
        table.innerHTML = `<tr><th>#</th><th>Player</th><th>Car</th><th></th></tr>${seatsHtml(l, seat.slot)}`;
      }
      const left = mp.clock.countdownS(l.startsAt, performance.now());
      countdown.textContent = left === null ? 'Waiting until everyone is ready' : `Start in ${left} s`;
      // everyone is ready: the drive screen loads the stage and shows the lights until 'go'
      if (l.startsAt !== null) ctx.show('multiplayer-drive');
    };
    return { el, update, back: leave };
  });
}
