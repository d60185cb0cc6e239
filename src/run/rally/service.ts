/**
 * The service park (docs/game.md, "Rally"): the crew has a time budget; each repair item costs minutes from its
 * crush, a setup change costs minutes too, and a crew that works past the budget checks out late at the time
 * control: LATE_PENALTY_S_PER_MIN seconds per minute *or part of a minute* late (the FIA time-control rule).
 */
import type { CarDamage } from '../../systems/sim/collision/damage-state';

/** Service-park time budget, min (a WRC mid-day service is 30 min). */
export const SERVICE_BUDGET_MIN = 30;
/** Time-control penalty per minute or part of a minute late, s. */
export const LATE_PENALTY_S_PER_MIN = 10;
/** A garage setup change (springs, dampers, gearing, diffs…), min. */
export const SETUP_CHANGE_MIN = 5;
/** Crush below this is paint and scratches: nothing to repair, m. */
export const REPAIR_THRESHOLD_M = 0.005;

export type RepairItemId = 'front' | 'rear' | 'left' | 'right';

/** Minutes per repair item: a fixed part (strip and refit) plus a part per cm of crush (straighten or replace). */
const REPAIR_COST: Record<RepairItemId, { label: string; baseMin: number; perCmMin: number }> = {
  front: { label: 'Front end, cooling and engine bay (power loss)', baseMin: 6, perCmMin: 0.5 },
  rear: { label: 'Rear bodywork', baseMin: 3, perCmMin: 0.25 },
  left: { label: 'Left suspension, steering arm and panels (steering pull)', baseMin: 5, perCmMin: 0.5 },
  right: { label: 'Right suspension, steering arm and panels (steering pull)', baseMin: 5, perCmMin: 0.5 },
};

export interface RepairItem {
  id: RepairItemId;
  label: string;
  crushM: number;
  /** Whole minutes the crew needs. */
  minutes: number;
}

const CM_PER_M = 100;

const crushOf = (d: CarDamage, id: RepairItemId): number =>
  id === 'front' ? d.crushFrontM : id === 'rear' ? d.crushRearM : id === 'left' ? d.crushLeftM : d.crushRightM;

/** Whole minutes to repair `crushM` of item `id`: base + per cm, rounded up. */
export function repairMinutes(id: RepairItemId, crushM: number): number {
  const c = REPAIR_COST[id];
  return Math.ceil(c.baseMin + c.perCmMin * crushM * CM_PER_M - 1e-9);
}

/** What the crew can repair on a car with damage `d` (the ends with crush above the threshold). */
export function repairItems(d: CarDamage): RepairItem[] {
  const ids: RepairItemId[] = ['front', 'rear', 'left', 'right'];
  return ids
    .filter((id) => crushOf(d, id) > REPAIR_THRESHOLD_M)
    .map((id) => ({ id, label: REPAIR_COST[id].label, crushM: crushOf(d, id), minutes: repairMinutes(id, crushOf(d, id)) }));
}

/** Time-control penalty for checking out `lateMin` minutes late: 10 s per minute or part of a minute. */
export function latePenaltyS(lateMin: number): number {
  return lateMin > 0 ? LATE_PENALTY_S_PER_MIN * Math.ceil(lateMin - 1e-9) : 0;
}

export interface ServiceChoice {
  repairs: readonly RepairItemId[];
  setupChanged: boolean;
}

export interface ServiceOutcome {
  minutesUsed: number;
  budgetMin: number;
  lateMin: number;
  penaltyS: number;
  /** The car's damage when it leaves service (repaired ends at zero crush; the collision count stays). */
  damageAfter: CarDamage;
  repaired: RepairItemId[];
}

/**
 * One service: the chosen repairs and setup change against the budget. `free` (after a retirement, docs/game.md)
 * repairs everything at no cost in time.
 */
export function runService(damage: CarDamage, choice: ServiceChoice, budgetMin = SERVICE_BUDGET_MIN, free = false): ServiceOutcome {
  const items = repairItems(damage);
  const chosen = free ? items : items.filter((it) => choice.repairs.includes(it.id));
  const repairMin = free ? 0 : chosen.reduce((sum, it) => sum + it.minutes, 0);
  const minutesUsed = repairMin + (choice.setupChanged ? SETUP_CHANGE_MIN : 0);
  const lateMin = Math.max(0, minutesUsed - budgetMin);
  const repaired = chosen.map((it) => it.id);
  const fixed = (id: RepairItemId, v: number): number => (repaired.includes(id) ? 0 : v);
  const damageAfter: CarDamage = {
    crushFrontM: fixed('front', damage.crushFrontM),
    crushRearM: fixed('rear', damage.crushRearM),
    crushLeftM: fixed('left', damage.crushLeftM),
    crushRightM: fixed('right', damage.crushRightM),
    hits: damage.hits,
  };
  return { minutesUsed, budgetMin, lateMin, penaltyS: latePenaltyS(lateMin), damageAfter, repaired };
}
