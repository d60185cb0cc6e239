/** The game run's fixed simulation setup (recorded in every replay header; pure, no Babylon). */
export const RUN_SETUP = { dt: 1 / 500, integrator: 'midpoint', seed: 1, gravity_m_s2: 9.81 } as const;
