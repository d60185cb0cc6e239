/**
 * Full-throttle launch on loose gravel (FWD hatch, automatic clutch and gearbox, no traction control): the
 * 0–100 km/h time must land in a window derived from the car's numbers and the surface friction, not from a
 * recorded run.
 *
 * Derivation. A 200 hp class FWD hatch on gravel is traction-limited: the front tyres spin and push with
 * F = μ·N_f, where the front load falls with the longitudinal load transfer,
 *   N_f = m·g·b/L − m·a·h/L        (b = CG to rear axle, h = CG height, L = wheelbase)
 * The spinning front wheels and the engine are decoupled from the car's speed (their inertia does not load
 * it); the rolling rear wheels add I_w/r² each. With rolling resistance C_rr·m·g (tyre + surface) and drag
 * ½ρC_dA·v²:
 *   (m + 2I_r/r²)·a = μ·(m·g·b/L − m·a·h/L) − C_rr·m·g − ½ρC_dA·v²
 *   ⇒ a = (μ·g·b/L − C_rr·g − D/m) / (1 + 2I_r/(m r²) + μ·h/L)
 * μ lies between the surface's sliding value (large slip speed) and its static peak, times the tyre's grip
 * and load factor (tires.ts `loadFactor`) at the front wheel loads reached (static … transferred).
 *   fastest:  μ = μ_static·max load factor, no drag            → t_min = v/a_hi
 *   slowest:  μ = μ_sliding·min load factor, drag at 100 km/h  → v/a_lo, plus each gear change (the box is
 *             in neutral for shift_time_s, then the automatic clutch re-grabs: ≤ 0.25 s) and the launch
 *             itself (clutch closing from rest: ≤ 0.25 s).
 * The traction limit holds the whole way if the engine's net power (curve − friction, × gearbox efficiency)
 * could drive harder than a_lo at 100 km/h: P·η/(m v) > a_lo (checked first: otherwise the window would be
 * the wrong physics). The hatch (1420 kg, ~165 kW net) on gravel (μ 0.62–0.72): a = 2.84–3.47 m/s², one upshift
 * (2nd reaches 102 km/h at the redline) ⇒ window 8.0–10.8 s (measured 9.5 s: the spinning front tyres sit at
 * the sliding end, μ ≈ 0.64); real 200 hp FWD hatches do 0–100 km/h on gravel in roughly 7–9 s, which a flatter
 * gravel μ(v_s) curve (sliding 0.70) gives (9.0 s) — see docs/vehicle.md "Launch on gravel".
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/content/scenario-schema';
import { buildScenario, resolveTraceField, runScenario } from '../../src/run/scenario';
import { loadBuiltinCar } from '../../src/content/cars/index';
import { DEFAULT_SURFACES } from '../../src/content/surfaces';
import { loadFactor } from '../../src/systems/sim/vehicle/tires';
import { curveTorque } from '../../src/systems/sim/vehicle/engine-curve';
import { AIR_DENSITY } from '../../src/systems/sim/vehicle/registry';

const scenario = `
name = "hatch launch on gravel"
dt = 0.002
integrator = "midpoint"
duration_s = 14.0
[terrain]
kind = "flat"
surface = "gravel"
[[cars]]
id = "car"
car = "hatch-gti"
inputs = [{ t_s = 0.0, throttle = 1.0 }]
`;

describe('launch on gravel', () => {
  it('hatch-gti 0–100 km/h at full throttle lies in the traction-limited window from μ and weight', () => {
    const cfg = loadBuiltinCar('hatch-gti');
    const gravel = DEFAULT_SURFACES.find((s) => s.id === 'gravel')!;
    const g = 9.81;
    const m = cfg.body.massKg;
    const L = cfg.body.wheelbaseM;
    const bL = (L - cfg.body.cgToFrontM) / L;
    const hL = cfg.body.cgHeightM / L;
    const tf = cfg.tires.front,
      tr = cfg.tires.rear;
    const v = 100 / 3.6;
    const crr = tf.rollingResistance + gravel.rollingResistance;
    const rearInertia = (2 * tr.inertia) / (m * tr.radius * tr.radius);
    const drag = 0.5 * AIR_DENSITY * cfg.body.dragCoefficient * cfg.body.frontalAreaM2 * v * v;
    const accel = (mu: number, d: number): number => (mu * g * bL - crr * g - d / m) / (1 + rearInertia + mu * hL);
    // Front wheel load: static, and with the transfer at the fastest possible acceleration.
    const nStatic = (m * g * bL) / 2;
    const aMax = accel(gravel.muStatic * tf.grip * 1.3, 0);
    const nLoaded = (m * g * bL - m * aMax * hL) / 2;
    const lfA = loadFactor(nStatic, tf.nominalLoad, tf.loadSensitivity),
      lfB = loadFactor(nLoaded, tf.nominalLoad, tf.loadSensitivity);
    const aHi = accel(gravel.muStatic * tf.grip * Math.max(lfA, lfB), 0);
    const aLo = accel(gravel.muSliding * tf.grip * Math.min(lfA, lfB), drag);
    // Traction-limited check: net engine power through the (automatic) gearbox beats a_lo at 100 km/h.
    let pNet = 0;
    for (const w of cfg.engine.curveOmega) pNet = Math.max(pNet, curveTorque(cfg, w) * w); // published curve is net (§5.2 note in drivetrain.ts)
    const eta = cfg.gearbox.efficiency * (1 - cfg.gearbox.autoEfficiencyLoss);
    expect((pNet * eta - drag * v) / (m * v)).toBeGreaterThan(aLo);
    // Upshifts needed to reach 100 km/h: gears whose redline road speed is below it.
    let upshifts = 0;
    for (let gr = 1; gr < cfg.gearbox.forwardGears; gr++) {
      const vMax = (cfg.engine.redline / (cfg.gearbox.ratios[gr]! * cfg.gearbox.finalDrive)) * tf.radius;
      if (vMax < v) upshifts++;
    }
    const tMin = v / aHi;
    const tMax = v / aLo + upshifts * (cfg.gearbox.shiftTime + 0.25) + 0.25;

    const run = buildScenario(parseScenario(scenario, 'launch.toml'));
    const speed = resolveTraceField(run, 'car.speed_kmh');
    let t100 = Number.NaN;
    runScenario(run, {
      onTick: (r) => {
        if (Number.isNaN(t100) && speed(r.world) >= 100) t100 = r.world.time;
      },
    });
    expect(t100).toBeGreaterThanOrEqual(tMin);
    expect(t100).toBeLessThanOrEqual(tMax);
    // Sanity of the derivation itself: the window lies around the real-world 7–9 s band.
    expect(tMin).toBeGreaterThan(6);
    expect(tMax).toBeLessThan(11);
  }, 60_000);
});
