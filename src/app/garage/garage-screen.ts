/**
 * The garage screen (issue 9): the selected car's TOML in a CodeMirror editor (lint + completion from the
 * car schema), setup sliders kept in sync with the text by surgical edits, custom cars (save, duplicate,
 * rename, delete, export/import .toml, drafts), "apply" (swap into the running car or use for the next
 * run), and the car test beside the previous version's results.
 *
 * Navigation: every button and slider is a menu item (gamepad d-pad/stick + A, keyboard arrows + Enter,
 * mouse). "Edit text" (or a click) puts the keyboard in the editor; Escape gives it back to the menu.
 */
import { html, registerScreen, type ScreenContext } from '../screens';
import type { MenuKey } from '../input/devices';
import type { SimWorld } from '../../ecs/world';
import type { CarConfig } from '../../content/car-schema';
import { BUILTIN_CARS } from '../../content/cars';
import { CarEditor } from './editor';
import { SliderPanel } from './sliders';
import { checkCarDraft, setupSliders, type DraftCheck, type SetupSlider } from './car-draft';
import { numberEdit } from './toml-spans';
import { CustomCars, fileOf, type CustomCarRecord } from './custom-cars';
import { customCars, readAnyCar, refreshCustom } from './car-sources';
import { applyToGame, carOverride, setLiveCar } from './live-car';
import { CarTestPanel, type CarTestInputs } from '../car-test/panel';
import './garage.css';
import { escapeHtml as esc } from '../escape-html';

/** What the garage needs from the running game (structural: GameSession satisfies it). */
export interface GarageHost {
  session: {
    world: SimWorld;
    car: { eid: number; info: { id: string } };
    /** The views follow a live swap (drawn car, tacho redline): GameSession.onCarSwapped. */
    onCarSwapped?: (cfg: CarConfig) => void;
    /** What is drawn for the car (e2e hook `__tuning.drawnCar()`). */
    drawnCar?: () => { wheelRadiusM: number[]; lengthM: number; redlineRpm: number };
  } | null;
}

interface Current {
  id: string;
  kind: 'builtin' | 'custom';
  file: string;
  record: CustomCarRecord | null;
}


export interface GarageTestHook {
  text(): string;
  problems(): string[];
  valid(): boolean;
  carId(): string;
  status(): string;
  sliders(): { key: string; value: number | null }[];
  /** Car test rows [previous, edited] once a run finished. */
  carTest(): unknown;
  /** Type into the editor like a user (replace [from, to)). */
  edit(from: number, to: number, insert: string): void;
  lastApply: string;
}

declare global {
  interface Window {
    __garage?: GarageTestHook;
  }
}

export function registerGarageScreen(host: GarageHost): void {
  registerScreen('garage', (ctx: ScreenContext, params) => {
    const g = new GarageScreen(host, ctx);
    if (typeof params.backTo === 'string') g.backTo = params.backTo;
    g.start(typeof params.carId === 'string' ? params.carId : (g.liveId ?? BUILTIN_CARS[0]?.id ?? ''));
    window.__garage = g.testHook();
    const textFocus = (): boolean => g.editor.hasFocus || document.activeElement === g.renameInput;
    return {
      el: g.el,
      back: () => void g.act('back'),
      // typing in the editor or a text field: the menu does not move (Escape in the editor leaves it)
      onKey: (_k: MenuKey) => textFocus(),
      dispose: () => g.dispose(),
    };
  });
}

/** The garage's DOM: car list and actions on the side, title, status, editor and problems in the middle. */
function garageMarkup(): HTMLElement {
  return html(
    `<div class="garage">
        <div class="garage-side">
          <h2>Garage</h2>
          <div class="garage-cars"></div>
          <div class="garage-actions">
            <button class="item" data-a="edit">Edit text <span class="val">Esc: back to menu</span></button>
            <button class="item default" data-a="apply">Apply</button>
            <button class="item" data-a="save">Save</button>
            <button class="item" data-a="duplicate">Duplicate</button>
            <button class="item" data-a="rename">Rename</button>
            <button class="item" data-a="delete">Delete</button>
            <button class="item" data-a="export">Export .toml</button>
            <button class="item" data-a="import">Import .toml</button>
            <button class="item" data-a="test">Run car test</button>
            <button class="item" data-a="drive">Drive</button>
            <button class="item" data-a="back">Back</button>
          </div>
          <div class="garage-rename" hidden><input type="text" maxlength="60"><button data-a="rename-ok">OK</button></div>
          <input class="garage-file" type="file" accept=".toml,text/plain" hidden>
        </div>
        <div class="garage-main">
          <div class="garage-title"></div>
          <div class="garage-status"></div>
          <div class="garage-editor"></div>
          <ul class="garage-problems"></ul>
        </div>
        <div class="garage-right"></div>
      </div>`,
    'screen garage-screen',
  );
}

