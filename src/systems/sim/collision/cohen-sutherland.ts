/**
 * Cohen–Sutherland clipping of a segment against an axis-aligned rectangle (Wu §4.4.2, Fig 4-6):
 * each end gets a 4-bit code (above, below, right, left); both codes sharing a bit → rejected; otherwise the
 * segment is clipped against the edges in turn. Used in a rectangle's own frame (car-local (u, w)).
 */
export const INSIDE = 0;
export const LEFT = 1;
export const RIGHT = 2;
export const BOTTOM = 4;
export const TOP = 8;

export function outCode(x: number, y: number, xmin: number, ymin: number, xmax: number, ymax: number): number {
  let c = INSIDE;
  if (x < xmin) c |= LEFT;
  else if (x > xmax) c |= RIGHT;
  if (y < ymin) c |= BOTTOM;
  else if (y > ymax) c |= TOP;
  return c;
}

/** Clip result: the kept piece (x0,y0)-(x1,y1) and whether each end was moved onto the rectangle boundary. */
export interface Clip {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  clipped0: boolean;
  clipped1: boolean;
}

export const newClip = (): Clip => ({ x0: 0, y0: 0, x1: 0, y1: 0, clipped0: false, clipped1: false });

/** Returns false when the segment lies entirely outside the rectangle. */
export function clipSegment(
  x0: number, y0: number, x1: number, y1: number,
  xmin: number, ymin: number, xmax: number, ymax: number, out: Clip,
): boolean {
  let c0 = outCode(x0, y0, xmin, ymin, xmax, ymax);
  let c1 = outCode(x1, y1, xmin, ymin, xmax, ymax);
  out.clipped0 = false;
  out.clipped1 = false;
  for (let guard = 0; guard < 8; guard++) {
    if ((c0 | c1) === 0) {
      out.x0 = x0; out.y0 = y0; out.x1 = x1; out.y1 = y1;
      return true;
    }
    if ((c0 & c1) !== 0) return false;
    const c = c0 !== 0 ? c0 : c1;
    let x: number, y: number;
    if (c & TOP) {
      x = x0 + ((x1 - x0) * (ymax - y0)) / (y1 - y0);
      y = ymax;
    } else if (c & BOTTOM) {
      x = x0 + ((x1 - x0) * (ymin - y0)) / (y1 - y0);
      y = ymin;
    } else if (c & RIGHT) {
      y = y0 + ((y1 - y0) * (xmax - x0)) / (x1 - x0);
      x = xmax;
    } else {
      y = y0 + ((y1 - y0) * (xmin - x0)) / (x1 - x0);
      x = xmin;
    }
    if (c === c0) {
      x0 = x; y0 = y; out.clipped0 = true;
      c0 = outCode(x0, y0, xmin, ymin, xmax, ymax);
    } else {
      x1 = x; y1 = y; out.clipped1 = true;
      c1 = outCode(x1, y1, xmin, ymin, xmax, ymax);
    }
  }
  return false;
}
