/**
 * The replay library screens: 'replays' lists the saved replays (newest first) with import (file picker,
 * drag and drop anywhere on the screen), and 'replay-entry' offers Watch / Race as ghost / Rename / Export /
 * Delete for one entry. Imported files are untrusted: `ReplayLibrary.importFile` checks everything before it
 * stores anything, an import always gets a new id (nothing existing is overwritten), and a bad file shows
 * its `<file>: <field>: expected …, found …` error here.
 */
import { html, registerScreen } from '../screens';
import { formatTime } from '../../run/stage-run';
import { replayPlace, type ReplayEntry, type ReplayLibrary } from './library';
import { setGhostChoice, ghostChoice } from './ghost-choice';
import { escapeHtml as esc } from '../escape-html';


export interface LibraryHost {
  library: ReplayLibrary;
  /** Called after an import (tests read it). */
  onImported?: (e: ReplayEntry | null, error: string | null) => void;
}

function describe(e: ReplayEntry): string {
  const t = e.timeS !== null ? formatTime(e.timeS) : `DNF (${e.durationS.toFixed(0)} s)`;
  return `${replayPlace(e)} · ${e.carIds.join(', ')} · ${t}`;
}

export function registerLibraryScreens(host: LibraryHost): void {
  registerListScreen(host);
  registerEntryScreen(host.library);
}

/** 'replays': the saved replays, newest first, with import by file picker or drag and drop. */
function registerListScreen(host: LibraryHost): void {
  const { library } = host;
  registerScreen('replays', (ctx, params) => {
    const el = html(`<h2>Replays</h2><div class="sub">Finished runs are saved here automatically · drop a .bitrally file anywhere to import</div>
      <div class="error" data-import-error></div><div class="sub" data-import-ok></div>
      <div class="list replay-list"></div>
      <button class="item" data-a="import">Import .bitrally file…</button>
      <button class="item" data-a="back">Back</button>
      <input type="file" accept=".bitrally,application/octet-stream" data-file hidden>
      <div class="hint">A: open · B: back</div>`);
    const list = el.querySelector<HTMLElement>('.replay-list')!;
    const errEl = el.querySelector<HTMLElement>('[data-import-error]')!;
    const okEl = el.querySelector<HTMLElement>('[data-import-ok]')!;
    const input = el.querySelector<HTMLInputElement>('[data-file]')!;
    const back = (): void => ctx.show(typeof params.from === 'string' ? params.from : 'title');
    const render = async (): Promise<void> => {
      const all = await library.list();
      list.innerHTML = all.length ? '' : '<div class="sub" data-empty>No replays yet: finish a stage.</div>';
      const ghost = ghostChoice();
      for (const e of all) {
        const b = document.createElement('button');
        b.className = 'item replay-row';
        b.dataset.replay = e.id;
        const g = ghost && ghost.entryId === e.id ? ' <span class="val">ghost</span>' : '';
        b.innerHTML = `<span><b>${esc(e.name)}</b>${g}<br><small>${esc(describe(e))}</small></span><span class="val">${esc(e.date.slice(0, 16).replace('T', ' '))}</span>`;
        b.onclick = () => ctx.show('replay-entry', { id: e.id });
        list.appendChild(b);
      }
      const mgr = (ctx as unknown as { refocus?: () => void; items?: () => HTMLElement[]; setFocus?: (i: number) => void });
      mgr.refocus?.();
      mgr.items?.().forEach((it, i) => it.addEventListener('mouseenter', () => mgr.setFocus?.(i)));
    };
    const importFiles = async (files: FileList | File[]): Promise<void> => {
      errEl.textContent = '';
      okEl.textContent = '';
      for (const f of [...files]) {
        try {
          const e = await library.importFile(f);
          okEl.textContent = `Imported "${e.name}" (${describe(e)})`;
          host.onImported?.(e, null);
        } catch (err) {
          const msg = (err as Error).message;
          errEl.textContent = `Import failed — ${msg}`;
          host.onImported?.(null, msg);
        }
      }
      await render();
    };
    input.onchange = () => {
      if (input.files?.length) void importFiles(input.files);
      input.value = '';
    };
    el.querySelector<HTMLElement>('[data-a="import"]')!.onclick = () => input.click();
    el.querySelector<HTMLElement>('[data-a="back"]')!.onclick = back;
    el.addEventListener('dragover', (ev) => {
      ev.preventDefault();
      el.classList.add('dropping');
    });
    el.addEventListener('dragleave', () => el.classList.remove('dropping'));
    el.addEventListener('drop', (ev) => {
      ev.preventDefault();
      el.classList.remove('dropping');
      const files = ev.dataTransfer?.files;
      if (files?.length) void importFiles(files);
    });
    void render();
    return { el, back };
  });
}

