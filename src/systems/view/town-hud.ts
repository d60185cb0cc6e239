/**
 * The town mode's HUD panels (issue 23): a short-lived incident feed (each accident: kind, vehicles, closing
 * speed, every party's delta-v; an entry stays FEED_ENTRY_S after its accident) and a town info line (cars
 * simulated, promoted to the full model, lights by colour, the instructor's last pick). Formatting is pure
 * (`formatIncident`, `formatTownInfo`) so it is tested without a DOM.
 */
import type { Accident, AccidentParty } from '../../run/town-accidents';

/** An incident stays in the feed this long after its accident, s. */
export const FEED_ENTRY_S = 8;
/** Most incidents shown at once (the newest). */
export const FEED_MAX = 4;

/** A party's delta-v magnitude |(Δv_x, Δv_z)|, m/s. */
export const partyDeltaV = (p: AccidentParty): number => Math.hypot(p.dvx, p.dvz);

/** A party's short name: "you", "car 12", "building 3". */
function partyName(p: AccidentParty): string {
  if (p.id === 'player') return 'you';
  return p.id.startsWith('traffic ') ? `car ${p.id.slice(8)}` : p.id;
}

/** One feed line: "Accident (instructed): car 12 → car 40 · closing 8.3 m/s · Δv car 12 4.1, car 40 3.9 m/s". */
export function formatIncident(a: Accident): string {
  const who = a.parties.map(partyName).join(' → ');
  // scenery has no delta-v (infinite mass): only moving parties are listed
  const dv = a.parties.filter((p) => Number.isFinite(p.massKg)).map((p) => `${partyName(p)} ${partyDeltaV(p).toFixed(1)}`).join(', ');
  return `Accident${a.instructed ? ' (instructed)' : ''}: ${who} · closing ${a.closingMS.toFixed(1)} m/s · Δv ${dv} m/s`;
}

export interface TownInfo {
  seed: number;
  simulated: number;
  promoted: number;
  /** Light heads showing green, yellow, red. */
  lights: [number, number, number];
  accidents: number;
}

/** The town info line: "Town 7 · 200 cars (3 full model) · lights 12 G 2 Y 14 R · 1 accident". */
export function formatTownInfo(t: TownInfo): string {
  const acc = `${t.accidents} accident${t.accidents === 1 ? '' : 's'}`;
  return `Town ${t.seed} · ${t.simulated} cars (${t.promoted} full model) · lights ${t.lights[0]} G ${t.lights[1]} Y ${t.lights[2]} R · ${acc}`;
}

/** The accidents still shown at time `nowS` (sim seconds), newest first, at most FEED_MAX. */
export function feedEntries(accidents: readonly Accident[], nowS: number): Accident[] {
  const out: Accident[] = [];
  for (let i = accidents.length - 1; i >= 0 && out.length < FEED_MAX; i--) if (nowS - accidents[i]!.timeS <= FEED_ENTRY_S) out.push(accidents[i]!);
  return out;
}

export class TownHud {
  readonly el: HTMLDivElement;
  private readonly info: HTMLElement;
  private readonly feed: HTMLElement;
  private lastInfo = '';
  private lastFeed = '';

  constructor(parent: HTMLElement) {
    const el = document.createElement('div');
    el.className = 'town-hud';
    // top right: the perf overlay takes the top left
    el.style.cssText = 'position:absolute;right:12px;top:12px;font:14px/1.4 system-ui,sans-serif;color:#fff;pointer-events:none;max-width:34%;text-align:right';
    el.innerHTML = `<div data-t="town-info" style="background:rgba(8,12,18,.78);padding:5px 10px;border-radius:6px"></div><div data-t="town-feed"></div>`;
    parent.appendChild(el);
    this.el = el;
    this.info = el.querySelector('[data-t="town-info"]')!;
    this.feed = el.querySelector('[data-t="town-feed"]')!;
  }

  update(info: TownInfo, accidents: readonly Accident[], nowS: number): void {
    const text = formatTownInfo(info);
    if (text !== this.lastInfo) this.info.textContent = this.lastInfo = text;
    const lines = feedEntries(accidents, nowS).map(formatIncident);
    const key = lines.join('\n');
    if (key === this.lastFeed) return;
    this.lastFeed = key;
    this.feed.replaceChildren(
      ...lines.map((l) => {
        const d = document.createElement('div');
        d.dataset.t = 'incident';
        d.style.cssText = 'margin-top:6px;background:rgba(150,30,20,.85);padding:4px 10px;border-radius:6px';
        d.textContent = l;
        return d;
      }),
    );
  }

  dispose(): void {
    this.el.remove();
  }
}