/** One open garage screen: the car being edited, its editor, sliders and car test, and the actions on it. */
class GarageScreen {
  readonly el = garageMarkup();
  readonly liveId: string | null;
  readonly editor: CarEditor;
  readonly renameInput: HTMLInputElement;
  private readonly carsEl: HTMLDivElement;
  private readonly statusEl: HTMLDivElement;
  private readonly titleEl: HTMLDivElement;
  private readonly problemsEl: HTMLUListElement;
  private readonly renameBox: HTMLDivElement;
  private readonly fileInput: HTMLInputElement;
  private readonly sliders: SliderPanel;
  private readonly tests: CarTestPanel;
  private flash = '';
  private lastApply = '';
  private cur: Current = { id: '', kind: 'builtin', file: '', record: null };
  private sliderTimer: ReturnType<typeof setTimeout> | null = null;
  private customList: CustomCarRecord[] = [];

  /** The screen "Back" returns to when the opener named one (the rally's service park). */
  backTo: string | null = null;

  constructor(
    private readonly host: GarageHost,
    private readonly ctx: ScreenContext,
  ) {
    const q = <T extends HTMLElement>(s: string): T => this.el.querySelector<T>(s)!;
    this.carsEl = q<HTMLDivElement>('.garage-cars');
    this.statusEl = q<HTMLDivElement>('.garage-status');
    this.titleEl = q<HTMLDivElement>('.garage-title');
    this.problemsEl = q<HTMLUListElement>('.garage-problems');
    this.renameBox = q<HTMLDivElement>('.garage-rename');
    this.renameInput = this.renameBox.querySelector('input')!;
    this.fileInput = q<HTMLInputElement>('.garage-file');
    const session = host.session;
    this.liveId = session?.car.info.id ?? null;
    setLiveCar(
      session
        ? { world: session.world, eid: session.car.eid, carId: session.car.info.id, onSwapped: (cfg) => session.onCarSwapped?.(cfg) }
        : null,
    );
    this.sliders = new SliderPanel((s: SetupSlider, value: number) => {
      // one surgical edit of the value's characters; comments and layout untouched
      this.editor.applyTextEdit(numberEdit(this.editor.text, s.path, value, s.step, s.min));
    });
    this.tests = new CarTestPanel(() => this.carTestPair());
    q('.garage-right').append(this.sliders.el, this.tests.el);
    this.editor = new CarEditor(q('.garage-editor'), {
      text: '',
      file: 'car.toml',
      readExtends: readAnyCar,
      onCheck: (c) => this.renderStatus(c),
      onChange: () => {
        // the sliders follow the text once typing pauses
        if (this.sliderTimer) clearTimeout(this.sliderTimer);
        this.sliderTimer = setTimeout(() => this.sliders.sync(setupSliders(this.editor.text, readAnyCar)), 60);
      },
    });
    this.bindInputs();
  }

  /** Opens the requested car: the built-in at once, the custom one of that id once the store has loaded. */
  start(carId: string): void {
    this.openBuiltin(carId);
    void this.reloadCustom().then(() => {
      const r = this.customList.find((x) => x.id === carId);
      if (r) this.openCustom(r);
    });
  }

  /** The car test compares the edited text with the version before it (the override, built-in or saved text). */
  private carTestPair(): CarTestInputs {
    const { editor, cur } = this;
    const c = editor.check();
    const prevText = cur.kind === 'builtin' ? (carOverride(cur.id)?.text ?? BUILTIN_CARS.find((b) => b.id === cur.id)?.text ?? null) : (cur.record?.text ?? null);
    const prev = prevText !== null && prevText !== editor.text ? checkCarDraft(prevText, cur.file, readAnyCar) : null;
    return {
      edited: c.ok ? { config: c.config, text: editor.text } : null,
      previous: prev?.ok ? { config: prev.config, text: prevText! } : null,
    };
  }

