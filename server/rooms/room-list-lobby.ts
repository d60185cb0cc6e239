/**
 * The live room list's room (src/net/room-list-feed.ts): Colyseus' built-in LobbyRoom, closed to client input.
 * Every watcher sees the same list, so the client's filter is not taken: LobbyRoom answers each 'filter' message
 * with the whole list (a few bytes in, the list out: an amplifier for a flood) and evaluates a join option's filter
 * object, field by field, for that client on every change.
 */
import { LobbyRoom, type Client } from '@colyseus/core';

export class RoomListLobby extends LobbyRoom {
  override async onCreate(options: unknown): Promise<void> {
    await super.onCreate(options);
    this.onMessage('filter', () => undefined);
  }

  override onJoin(client: Client): void {
    super.onJoin(client, {});
  }
}
