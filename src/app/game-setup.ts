/** The game run's fixed simulation setup (recorded in every replay header; pure, no Babylon). */
import { DEFAULT_DT, STANDARD_GRAVITY_M_S2 } from '../content/world-constants';

export const RUN_SETUP = { dt: DEFAULT_DT, integrator: 'midpoint', seed: 1, gravity_m_s2: STANDARD_GRAVITY_M_S2 } as const;

let propsEnabled = false;
/**
 * Havok props on/off for the game's runs from now on. The game turns them on unless the URL says `props=0`
 * (main.ts): resting props skip the Havok step (props.ts), so they cost next to nothing until a car reaches
 * them (bench `collision-game`). The run's setup (and its replay header) records the choice.
 */
export function setStagePropsEnabled(on: boolean): void {
  propsEnabled = on;
}
export const stagePropsEnabled = (): boolean => propsEnabled;
