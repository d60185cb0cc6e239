/**
 * The drive's event log of collisions (issue #22 "Must show"): one entry per impulse the room sent this car, with
 * the room's impulse number (the same number reaches both cars of a contact), the contact tick, the impulse J on
 * this car and how the car applied it (at once, or by rewinding to the contact tick). The HUD panel shows the
 * newest entries; the whole log is on `window.__bitrally.multiplayer.log` for the browser test.
 */
import type { ImpulsePacket } from '../../net/packets';
import type { ImpulseOutcome } from '../../net/net-car';
import { escapeHtml } from '../escape-html';

export interface CollisionEntry {
  /** The room's impulse number (per room, from 1): the other car's log holds the same number. */
  seq: number;
  /** Sim tick of the contact (the packet tick the collider found it at). */
  tick: number;
  /** The other car's slot. */
  other: number;
  /** Impulse on this car, N·s (horizontal). */
  jx: number;
  jz: number;
  outcome: ImpulseOutcome;
  /** This car's sim tick when the impulse arrived (tick − this = how late, in sim ticks). */
  receivedAtTick: number;
}

/** Entries the HUD panel shows (the newest); the log itself keeps every entry of the drive. */
export const LOG_PANEL_ROWS = 6;

export class CollisionLog {
  readonly entries: CollisionEntry[] = [];

  add(p: ImpulsePacket, outcome: ImpulseOutcome, receivedAtTick: number): CollisionEntry {
    const e: CollisionEntry = { seq: p.seq, tick: p.tick, other: p.other, jx: p.jx, jz: p.jz, outcome, receivedAtTick };
    this.entries.push(e);
    return e;
  }

  /** The panel's rows, newest first: "#seq  tick T  J (jx, jz) N·s  from <name>  rewound". */
  panelHtml(nameOf: (slot: number) => string): string {
    const rows = this.entries.slice(-LOG_PANEL_ROWS).reverse().map((e) => {
      const j = `(${e.jx.toFixed(0)}, ${e.jz.toFixed(0)}) N·s`;
      const late = e.outcome === 'rewound' ? ` · rewound ${e.receivedAtTick - e.tick} ticks` : ` · ${e.outcome}`;
      return `<div class="mp-log-row" data-seq="${e.seq}">#${e.seq} · tick ${e.tick} · J ${j} · ${escapeHtml(nameOf(e.other))}${late}</div>`;
    });
    return `<div class="mp-log-title">Collisions (${this.entries.length})</div>${rows.join('') || '<div class="mp-log-row">none yet</div>'}`;
  }
}
