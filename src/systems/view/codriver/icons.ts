/**
 * Pace-note icons for the HUD strip, as SVG markup (pure strings: tested headless). A corner is an arrow that
 * turns by its severity's angle (6 a slight bend … 1 nearly back on itself, square a sharp right angle,
 * hairpin a U), mirrored for left; modifiers and cautions are short labelled badges.
 */
import type { CornerModifier, PaceNote, Severity } from '../../../../terrain/pacenotes/types';

/** Total turn drawn for each severity, degrees (the icon's shape, not the road's angle). */
export const ICON_TURN_DEG: Record<Exclude<Severity, 'square'>, number> = { 6: 15, 5: 30, 4: 50, 3: 70, 2: 95, 1: 125, hairpin: 180 };
/** Icon box, SVG units. */
const BOX = 64;
/** Straight run before and after the bend, and the bend's length, SVG units. */
const LEAD_IN = 18;
const LEAD_OUT = 10;
const BEND = 26;
const HEAD = 7;

/** Badge text for each modifier (short: the strip is glanced at, not read). */
export const MODIFIER_LABEL: Record<CornerModifier, string> = {
  long: 'LONG',
  'very long': 'V.LONG',
  tightens: 'TIGHTENS',
  opens: 'OPENS',
  'tightens late': 'TIGHT LATE',
  "don't cut": "DON'T CUT",
};

/** Polyline of the arrow's shaft for a right turn (x grows to the right, y down), starting at the bottom. */
export function arrowShaft(severity: Severity): [number, number][] {
  const pts: [number, number][] = [[0, 0], [0, -LEAD_IN]];
  let x = 0, y = -LEAD_IN, heading = 0; // heading 0 = up (−y), positive = clockwise (right)
  if (severity === 'square') {
    pts.push([LEAD_OUT + BEND / 2, y]);
    return pts;
  }
  const turn = (ICON_TURN_DEG[severity] * Math.PI) / 180;
  const steps = 12;
  for (let i = 0; i < steps; i++) {
    heading += turn / steps;
    x += (BEND / steps) * Math.sin(heading);
    y -= (BEND / steps) * Math.cos(heading);
    pts.push([x, y]);
  }
  pts.push([x + LEAD_OUT * Math.sin(heading), y - LEAD_OUT * Math.cos(heading)]);
  return pts;
}

/** The arrow as SVG markup (shaft + head), mirrored for left turns and centred in the icon box. */
export function arrowSvg(direction: 'left' | 'right', severity: Severity): string {
  const raw = arrowShaft(severity);
  const m = direction === 'left' ? -1 : 1;
  const pts = raw.map(([x, y]) => [m * x, y] as [number, number]);
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
  const cx = (Math.min(...xs) + Math.max(...xs)) / 2, cy = (Math.min(...ys) + Math.max(...ys)) / 2;
  const at = pts.map(([x, y]) => [x - cx + BOX / 2, y - cy + BOX / 2] as [number, number]);
  const [tx, ty] = at[at.length - 1]!;
  const [px, py] = at[at.length - 2]!;
  const len = Math.hypot(tx - px, ty - py) || 1;
  const ux = (tx - px) / len, uy = (ty - py) / len;
  const head = [
    [tx + ux * HEAD, ty + uy * HEAD],
    [tx - uy * HEAD, ty + ux * HEAD],
    [tx + uy * HEAD, ty - ux * HEAD],
  ];
  const f = (n: number): string => n.toFixed(1);
  const d = at.map(([x, y], i) => `${i ? 'L' : 'M'}${f(x)} ${f(y)}`).join(' ');
  return `<svg viewBox="0 0 ${BOX} ${BOX}" class="pn-arrow"><path d="${d}" class="pn-shaft"/><path d="M${head.map(([x, y]) => `${f(x)} ${f(y)}`).join(' L')} Z" class="pn-head"/></svg>`;
}

/** What the strip's big label says for a note: the severity number, HP / SQ, or the feature in capitals. */
export function noteLabel(n: PaceNote): string {
  if (n.kind !== 'corner') return (n.feature ?? '').toUpperCase();
  if (n.severity === 'hairpin') return 'HP';
  if (n.severity === 'square') return 'SQ';
  return String(n.severity ?? '');
}

/** What follows the note on the strip: the link word, or the distance to the next note. */
export function noteTail(n: PaceNote): string {
  if (n.link !== null) return n.link;
  return n.distanceToNextM !== null ? String(n.distanceToNextM) : '';
}
