/**
 * 'rally-stage': the stage start (stage name, length, the damage the car brings, rival times), the stage
 * generated or read from the cache with a progress bar, then "Start the stage". 'rally-service': the service
 * park (repair items with their minutes, budget left, penalty preview, setup change, garage link).
 */
import { html, registerScreen } from '../screens';
import { escapeHtml as esc } from '../escape-html';
import { repairItems, runService, SETUP_CHANGE_MIN, type RepairItemId } from '../../run/rally/service';
import type { CarDamage } from '../../systems/sim/collision/damage-state';
import type { RallyController } from './controller';
import { rallyStageName, type RallyStageReady } from './stage-source';

/** One line on the car's state: what the crush does (power loss, steering pull) and how much there is. */
export function damageLine(d: CarDamage): string {
  const items = repairItems(d);
  if (items.length === 0) return 'Car undamaged';
  return `Damage: ${items.map((i) => `${i.id} ${(i.crushM * 100).toFixed(0)} cm`).join(', ')}`;
}

export function registerStageStart(rc: RallyController): void {
  registerScreen('rally-stage', (ctx, params) => {
    const k = Number(params.stage);
    const s = rc.state!;
    const el = html(`<h2>${esc(s.name)} · SS${k + 1} of ${s.stages.length}</h2>
      <div class="sub" data-name>${esc(rallyStageName(s.stages[k]!))}</div>
      <div class="rally-progress"><div data-bar></div></div><div class="sub" data-msg>Preparing the stage…</div>
      <div class="sub" data-damage>${esc(damageLine(s.damage))}</div>
      <button class="item default" data-a="go">Start the stage</button>
      <button class="item" data-a="standings">Rally standings</button>
      <button class="item" data-a="back">Rally menu</button>
      <div class="hint">A: select · B: rally menu</div>`);
    // presses made while the stage is prepared are queued (loading), so "Start" keeps the focus from the start
    const go = el.querySelector<HTMLButtonElement>('[data-a="go"]')!;
    const msg = el.querySelector<HTMLElement>('[data-msg]')!;
    const bar = el.querySelector<HTMLElement>('[data-bar]')!;
    let ready: RallyStageReady | null = null;
    let failed = false;
    rc.prepare(k, (f) => void (bar.style.width = `${Math.round(f * 100)}%`)).then(
      (r) => {
        ready = r;
        bar.style.width = '100%';
        el.querySelector('[data-name]')!.textContent = r.summary.name;
        msg.textContent = `${(r.summary.lengthM / 1000).toFixed(2)} km · ${r.summary.surface} · ${r.summary.checkpoints} checkpoint(s)`;
        go.dataset.ready = '1';
      },
      (e: Error) => {
        failed = true;
        msg.innerHTML = `<div class="error">${esc(e.message)}</div>`;
      },
    );
    go.onclick = () => ready && rc.drive(k, ready);
    el.querySelector<HTMLElement>('[data-a="standings"]')!.onclick = () => ctx.show('rally-standings', { from: 'rally-stage', stage: k });
    el.querySelector<HTMLElement>('[data-a="back"]')!.onclick = () => ctx.show('rally');
    return { el, loading: () => !ready && !failed, back: () => ctx.show('rally') };
  });
}

interface ServiceDraft {
  repairs: Set<RepairItemId>;
  setup: boolean;
}

function serviceSummary(rc: RallyController, d: ServiceDraft): string {
  const s = rc.state!;
  const out = runService(s.damage, { repairs: [...d.repairs], setupChanged: d.setup }, s.serviceBudgetMin, s.freeRepairDue);
  const left = s.serviceBudgetMin - out.minutesUsed;
  return `Budget ${s.serviceBudgetMin} min · used <b data-used>${out.minutesUsed}</b> min · ${left >= 0 ? `${left} min left` : `<span class="slower">${-left} min late</span>`} · ` +
    `penalty <b data-penalty>${out.penaltyS} s</b> (10 s per minute or part late)`;
}

export function registerService(rc: RallyController): void {
  registerScreen('rally-service', (ctx, params) => {
    const s = rc.state!;
    const step = rc.next();
    // back from the garage: the setup was (or may have been) changed, which costs its minutes
    const d: ServiceDraft = { repairs: new Set(), setup: params.from === 'garage' };
    const items = repairItems(s.damage);
    const free = s.freeRepairDue ? '<div class="sub">After your retirement the crew rebuilds the car: every repair is free.</div>' : '';
    const el = html(`<h2>Service park${step?.kind === 'service' ? ` · after SS${step.afterStage + 1}` : ''}</h2>${free}
      <div class="sub" data-summary></div><div class="list" data-items></div>
      <button class="item" data-a="setup"></button>
      <button class="item" data-a="garage">Garage: change the setup…</button>
      <button class="item default" data-a="done">Check out of service</button>
      <button class="item" data-a="standings">Rally standings</button>
      <div class="hint">A: toggle a repair · B: rally menu</div>`);
    const summary = el.querySelector<HTMLElement>('[data-summary]')!;
    const list = el.querySelector<HTMLElement>('[data-items]')!;
    const setupBtn = el.querySelector<HTMLElement>('[data-a="setup"]')!;
    const render = (): void => {
      summary.innerHTML = serviceSummary(rc, d);
      setupBtn.innerHTML = `<span>Setup change (${SETUP_CHANGE_MIN} min)</span> <span class="val">${d.setup ? 'yes' : 'no'}</span>`;
      list.querySelectorAll<HTMLElement>('[data-repair]').forEach((b) => (b.querySelector('.val')!.textContent = d.repairs.has(b.dataset.repair as RepairItemId) || s.freeRepairDue ? 'repair' : 'leave'));
    };
    if (items.length === 0) list.innerHTML = '<div class="sub">Nothing to repair: the car is undamaged.</div>';
    for (const it of items) {
      const b = document.createElement('button');
      b.className = 'item';
      b.dataset.repair = it.id;
      b.innerHTML = `<span>${esc(it.label)} · ${(it.crushM * 100).toFixed(0)} cm · ${s.freeRepairDue ? 0 : it.minutes} min</span> <span class="val"></span>`;
      b.onclick = () => {
        if (!d.repairs.delete(it.id)) d.repairs.add(it.id);
        render();
      };
      list.appendChild(b);
    }
    setupBtn.onclick = () => {
      d.setup = !d.setup;
      render();
    };
    el.querySelector<HTMLElement>('[data-a="garage"]')!.onclick = () => ctx.show('garage', { carId: s.carId, backTo: 'rally-service' });
    el.querySelector<HTMLElement>('[data-a="done"]')!.onclick = () => rc.service({ repairs: [...d.repairs], setupChanged: d.setup });
    el.querySelector<HTMLElement>('[data-a="standings"]')!.onclick = () => ctx.show('rally-standings', { from: 'rally-service' });
    render();
    return { el, back: () => ctx.show('rally') };
  });
}

