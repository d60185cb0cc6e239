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
import { CarTestPanel } from '../car-test/panel';
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
    const el = html(
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
    const q = <T extends HTMLElement>(s: string): T => el.querySelector<T>(s)!;
    const carsEl = q<HTMLDivElement>('.garage-cars');
    const statusEl = q<HTMLDivElement>('.garage-status');
    const titleEl = q<HTMLDivElement>('.garage-title');
    const problemsEl = q<HTMLUListElement>('.garage-problems');
    const renameBox = q<HTMLDivElement>('.garage-rename');
    const renameInput = renameBox.querySelector('input')!;
    const fileInput = q<HTMLInputElement>('.garage-file');
    let flash = '';
    let lastApply = '';
    const session = host.session;
    const liveId = session?.car.info.id ?? null;
    setLiveCar(
      session
        ? { world: session.world, eid: session.car.eid, carId: session.car.info.id, onSwapped: (cfg) => session.onCarSwapped?.(cfg) }
        : null,
    );

    let cur: Current = { id: '', kind: 'builtin', file: '', record: null };
    let sliderTimer: ReturnType<typeof setTimeout> | null = null;

    const sliders = new SliderPanel((s: SetupSlider, value: number) => {
      // one surgical edit of the value's characters; comments and layout untouched
      editor.applyTextEdit(numberEdit(editor.text, s.path, value, s.step, s.min));
    });
    const tests = new CarTestPanel(() => {
      const c = editor.check();
      const prevText = cur.kind === 'builtin' ? (carOverride(cur.id)?.text ?? BUILTIN_CARS.find((b) => b.id === cur.id)?.text ?? null) : (cur.record?.text ?? null);
      const prev = prevText !== null && prevText !== editor.text ? checkCarDraft(prevText, cur.file, readAnyCar) : null;
      return {
        edited: c.ok ? { config: c.config, text: editor.text } : null,
        previous: prev?.ok ? { config: prev.config, text: prevText! } : null,
      };
    });
    q('.garage-right').append(sliders.el, tests.el);

    const renderStatus = (c: DraftCheck): void => {
      statusEl.className = `garage-status ${c.ok ? 'ok' : 'bad'}`;
      statusEl.textContent = (c.ok ? '✓ Valid — Apply to drive it' : `✗ ${c.problems.length} problem${c.problems.length > 1 ? 's' : ''} — Save keeps a draft; the car you drive is unchanged`) + (flash ? `  ·  ${flash}` : '');
      problemsEl.innerHTML = c.problems.map((p, i) => `<li data-i="${i}">${esc(p.message)}</li>`).join('');
      problemsEl.querySelectorAll<HTMLElement>('li').forEach((li) => {
        li.onclick = () => {
          const p = c.problems[Number(li.dataset.i)]!;
          editor.view.dispatch({ selection: { anchor: p.from, head: p.to }, scrollIntoView: true });
          editor.focus();
        };
      });
    };

    const editor = new CarEditor(q('.garage-editor'), {
      text: '',
      file: 'car.toml',
      readExtends: readAnyCar,
      onCheck: (c) => renderStatus(c),
      onChange: () => {
        if (sliderTimer) clearTimeout(sliderTimer);
        sliderTimer = setTimeout(() => sliders.sync(setupSliders(editor.text, readAnyCar)), 60);
      },
    });

    const say = (msg: string): void => {
      flash = msg;
      renderStatus(editor.check());
    };

    const open = (c: Current, text: string): void => {
      cur = c;
      editor.setText(text, c.file);
      sliders.sync(setupSliders(text, readAnyCar));
      titleEl.innerHTML = `<b>${esc(c.id)}</b> <span>${c.kind === 'builtin' ? 'built-in (Save makes a custom copy)' : 'custom car'}${c.record?.draft ? ' · draft' : ''}</span>`;
      flash = '';
      renderStatus(editor.check());
      tests.reset();
      renderCars();
    };

    const openBuiltin = (id: string): void => {
      const b = BUILTIN_CARS.find((x) => x.id === id) ?? BUILTIN_CARS[0]!;
      open({ id: b.id, kind: 'builtin', file: b.file, record: null }, carOverride(b.id)?.text ?? b.text);
    };
    const openCustom = (r: CustomCarRecord): void => open({ id: r.id, kind: 'custom', file: fileOf(r.id), record: r }, CustomCars.editText(r));

    let customList: CustomCarRecord[] = [];
    const renderCars = (): void => {
      const items = [
        ...BUILTIN_CARS.map((b) => ({ id: b.id, label: b.id, tag: 'built-in' })),
        ...customList.map((r) => ({ id: r.id, label: r.name, tag: r.text === null ? 'draft only' : r.draft ? 'custom · draft' : 'custom' })),
      ];
      carsEl.innerHTML = items
        .map((i) => `<button class="item garage-car${i.id === cur.id ? ' current' : ''}" data-car="${esc(i.id)}">${esc(i.label)}<span class="val">${i.tag}${i.id === liveId ? ' · driving' : ''}</span></button>`)
        .join('');
      carsEl.querySelectorAll<HTMLElement>('[data-car]').forEach((b) => {
        b.onclick = () => {
          const id = b.dataset.car!;
          const r = customList.find((x) => x.id === id);
          if (r) openCustom(r);
          else openBuiltin(id);
        };
      });
    };

    const reloadCustom = async (): Promise<void> => {
      customList = await refreshCustom();
      renderCars();
    };

    const start = typeof params.carId === 'string' ? params.carId : (liveId ?? BUILTIN_CARS[0]?.id ?? '');
    openBuiltin(start);
    void reloadCustom().then(() => {
      const r = customList.find((x) => x.id === start);
      if (r) openCustom(r);
    });

    const act = async (a: string): Promise<void> => {
      const store = await customCars();
      switch (a) {
        case 'edit':
          editor.focus();
          break;
        case 'apply': {
          const r = applyToGame(cur.id, editor.text, cur.file, readAnyCar);
          lastApply = r.applied ? (r.swappedLive ? 'live' : 'next-run') : 'rejected';
          say(r.applied ? (r.swappedLive ? 'Applied to the running car' : 'Applied: the next run uses it') : `Not applied (${r.problems.length} problem${r.problems.length > 1 ? 's' : ''})`);
          break;
        }
        case 'save': {
          const res = await store.save(cur.kind === 'custom' ? cur.id : null, editor.text, { basedOn: cur.kind === 'builtin' ? cur.id : undefined });
          await reloadCustom();
          cur = { id: res.record.id, kind: 'custom', file: fileOf(res.record.id), record: res.record };
          editor.file = cur.file;
          renderCars();
          say(res.valid ? `Saved as ${res.record.name}` : 'Saved as a draft (the drivable version is unchanged)');
          titleEl.innerHTML = `<b>${esc(cur.id)}</b> <span>custom car${res.record.draft ? ' · draft' : ''}</span>`;
          break;
        }
        case 'duplicate': {
          if (cur.kind === 'custom') openCustom(await store.duplicate(cur.id));
          else {
            const res = await store.save(null, editor.text, { basedOn: cur.id, name: `${cur.id} copy` });
            openCustom(res.record);
          }
          await reloadCustom();
          say('Duplicated');
          break;
        }
        case 'rename':
          if (cur.kind !== 'custom') {
            say('Save the car first: built-in cars keep their names');
            break;
          }
          renameBox.hidden = false;
          renameInput.value = cur.record?.name ?? cur.id;
          renameInput.focus();
          break;
        case 'rename-ok': {
          renameBox.hidden = true;
          if (cur.kind !== 'custom') break;
          try {
            const rec = await store.rename(cur.id, renameInput.value.trim());
            await reloadCustom();
            openCustom(rec);
            say(`Renamed to ${rec.name}`);
          } catch (e) {
            say((e as Error).message);
          }
          break;
        }
        case 'delete': {
          if (cur.kind !== 'custom') {
            say('Built-in cars cannot be deleted');
            break;
          }
          const btn = q<HTMLButtonElement>('[data-a="delete"]');
          if (btn.dataset.confirm !== '1') {
            btn.dataset.confirm = '1';
            btn.firstChild!.textContent = 'Delete — press again to confirm';
            break;
          }
          btn.dataset.confirm = '';
          btn.firstChild!.textContent = 'Delete';
          await store.remove(cur.id);
          await reloadCustom();
          openBuiltin(cur.record?.basedOn ?? BUILTIN_CARS[0]!.id);
          say('Deleted');
          break;
        }
        case 'export': {
          const name = cur.kind === 'custom' && cur.record ? CustomCars.exportToml({ ...cur.record, draft: editor.check().ok ? null : editor.text }, !editor.check().ok).fileName : cur.file;
          const blob = new Blob([editor.text], { type: 'text/plain' });
          const a = document.createElement('a');
          a.href = URL.createObjectURL(blob);
          a.download = name;
          a.click();
          setTimeout(() => URL.revokeObjectURL(a.href), 1000);
          say(`Exported ${name}`);
          break;
        }
        case 'import':
          fileInput.click();
          break;
        case 'test':
          void tests.run();
          break;
        case 'drive':
          ctx.show(host.session ? 'pause' : 'stages', { from: 'garage' });
          break;
        case 'back':
          ctx.show(host.session ? 'pause' : 'title', { from: 'garage' });
          break;
      }
    };

    el.querySelectorAll<HTMLElement>('[data-a]').forEach((b) => (b.onclick = () => void act(b.dataset.a!)));
    renameInput.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') void act('rename-ok');
      if (e.key === 'Escape') renameBox.hidden = true;
      e.stopPropagation();
    });
    fileInput.addEventListener('change', async () => {
      const f = fileInput.files?.[0];
      if (!f) return;
      const text = await f.text();
      const store = await customCars();
      const res = await store.importToml(f.name, text);
      await reloadCustom();
      openCustom(res.record);
      say(res.valid ? `Imported ${f.name}` : `Imported ${f.name} as a draft (${res.problems.length} problems)`);
      fileInput.value = '';
    });

    window.__garage = {
      text: () => editor.text,
      problems: () => (editor.check().ok ? [] : editor.check().problems.map((p) => p.message)),
      valid: () => editor.check().ok,
      carId: () => cur.id,
      status: () => statusEl.textContent ?? '',
      sliders: () => (setupSliders(editor.text, readAnyCar) ?? []).map((s) => ({ key: s.key, value: s.value })),
      carTest: () => tests.last,
      edit: (from, to, insert) => editor.view.dispatch({ changes: { from, to, insert }, userEvent: 'input.type' }),
      get lastApply() {
        return lastApply;
      },
      set lastApply(v: string) {
        lastApply = v;
      },
    };

    const textFocus = (): boolean => editor.hasFocus || document.activeElement === renameInput;
    return {
      el,
      back: () => void act('back'),
      // typing in the editor or a text field: the menu does not move (Escape in the editor leaves it)
      onKey: (_k: MenuKey) => textFocus(),
      dispose: () => {
        if (sliderTimer) clearTimeout(sliderTimer);
        editor.destroy();
        tests.dispose();
        if (window.__garage) delete window.__garage;
      },
    };
  });
}

