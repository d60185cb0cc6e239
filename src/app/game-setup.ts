/** The game run's fixed simulation setup (recorded in every replay header; pure, no Babylon). */
import { DEFAULT_DT, STANDARD_GRAVITY_M_S2 } from '../content/world-constants';

export const RUN_SETUP = { dt: DEFAULT_DT, integrator: 'midpoint', seed: 1, gravity_m_s2: STANDARD_GRAVITY_M_S2 } as const;
