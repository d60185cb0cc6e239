/** The New stage screen's last parameters, kept in localStorage (`bitrally.stagegen.v1`); a bad value falls back to the defaults. */
import { checkStageGenParams, type StageGenParamsChecked } from './params';

const KEY = 'bitrally.stagegen.v1';
const DEFAULTS: StageGenParamsChecked = { seed: 2026, lengthKm: 3, landscape: 'forest-gravel', surfaceMix: 0 };

export function loadLastParams(): StageGenParamsChecked {
  try {
    const raw = localStorage.getItem(KEY);
    return raw ? checkStageGenParams(JSON.parse(raw)) : { ...DEFAULTS };
  } catch (e) {
    console.warn(`${KEY}: ${(e as Error).message}; using the defaults`);
    return { ...DEFAULTS };
  }
}

export function saveLastParams(p: StageGenParamsChecked): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(p));
  } catch {
    // storage full or blocked: the parameters are only a convenience
  }
}
