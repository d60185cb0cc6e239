/**
 * Dev-server live reload of car files (issue 9): when `src/content/cars/*.toml` changes on disk, send its
 * text to the page as the custom HMR event "bitrally:car-file" instead of reloading modules, so the
 * running game swaps the car's configuration in place (src/app/garage/live-reload.ts) keeping position
 * and speed. Only active in `vite` (serve); builds are unaffected.
 */
import type { Plugin } from 'vite';

export const CAR_FILE_EVENT = 'bitrally:car-file';
const CAR_FILE = /[\\/]src[\\/]content[\\/]cars[\\/]([^\\/]+\.toml)$/;

export interface CarFilePayload {
  file: string;
  text: string;
}

export function carHmr(): Plugin {
  return {
    name: 'bitrally-car-hmr',
    apply: 'serve',
    async hotUpdate({ file, read, type }) {
      const m = CAR_FILE.exec(file);
      if (!m) return;
      if (this.environment.name !== 'client') return [];
      if (type === 'delete') return [];
      const payload: CarFilePayload = { file: m[1]!, text: await read() };
      this.environment.hot.send({ type: 'custom', event: CAR_FILE_EVENT, data: payload });
      return []; // handled: no module update, no page reload
    },
  };
}
