/**
 * The setup screen's room list (issue #22 item 1, "join by code or list"): the server's open rooms, live
 * (LiveRoomList over the server's "lobby" room: rooms appear, fill, lock and vanish while the player looks; a lost
 * connection comes back by itself, the status line says when it tries next), one menu
 * item each, joinable rooms first. A full or started room is shown disabled (the menu skips it). The gamepad focus
 * survives every update: the focused room stays focused while it is joinable, else the focus moves to the room now
 * at its place (or to the fallback item); a focused fixed item keeps the focus. Stage ids and codes come from the
 * server, so they are escaped.
 */
import { escapeHtml as esc } from '../escape-html';
import type { RoomListEntry } from '../../net/room-list';
import { LiveRoomList, type LiveListStatus } from '../../net/live-room-list';

const KIND_NAMES = { race: 'Rallycross', stage: 'Stage together' } as const;

/** One room's item: code, kind, stage, seats and state; `stageName` maps a stage id to the name the game shows. */
export function roomItemHtml(r: RoomListEntry, stageName: (id: string) => string): string {
  const state = r.started ? 'racing' : r.joinable ? 'open' : 'full';
  const label = `<span class="mp-room-code">${esc(r.code)}</span> · ${KIND_NAMES[r.kind]} · ${esc(stageName(r.stage))} · ${r.seats}/${r.maxSeats} · ${state}`;
  return `<button class="item mp-room" data-room="${esc(r.code)}"${r.joinable ? '' : ' disabled'}>${label}</button>`;
}

/** What the view needs of the menu: move the focus to an element (ScreenManager.focusElement). */
export type FocusElement = (el: HTMLElement) => void;

export class RoomListView {
  rooms: RoomListEntry[] = [];
  private feed: LiveRoomList | null = null;
  /** How many list updates the feed delivered (the browser test reads it). */
  updates = 0;

  constructor(
    /** Where the room items go (between the screen's fixed items, so the focus of those stays put). */
    private readonly box: HTMLElement,
    /** The line that says what the list holds or why it failed. */
    private readonly status: HTMLElement,
    /** ws://host:port of the server's rooms. */
    private readonly url: string,
    private readonly stageName: (id: string) => string,
    private readonly join: (code: string) => void,
    private readonly focus: FocusElement,
    /** Takes the focus when the focused room leaves and no room is left to take it. */
    private readonly fallback: HTMLElement,
  ) {}

  /**
   * (Re)connects the live list at once; it reconnects by itself after a lost connection (LiveRoomList's backoff)
   * and the status line says when it tries next. A later connect replaces an earlier one still trying.
   */
  async connect(): Promise<void> {
    await this.closeFeed();
    const live = new LiveRoomList(this.url);
    this.feed = live;
    live.onChange = (rooms) => this.show(rooms);
    live.onStatus = (s) => this.showStatus(s);
    await live.start();
  }

  private showStatus(s: LiveListStatus): void {
    if (s.state === 'connecting') this.status.textContent = this.rooms.length === 0 ? 'Looking for rooms…' : 'Reconnecting the room list…';
    if (s.state === 'retrying') {
      this.status.textContent = `The room list is offline (${s.reason}): reconnecting in ${Math.round(s.inMs / 1000)} s (try ${s.attempt})`;
    }
  }

  private show(rooms: RoomListEntry[]): void {
    this.rooms = rooms;
    this.updates++;
    this.render();
    const open = rooms.filter((r) => r.joinable).length;
    this.status.textContent = rooms.length === 0 ? 'No rooms open: create one (the list is live)' : `${open} of ${rooms.length} room${rooms.length === 1 ? '' : 's'} open to join (live)`;
  }

  /** Re-draws the items (after the stage names loaded, too), keeping the menu focus on the same item. */
  render(): void {
    const focused = this.box.parentElement?.querySelector<HTMLElement>('.item.focused') ?? null;
    const inBox = focused !== null && this.box.contains(focused);
    const oldRooms = [...this.box.querySelectorAll<HTMLElement>('[data-room]:not([disabled])')];
    const place = inBox ? oldRooms.indexOf(focused) : -1;
    this.box.innerHTML = this.rooms.map((r) => roomItemHtml(r, this.stageName)).join('');
    const rooms = [...this.box.querySelectorAll<HTMLElement>('[data-room]')];
    for (const b of rooms) {
      b.onclick = () => this.join(b.dataset.room!);
      b.onmouseenter = () => this.focus(b);
    }
    if (!focused) return;
    if (!inBox) return this.focus(focused); // a fixed item: its index may have moved with the rooms before it
    const open = rooms.filter((b) => !b.hasAttribute('disabled'));
    const same = open.find((b) => b.dataset.room === focused.dataset.room);
    this.focus(same ?? open[Math.min(place, open.length - 1)] ?? this.fallback);
  }

  private async closeFeed(): Promise<void> {
    const f = this.feed;
    this.feed = null;
    await f?.close();
  }

  /** Leaves the lobby (the screen closed). */
  dispose(): void {
    void this.closeFeed();
  }
}
