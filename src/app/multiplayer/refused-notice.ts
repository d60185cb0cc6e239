/**
 * What the player reads when the room refuses this client's state packets (the `refused` message: the server
 * speaks another packet layout version, docs/multiplayer.md "Packets"): the drive cannot go on, and a reload
 * fetches the game the server serves. The room's reason is shown as text (escaped), never as markup.
 */
import { escapeHtml as esc } from '../escape-html';

export function refusedNoticeHtml(reason: string): string {
  return `<h2>This game and the server differ</h2>
    <div class="sub error" data-mp-refused>The server speaks another version of the multiplayer packets (${esc(reason)}). Reload the page to get the server's version of the game.</div>
    <button class="item default" data-k="leave">Leave the room</button>`;
}
