/**
 * Extra buttons on the finish and pause overlays, added by a feature without editing those screens: a provider
 * sees the screen's parameters and returns its buttons (shown first, the first one focused) and the standard
 * buttons it hides (by their `data-a`: the rally hides "Retry" and "Next stage" on a rally stage's finish screen,
 * and turns "Quit" into a retirement on its pause screen). Providers are asked in the order they were added.
 */
export interface ExtraButton {
  /** `data-a` of the button (e2e tests and styles find it by this). */
  id: string;
  label: string;
  run(): void;
}

export interface ScreenExtras {
  buttons: ExtraButton[];
  hide: string[];
}

export type ExtrasProvider = (params: Record<string, unknown>) => Partial<ScreenExtras> | null;

const providers: Record<'finish' | 'pause', ExtrasProvider[]> = { finish: [], pause: [] };

/** Adds buttons to the finish overlay (a run has finished) or the pause overlay (a run is paused). */
export function addScreenButtons(screen: 'finish' | 'pause', provider: ExtrasProvider): void {
  providers[screen].push(provider);
}

/** Every provider's buttons and hidden standard buttons for one showing of `screen`. */
export function screenExtras(screen: 'finish' | 'pause', params: Record<string, unknown>): ScreenExtras {
  const out: ScreenExtras = { buttons: [], hide: [] };
  for (const p of providers[screen]) {
    const e = p(params);
    if (!e) continue;
    out.buttons.push(...(e.buttons ?? []));
    out.hide.push(...(e.hide ?? []));
  }
  return out;
}

/** Puts the extras into a screen element: their buttons before the first standard one, the hidden ones removed. */
export function applyScreenExtras(el: HTMLElement, extras: ScreenExtras): void {
  for (const id of extras.hide) el.querySelector(`[data-a="${id}"]`)?.remove();
  const first = el.querySelector<HTMLElement>('button.item');
  for (const b of extras.buttons) {
    const btn = document.createElement('button');
    btn.className = 'item';
    btn.dataset.a = b.id;
    btn.textContent = b.label;
    btn.onclick = () => b.run();
    if (first) first.before(btn);
    else el.appendChild(btn);
  }
  if (extras.buttons.length > 0) {
    el.querySelectorAll('.item.default').forEach((x) => x.classList.remove('default'));
    el.querySelector(`[data-a="${extras.buttons[0]!.id}"]`)?.classList.add('default');
  }
}
