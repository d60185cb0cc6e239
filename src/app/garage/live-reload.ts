/**
 * Dev live reload of car files (client side of vite/plugins/car-hmr.ts). A changed
 * `src/content/cars/<id>.toml` goes through the same gate as the garage's "apply": a valid file is swapped
 * into the running car (keeping position and speed) and used for the next runs; an invalid edit shows its
 * errors on screen and the old car keeps driving. Cars that `extends` the changed file are re-applied too.
 */
import { BUILTIN_CARS } from '../../content/cars';
import { carIdFromFile } from '../../content/car-schema';
import { applyToGame, carOverride } from './live-car';
import { readAnyCar, setDiskText } from './car-sources';
import type { DraftProblem } from './car-draft';
import { escapeHtml as esc } from '../escape-html';

export interface CarReloadHook {
  count: number;
  last: { file: string; applied: boolean; swappedLive: boolean; problems: string[] } | null;
}

declare global {
  interface Window {
    __carReload?: CarReloadHook;
  }
}


export class CarReloadBanner {
  readonly el: HTMLDivElement;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(parent: HTMLElement) {
    this.el = document.createElement('div');
    this.el.className = 'car-reload';
    this.el.hidden = true;
    parent.appendChild(this.el);
  }

  ok(msg: string): void {
    this.el.className = 'car-reload ok';
    this.el.textContent = msg;
    this.el.hidden = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => (this.el.hidden = true), 2500);
  }

  error(file: string, problems: DraftProblem[]): void {
    if (this.timer) clearTimeout(this.timer);
    this.el.className = 'car-reload bad';
    this.el.innerHTML = `<b>${esc(file)} not applied — the old car keeps driving</b><ul>${problems.map((p) => `<li>${esc(p.message)}</li>`).join('')}</ul>`;
    this.el.hidden = false;
  }
}

/** Handle one changed car file (also callable from tests and the garage). */
export function handleCarFile(file: string, text: string, banner: CarReloadBanner | null, hook: CarReloadHook): void {
  setDiskText(file, text);
  const id = carIdFromFile(file);
  const r = applyToGame(id, text, file, readAnyCar);
  hook.count++;
  hook.last = { file, applied: r.applied, swappedLive: r.swappedLive, problems: r.applied ? [] : r.problems.map((p) => p.message) };
  if (!r.applied) {
    banner?.error(file, r.problems);
    return;
  }
  banner?.ok(`${file} reloaded${r.swappedLive ? ' into the running car' : ''}`);
  // cars built on this file
  for (const b of BUILTIN_CARS) {
    if (b.file === file) continue;
    const t = carOverride(b.id)?.text ?? b.text;
    if (new RegExp(`^\\s*extends\\s*=\\s*["']${file.replace(/[.]/g, '\\.')}["']`, 'm').test(t)) applyToGame(b.id, t, b.file, readAnyCar);
  }
}

export function installCarLiveReload(parent: HTMLElement): void {
  const hook: CarReloadHook = { count: 0, last: null };
  window.__carReload = hook;
  if (!import.meta.hot) return;
  const banner = new CarReloadBanner(parent);
  import.meta.hot.on('bitrally:car-file', (data: { file: string; text: string }) => handleCarFile(data.file, data.text, banner, hook));
}
