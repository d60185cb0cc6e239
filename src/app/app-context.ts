/** What every screen of the game is handed: the scene, devices, audio, saved data and the running session. */
import type { SceneKit } from '../systems/view/scene';
import type { GameAudio } from '../systems/view/audio';
import type { InputDevices } from './input/devices';
import type { Settings } from './settings';
import type { BestTimes } from './storage';
import type { ScreenManager } from './screens';
import type { GameSession } from './game';

export interface AppContext {
  kit: SceneKit;
  devices: InputDevices;
  audio: GameAudio;
  bests: BestTimes;
  settings: Settings;
  screens: ScreenManager;
  session: GameSession | null;
  /** Most simulated seconds per frame (URL flag simcap, default 0.1). */
  simCapS: number;
  saveSettings(s: Settings): void;
  /** Loads and installs the features kept out of the startup chunk (garage, telemetry, replays, rallycross). */
  featuresReady(): Promise<void>;
  startSession(s: GameSession | null): void;
}