/** 'replay-entry': Watch / Race as ghost / Rename / Export / Delete (pressed twice) for one entry. */
function registerEntryScreen(library: ReplayLibrary): void {
  registerScreen('replay-entry', (ctx, params) => {
    const id = String(params.id);
    const el = html(`<h2>Replay</h2><div class="sub" data-desc>…</div>
      <div class="list">
        <button class="item default" data-a="watch">Watch</button>
        <button class="item" data-a="ghost">Race against it (ghost)</button>
        <label class="item rename-row"><span>Name</span><input data-name maxlength="80"></label>
        <button class="item" data-a="rename">Save name</button>
        <button class="item" data-a="export">Export .bitrally (download)</button>
        <button class="item" data-a="delete">Delete</button>
        <button class="item" data-a="back">Back</button>
      </div><div class="sub" data-msg></div>`);
    const desc = el.querySelector<HTMLElement>('[data-desc]')!;
    const msg = el.querySelector<HTMLElement>('[data-msg]')!;
    const nameIn = el.querySelector<HTMLInputElement>('[data-name]')!;
    let entry: ReplayEntry | undefined;
    let confirmDelete = false;
    void library.get(id).then((e) => {
      entry = e;
      if (!e) {
        desc.textContent = `No replay with id ${id}`;
        return;
      }
      desc.textContent = `${e.name} — ${describe(e)}`;
      nameIn.value = e.name;
      // a ghost races on a stage: a town run has none to race on
      if (e.townSeed !== undefined && e.townSeed !== null) el.querySelector<HTMLButtonElement>('[data-a="ghost"]')!.disabled = true;
    });
    const back = (): void => ctx.show('replays');
    const act = async (a: string): Promise<void> => {
      if (a === 'back') return back();
      if (!entry) return;
      if (a === 'watch') ctx.show('replay', { id, from: 'replay-entry' });
      else if (a === 'ghost') {
        setGhostChoice({ entryId: id, stageId: entry.stageId ?? '' });
        msg.textContent = `Ghost set: next run on ${entry.stageId ?? '?'} races against "${entry.name}".`;
      } else if (a === 'rename') {
        await library.rename(id, nameIn.value);
        entry = await library.get(id);
        desc.textContent = `${entry!.name} — ${describe(entry!)}`;
        msg.textContent = 'Renamed.';
      } else if (a === 'export') {
        library.exportEntry(entry);
        msg.textContent = 'Download started.';
      } else if (a === 'delete') {
        if (!confirmDelete) {
          confirmDelete = true;
          msg.textContent = 'Press Delete again to delete this replay.';
          return;
        }
        await library.remove(id);
        if (ghostChoice()?.entryId === id) setGhostChoice(null);
        back();
      }
    };
    el.querySelectorAll<HTMLElement>('[data-a]').forEach((b) => (b.onclick = () => void act(b.dataset.a!)));
    // typing in the name field must not navigate the menu
    nameIn.addEventListener('keydown', (ev) => ev.stopPropagation());
    return { el, back };
  });
}