  private renderStatus(c: DraftCheck): void {
    const { statusEl, problemsEl, flash } = this;
    statusEl.className = `garage-status ${c.ok ? 'ok' : 'bad'}`;
    statusEl.textContent = (c.ok ? '✓ Valid — Apply to drive it' : `✗ ${c.problems.length} problem${c.problems.length > 1 ? 's' : ''} — Save keeps a draft; the car you drive is unchanged`) + (flash ? `  ·  ${flash}` : '');
    problemsEl.innerHTML = c.problems.map((p, i) => `<li data-i="${i}">${esc(p.message)}</li>`).join('');
    problemsEl.querySelectorAll<HTMLElement>('li').forEach((li) => {
      li.onclick = () => {
        const p = c.problems[Number(li.dataset.i)]!;
        this.editor.view.dispatch({ selection: { anchor: p.from, head: p.to }, scrollIntoView: true });
        this.editor.focus();
      };
    });
  }

  private say(msg: string): void {
    this.flash = msg;
    this.renderStatus(this.editor.check());
  }

  private open(c: Current, text: string): void {
    this.cur = c;
    this.editor.setText(text, c.file);
    this.sliders.sync(setupSliders(text, readAnyCar));
    this.titleEl.innerHTML = `<b>${esc(c.id)}</b> <span>${c.kind === 'builtin' ? 'built-in (Save makes a custom copy)' : 'custom car'}${c.record?.draft ? ' · draft' : ''}</span>`;
    this.flash = '';
    this.renderStatus(this.editor.check());
    this.tests.reset();
    this.renderCars();
  }

  private openBuiltin(id: string): void {
    const b = BUILTIN_CARS.find((x) => x.id === id) ?? BUILTIN_CARS[0]!;
    this.open({ id: b.id, kind: 'builtin', file: b.file, record: null }, carOverride(b.id)?.text ?? b.text);
  }

  private openCustom(r: CustomCarRecord): void {
    this.open({ id: r.id, kind: 'custom', file: fileOf(r.id), record: r }, CustomCars.editText(r));
  }

  private renderCars(): void {
    const items = [
      ...BUILTIN_CARS.map((b) => ({ id: b.id, label: b.id, tag: 'built-in' })),
      ...this.customList.map((r) => ({ id: r.id, label: r.name, tag: r.text === null ? 'draft only' : r.draft ? 'custom · draft' : 'custom' })),
    ];
    this.carsEl.innerHTML = items
      .map((i) => `<button class="item garage-car${i.id === this.cur.id ? ' current' : ''}" data-car="${esc(i.id)}">${esc(i.label)}<span class="val">${i.tag}${i.id === this.liveId ? ' · driving' : ''}</span></button>`)
      .join('');
    this.carsEl.querySelectorAll<HTMLElement>('[data-car]').forEach((b) => {
      b.onclick = () => {
        const id = b.dataset.car!;
        const r = this.customList.find((x) => x.id === id);
        if (r) this.openCustom(r);
        else this.openBuiltin(id);
      };
    });
  }

  private async reloadCustom(): Promise<void> {
    this.customList = await refreshCustom();
    this.renderCars();
  }

  /** One menu action (a button's `data-a`). */
  async act(a: string): Promise<void> {
    const store = await customCars();
    switch (a) {
      case 'edit':
        return this.editor.focus();
      case 'apply':
        return this.apply();
      case 'save':
        return this.save(store);
      case 'duplicate':
        return this.duplicate(store);
      case 'rename':
        return this.showRename();
      case 'rename-ok':
        return this.rename(store);
      case 'delete':
        return this.remove(store);
      case 'export':
        return this.exportFile();
      case 'import':
        return this.fileInput.click();
      case 'test':
        return void this.tests.run();
      case 'drive':
        return this.ctx.show(this.host.session ? 'pause' : 'stages', { from: 'garage' });
      case 'back':
        return this.ctx.show(this.backTo ?? (this.host.session ? 'pause' : 'title'), { from: 'garage' });
    }
  }

  private apply(): void {
    const r = applyToGame(this.cur.id, this.editor.text, this.cur.file, readAnyCar);
    this.lastApply = r.applied ? (r.swappedLive ? 'live' : 'next-run') : 'rejected';
    this.say(r.applied ? (r.swappedLive ? 'Applied to the running car' : 'Applied: the next run uses it') : `Not applied (${r.problems.length} problem${r.problems.length > 1 ? 's' : ''})`);
  }

  private async save(store: CustomCars): Promise<void> {
    const { cur, editor } = this;
    const res = await store.save(cur.kind === 'custom' ? cur.id : null, editor.text, { basedOn: cur.kind === 'builtin' ? cur.id : undefined });
    await this.reloadCustom();
    this.cur = { id: res.record.id, kind: 'custom', file: fileOf(res.record.id), record: res.record };
    editor.file = this.cur.file;
    this.renderCars();
    this.say(res.valid ? `Saved as ${res.record.name}` : 'Saved as a draft (the drivable version is unchanged)');
    this.titleEl.innerHTML = `<b>${esc(this.cur.id)}</b> <span>custom car${res.record.draft ? ' · draft' : ''}</span>`;
  }

