/** The multiplayer screens' shared state (install.ts, lobby-screen.ts): the room, its lobby, its stage, the drive. */
import type { Lobby, RoomClient, RoomKind } from '../../net/room-client';
import type { Stage } from '../../../terrain/stage';
import type { MultiplayerSession } from './session';
import type { ServerClock } from './server-clock';
import type { RoomResults } from '../../net/results';

/** The mode's state across its screens. */
export interface MultiplayerState {
  /** The kind of room Create makes, and its stage (a rallycross circuit for a race). */
  kind: RoomKind;
  stageId: string | null;
  /** The laps a created race room races (its creator's choice; every seat gets it with its seat). */
  laps: number;
  carId: string;
  client: RoomClient | null;
  lobby: Lobby | null;
  /** The room's clock, sampled by every lobby message when it arrives. */
  clock: ServerClock;
  /** Local time (performance.now) the room's 'go' arrived, null before. */
  goAtMs: number | null;
  /** The room's stage, loading from the lobby on. */
  stage: Promise<Stage> | null;
  session: MultiplayerSession | null;
  /** The room's latest results (from 'go' on), null before. */
  results: RoomResults | null;
  /** Why the room refused this client's packets (another packet layout: RoomClient.onRefused), null if it did not. */
  refused: string | null;
}

/** Leaves the room (if any) and forgets it. */
export async function leaveRoom(mp: MultiplayerState): Promise<void> {
  mp.session?.dispose();
  mp.session = null;
  const c = mp.client;
  mp.client = null;
  mp.lobby = null;
  mp.goAtMs = null;
  mp.stage = null;
  mp.results = null;
  mp.refused = null;
  await c?.leave().catch(() => undefined);
}

