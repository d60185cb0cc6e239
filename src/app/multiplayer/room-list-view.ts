/**
 * The setup screen's room list (issue #22 item 1, "join by code or list"): the server's open rooms (GET /api/rooms,
 * src/net/room-list.ts), one menu item each, joinable rooms first. A full or started room is shown disabled (the
 * menu skips it). Stage ids and codes come from the server, so they are escaped. Refresh is an item of its own.
 */
import { escapeHtml as esc } from '../escape-html';
import { fetchRoomList, type HttpGet, type RoomListEntry } from '../../net/room-list';

const KIND_NAMES = { race: 'Rallycross', stage: 'Stage together' } as const;

/** One room's item: code, kind, stage, seats and state; `stageName` maps a stage id to the name the game shows. */
export function roomItemHtml(r: RoomListEntry, stageName: (id: string) => string): string {
  const state = r.started ? 'racing' : r.joinable ? 'open' : 'full';
  const label = `<span class="mp-room-code">${esc(r.code)}</span> · ${KIND_NAMES[r.kind]} · ${esc(stageName(r.stage))} · ${r.seats}/${r.maxSeats} · ${state}`;
  return `<button class="item mp-room" data-room="${esc(r.code)}"${r.joinable ? '' : ' disabled'}>${label}</button>`;
}

export class RoomListView {
  rooms: RoomListEntry[] = [];
  private generation = 0;

  constructor(
    /** Where the room items go (between the screen's fixed items, so the focus of those stays put). */
    private readonly box: HTMLElement,
    /** The line that says what the list holds or why it failed. */
    private readonly status: HTMLElement,
    private readonly httpBase: string,
    private readonly stageName: (id: string) => string,
    private readonly join: (code: string) => void,
  ) {}

  /** Asks the server again; a later refresh wins over an earlier one that answers after it. */
  async refresh(fetchFn: HttpGet = (u) => fetch(u)): Promise<void> {
    const gen = ++this.generation;
    this.status.textContent = 'Looking for rooms…';
    try {
      const rooms = await fetchRoomList(this.httpBase, fetchFn);
      if (gen !== this.generation) return;
      this.rooms = rooms;
      this.render();
      const open = rooms.filter((r) => r.joinable).length;
      this.status.textContent = rooms.length === 0 ? 'No rooms open: create one' : `${open} of ${rooms.length} room${rooms.length === 1 ? '' : 's'} open to join`;
    } catch (e) {
      if (gen === this.generation) this.status.textContent = `Could not list the rooms: ${(e as Error).message}`;
    }
  }

  /** Re-draws the items (after the stage names loaded, too). */
  render(): void {
    this.box.innerHTML = this.rooms.map((r) => roomItemHtml(r, this.stageName)).join('');
    for (const b of this.box.querySelectorAll<HTMLElement>('[data-room]')) b.onclick = () => this.join(b.dataset.room!);
  }
}