  private async duplicate(store: CustomCars): Promise<void> {
    if (this.cur.kind === 'custom') this.openCustom(await store.duplicate(this.cur.id));
    else {
      const res = await store.save(null, this.editor.text, { basedOn: this.cur.id, name: `${this.cur.id} copy` });
      this.openCustom(res.record);
    }
    await this.reloadCustom();
    this.say('Duplicated');
  }

  private showRename(): void {
    if (this.cur.kind !== 'custom') return this.say('Save the car first: built-in cars keep their names');
    this.renameBox.hidden = false;
    this.renameInput.value = this.cur.record?.name ?? this.cur.id;
    this.renameInput.focus();
  }

  private async rename(store: CustomCars): Promise<void> {
    this.renameBox.hidden = true;
    if (this.cur.kind !== 'custom') return;
    try {
      const rec = await store.rename(this.cur.id, this.renameInput.value.trim());
      await this.reloadCustom();
      this.openCustom(rec);
      this.say(`Renamed to ${rec.name}`);
    } catch (e) {
      this.say((e as Error).message);
    }
  }

  /** Delete asks for a second press before removing the custom car. */
  private async remove(store: CustomCars): Promise<void> {
    if (this.cur.kind !== 'custom') return this.say('Built-in cars cannot be deleted');
    const btn = this.el.querySelector<HTMLButtonElement>('[data-a="delete"]')!;
    if (btn.dataset.confirm !== '1') {
      btn.dataset.confirm = '1';
      btn.firstChild!.textContent = 'Delete — press again to confirm';
      return;
    }
    btn.dataset.confirm = '';
    btn.firstChild!.textContent = 'Delete';
    await store.remove(this.cur.id);
    await this.reloadCustom();
    this.openBuiltin(this.cur.record?.basedOn ?? BUILTIN_CARS[0]!.id);
    this.say('Deleted');
  }

  private exportFile(): void {
    const { cur, editor } = this;
    const name = cur.kind === 'custom' && cur.record ? CustomCars.exportToml({ ...cur.record, draft: editor.check().ok ? null : editor.text }, !editor.check().ok).fileName : cur.file;
    const blob = new Blob([editor.text], { type: 'text/plain' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    this.say(`Exported ${name}`);
  }

  /** Buttons, the rename box's Enter/Escape and the import file picker. */
  private bindInputs(): void {
    const { el, renameInput, renameBox, fileInput } = this;
    el.querySelectorAll<HTMLElement>('[data-a]').forEach((b) => (b.onclick = () => void this.act(b.dataset.a!)));
    renameInput.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') void this.act('rename-ok');
      if (e.key === 'Escape') renameBox.hidden = true;
      e.stopPropagation();
    });
    fileInput.addEventListener('change', async () => {
      const f = fileInput.files?.[0];
      if (!f) return;
      const text = await f.text();
      const store = await customCars();
      const res = await store.importToml(f.name, text);
      await this.reloadCustom();
      this.openCustom(res.record);
      this.say(res.valid ? `Imported ${f.name}` : `Imported ${f.name} as a draft (${res.problems.length} problems)`);
      fileInput.value = '';
    });
  }

  /** `window.__garage` for the e2e tests. */
  testHook(): GarageTestHook {
    const { editor } = this;
    // the accessors below have the hook as `this`: they reach the screen through these
    const getApply = (): string => this.lastApply;
    const setApply = (v: string): void => {
      this.lastApply = v;
    };
    return {
      text: () => editor.text,
      problems: () => (editor.check().ok ? [] : editor.check().problems.map((p) => p.message)),
      valid: () => editor.check().ok,
      carId: () => this.cur.id,
      status: () => this.statusEl.textContent ?? '',
      sliders: () => (setupSliders(editor.text, readAnyCar) ?? []).map((s) => ({ key: s.key, value: s.value })),
      carTest: () => this.tests.last,
      edit: (from, to, insert) => editor.view.dispatch({ changes: { from, to, insert }, userEvent: 'input.type' }),
      get lastApply() {
        return getApply();
      },
      set lastApply(v: string) {
        setApply(v);
      },
    };
  }

  dispose(): void {
    if (this.sliderTimer) clearTimeout(this.sliderTimer);
    this.editor.destroy();
    this.tests.dispose();
    if (window.__garage) delete window.__garage;
  }
}
