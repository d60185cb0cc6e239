/**
 * Screens loaded on demand (src/app/lazy-screens.ts), without a DOM: a feature's loader runs once however many
 * screens ask for it (and again after a failure); a stand-in screen queues presses while the feature loads,
 * then shows the real screen with the same parameters, unless the player has moved on.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadOnce, registerLazyScreens } from '../../src/app/lazy-screens';
import { registerScreen, ScreenManager } from '../../src/app/screens';

/** The element surface screens.ts and lazy-screens.ts use; `isConnected` follows append/remove. */
function fakeElement() {
  const el = {
    className: '',
    innerHTML: '',
    dataset: {} as Record<string, string>,
    isConnected: false,
    querySelector: () => ({ innerHTML: '' }),
    querySelectorAll: () => [],
    remove: () => void (el.isConnected = false),
  };
  return el;
}
const root = { appendChild: (e: { isConnected: boolean }) => void (e.isConnected = true) } as unknown as HTMLElement;

/** A loader the test resolves by hand, counting its calls. */
function manualLoader() {
  const calls = { n: 0 };
  let resolve = (): void => undefined;
  const load = loadOnce(() => {
    calls.n++;
    return new Promise<void>((r) => (resolve = r));
  });
  return { load, calls, finish: () => resolve() };
}

beforeEach(() => vi.stubGlobal('document', { createElement: fakeElement }));
afterEach(() => vi.unstubAllGlobals());

describe('loadOnce', () => {
  it('shares one call among concurrent callers and retries after a failure', async () => {
    let n = 0;
    const load = loadOnce(() => (++n === 1 ? Promise.reject(new Error('offline')) : Promise.resolve()));
    const [a, b] = [load(), load()];
    expect(a).toBe(b);
    await expect(a).rejects.toThrow('offline');
    await load();
    await load();
    expect(n).toBe(2);
  });
});

describe('lazy screens', () => {
  it('a stand-in queues presses while loading, then the real screen opens with the same parameters', async () => {
    const { load, calls, finish } = manualLoader();
    const seen: Record<string, unknown>[] = [];
    registerLazyScreens(['lazy-a', 'lazy-b'], () =>
      load().then(() => {
        registerScreen('lazy-a', (_ctx, params) => (seen.push(params), { el: fakeElement() as unknown as HTMLElement }));
      }),
    );
    const screens = new ScreenManager(root);
    screens.show('lazy-a', { from: 'pause' });
    const standIn = screens.current!;
    expect(standIn.loading?.()).toBe(true);
    screens.show('lazy-b'); // the same feature: no second load
    screens.show('lazy-a', { from: 'title' });
    expect(calls.n).toBe(1);
    finish();
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    expect(seen[0]).toEqual({ from: 'title' });
    expect(screens.currentName).toBe('lazy-a');
    expect(screens.current!.loading).toBeUndefined();
  });

  it('a player who moved on before the feature loaded stays where they are', async () => {
    const { load, finish } = manualLoader();
    let shown = 0;
    registerLazyScreens(['lazy-c'], () => load().then(() => registerScreen('lazy-c', () => (shown++, { el: fakeElement() as unknown as HTMLElement }))));
    registerScreen('lazy-home', () => ({ el: fakeElement() as unknown as HTMLElement }));
    const screens = new ScreenManager(root);
    screens.show('lazy-c');
    screens.show('lazy-home');
    finish();
    await new Promise((r) => setTimeout(r, 0)); // every promise callback has run
    expect(shown).toBe(0);
    expect(screens.currentName).toBe('lazy-home');
  });
});
