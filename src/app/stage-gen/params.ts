/**
 * The in-game generator's parameters live in src/run/stage-gen/params.ts (the server checks daily-rally stages
 * with them and may not import the game); the game's modules keep importing them from here.
 */
export * from '../../run/stage-gen/params';
