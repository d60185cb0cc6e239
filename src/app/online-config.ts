/** Which BitRally server the game uses: `?server=` (tests) over the setting; '' = none (offline). */
import type { AppContext } from './app-context';

/** The server URL flag of this page (`?server=http://…`), which overrides the setting. */
function serverFlag(): string | null {
  return typeof location === 'undefined' ? null : new URLSearchParams(location.search).get('server');
}

/** The configured server's URL as typed ('' = none). */
export function configuredServer(app: Pick<AppContext, 'settings'>): string {
  return (serverFlag() ?? app.settings.serverUrl).trim();
}
