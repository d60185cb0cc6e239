/**
 * Per-path vehicle lists (Félez §6: "each path has a list of the vehicles that can be found on it"), rebuilt
 * every traffic step by counting sort and ordered by arc length: a driver finds the vehicle ahead on its own
 * path and on the next paths of its route. A vehicle changing lanes is listed on both lanes until it is across;
 * the player's car (the external vehicle) is listed on the path it drives along.
 */
import type { TrafficState } from './state';

/** Slot index used for the external (player) vehicle. */
export const EXTERNAL = -2;

export interface ExternalVehicle {
  path: number;
  s: number;
  u: number;
  lengthM: number;
}

export class PathBuckets {
  /** Start of each path's list in `items` (length paths + 1). */
  readonly start: Int32Array;
  /** Vehicle slots (EXTERNAL for the player), grouped by path, ascending arc length. */
  items: Int32Array;
  itemS: Float64Array;
  private readonly fill: Int32Array;

  constructor(paths: number, capacity: number) {
    this.start = new Int32Array(paths + 1);
    this.fill = new Int32Array(paths);
    this.items = new Int32Array(2 * capacity + 2);
    this.itemS = new Float64Array(2 * capacity + 2);
  }

  rebuild(st: TrafficState, ext: ExternalVehicle | null): void {
    const { start, fill } = this;
    start.fill(0);
    const add = (p: number): void => {
      start[p + 1]!++;
    };
    for (let k = 0; k < st.capacity; k++) {
      if (!st.alive[k]) continue;
      add(st.path[k]!);
      if (st.ghost[k]! >= 0) add(st.ghost[k]!);
    }
    if (ext && ext.path >= 0) add(ext.path);
    for (let p = 0; p < fill.length; p++) start[p + 1] = start[p + 1]! + start[p]!;
    fill.set(start.subarray(0, fill.length));
    const put = (p: number, slot: number, s: number): void => {
      let i = fill[p]!++;
      // insertion sort within the path's range (lists are short)
      while (i > start[p]! && this.itemS[i - 1]! > s) {
        this.items[i] = this.items[i - 1]!;
        this.itemS[i] = this.itemS[i - 1]!;
        i--;
      }
      this.items[i] = slot;
      this.itemS[i] = s;
    };
    for (let k = 0; k < st.capacity; k++) {
      if (!st.alive[k]) continue;
      put(st.path[k]!, k, st.s[k]!);
      if (st.ghost[k]! >= 0) put(st.ghost[k]!, k, st.s[k]!);
    }
    if (ext && ext.path >= 0) put(ext.path, EXTERNAL, ext.s);
  }

  /** First item on path p with arc length > s (excluding `self`), as an index into items, or −1. */
  firstAhead(p: number, s: number, self: number): number {
    for (let i = this.start[p]!; i < this.start[p + 1]!; i++) if (this.itemS[i]! > s && this.items[i] !== self) return i;
    return -1;
  }

  /** Last item on path p with arc length ≤ s (excluding `self`), or −1. */
  lastBehind(p: number, s: number, self: number): number {
    for (let i = this.start[p + 1]! - 1; i >= this.start[p]!; i--) if (this.itemS[i]! <= s && this.items[i] !== self) return i;
    return -1;
  }

  count(p: number): number {
    return this.start[p + 1]! - this.start[p]!;
  }
}
