/**
 * Menu input without a DOM: InputDevices on a fake window with a fake pad, ScreenManager on fake elements.
 * A held stick auto-repeats navigation but a toggle acts once per press; presses made while a screen is
 * loading are handled when it is ready.
 */
import { describe, expect, it } from 'vitest';
import { InputDevices, type MenuKey } from '../../src/app/input/devices';
import { adjustable, registerScreen, ScreenManager } from '../../src/app/screens';

function fakeWindow(pad: { axes: number[]; buttons: { pressed: boolean; value: number }[] }) {
  const gp = { index: 0, id: 'Fake pad (STANDARD GAMEPAD)', connected: true, mapping: 'standard', ...pad };
  return { addEventListener: () => undefined, navigator: { getGamepads: () => [gp] } } as unknown as Window;
}

const FRAME_S = 1 / 60;

/** Hold the stick at `x` for `seconds` of 60 Hz frames; returns every frame's presses and repeats. */
function holdStick(x: number, seconds: number): { keys: MenuKey[]; repeats: Set<MenuKey> }[] {
  const pad = { axes: [x, 0, 0, 0], buttons: Array.from({ length: 17 }, () => ({ pressed: false, value: 0 })) };
  const dev = new InputDevices(fakeWindow(pad));
  const out = [];
  for (let t = 0; t < seconds; t += FRAME_S) {
    dev.poll();
    const keys = dev.menuPresses(FRAME_S);
    out.push({ keys, repeats: new Set(dev.menuRepeats) });
  }
  return out;
}

interface FakeItem {
  classList: { toggle: () => void; contains: (c: string) => boolean };
  addEventListener: () => void;
  click: () => void;
  adjust?: (d: -1 | 1) => void;
}
const fakeItem = (): FakeItem => ({ classList: { toggle: () => undefined, contains: () => false }, addEventListener: () => undefined, click: () => undefined });
const fakeScreenEl = (items: FakeItem[]) => ({ dataset: {}, querySelectorAll: () => items, remove: () => undefined }) as unknown as HTMLElement;
const fakeRoot = { appendChild: () => undefined } as unknown as HTMLElement;

describe('menu presses from a held stick', () => {
  it('one press, then auto-repeats flagged as repeats (0.38 s delay, every 0.12 s)', () => {
    const frames = holdStick(1, 1.5);
    const presses = frames.filter((f) => f.keys.includes('right'));
    const repeats = frames.filter((f) => f.repeats.has('right'));
    expect(frames[0]!.keys).toEqual(['right']);
    expect(frames[0]!.repeats.size).toBe(0);
    // 1.5 s held: first repeat after 0.38 s, then one per 0.12 s → floor((1.5 − 0.38)/0.12) + 1 = 10
    expect(repeats.length).toBeGreaterThanOrEqual(9);
    expect(repeats.length).toBeLessThanOrEqual(10);
    expect(presses.length).toBe(repeats.length + 1);
  });
  it('a stick resting between the release (0.4) and press (0.6) thresholds does not press', () => {
    expect(holdStick(0.5, 1).flatMap((f) => f.keys)).toEqual([]);
  });
});

describe('ScreenManager', () => {
  it('a toggle row flips once for a held stick; a step row follows the repeats', () => {
    const toggleItem = fakeItem();
    const stepItem = fakeItem();
    let flips = 0;
    let steps = 0;
    adjustable(toggleItem as unknown as HTMLElement, () => flips++, 'toggle');
    adjustable(stepItem as unknown as HTMLElement, () => steps++);
    const frames = holdStick(1, 2);
    for (const [name, item] of [['t-toggle', toggleItem], ['t-step', stepItem]] as const) {
      registerScreen(name, () => ({ el: fakeScreenEl([item]) }));
      const sm = new ScreenManager(fakeRoot);
      sm.show(name);
      for (const f of frames) sm.handle(f.keys, f.repeats);
    }
    expect(flips).toBe(1);
    expect(steps).toBe(frames.filter((f) => f.keys.includes('right')).length);
    expect(steps).toBeGreaterThan(10);
  });
  it('presses made while a screen loads are handled once it is ready, not lost; back acts at once', () => {
    let ready = false;
    let clicks = 0;
    let backs = 0;
    const item = fakeItem();
    item.click = () => clicks++;
    registerScreen('t-loading', () => ({ el: fakeScreenEl([item]), loading: () => !ready, back: () => backs++ }));
    const sm = new ScreenManager(fakeRoot);
    sm.show('t-loading');
    sm.handle(['confirm']);
    sm.update(FRAME_S);
    expect(clicks).toBe(0);
    sm.handle(['back']);
    expect(backs).toBe(1);
    ready = true;
    sm.update(FRAME_S);
    expect(clicks).toBe(1);
    sm.update(FRAME_S);
    expect(clicks).toBe(1);
  });
});
