/** AI drivers (issue 8): driver model (seed 004 §6), paths and speed profiles, the InputSource. */
export * from './driver-model';
export * from './path';
export * from './driver';
