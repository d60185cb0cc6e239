/**
 * The engine's torque curve and friction (Deák §5.2: T = throttle·T_curve(ω_e) − (f₀ + f₁·ω_e)) and the gearbox's
 * total ratio, pure functions of the config: used by the drivetrain pass (drivetrain.ts) and by the registry's
 * per-car caches (registry.ts), which the drivetrain imports, so they live in neither.
 */
import type { CarConfig } from '../../../content/car-schema';

/** Full-throttle torque at engine speed ω (rad/s), piecewise linear, 0 outside the table's rpm range above. */
export function curveTorque(cfg: CarConfig, omega: number): number {
  const xs = cfg.engine.curveOmega,
    ys = cfg.engine.curveTorque;
  const n = xs.length;
  if (omega <= xs[0]!) return ys[0]!;
  if (omega >= xs[n - 1]!) return ys[n - 1]!;
  let i = 1;
  while (xs[i]! < omega) i++;
  const t = (omega - xs[i - 1]!) / (xs[i]! - xs[i - 1]!);
  return ys[i - 1]! + t * (ys[i]! - ys[i - 1]!);
}

/** Engine friction torque f₀ + f₁·ω_e (N·m; no friction term from negative ω). */
export function engineFriction(cfg: CarConfig, omega: number): number {
  return cfg.engine.friction + cfg.engine.frictionPerOmega * (omega > 0 ? omega : 0);
}

/** Total ratio engine → wheels for a gear (0 for neutral). */
export function totalRatio(cfg: CarConfig, gear: number): number {
  if (gear === 0) return 0;
  return cfg.gearbox.ratios[gear < 0 ? 0 : gear]! * cfg.gearbox.finalDrive;
}
