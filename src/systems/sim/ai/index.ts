/** AI drivers (issue 8): driver model (Félez et al. §6), paths and speed profiles, the InputSource. */
export * from './driver-model';
export * from './path';
export * from './driver';
