/** Replays and ghosts: public API (pure TS, Node and browser). See docs/replays.md. */
export * from './format';
export * from './inputs';
export * from './recorder';
export * from './player';
export * from './stage-check';
export * from './verify';
export * from './script';
export * from './version';
export { contentHash, crc32 } from './bytes';
export * from './record-run';
export * from './limits';
export * from './budget';
export { checkKeyframes } from './keyframe-check';
