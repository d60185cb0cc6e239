/**
 * A replay car as the game's views see it (`DrivableCar`): shape and telemetry from the config the replay
 * adapter spawned the car with (parsed from the embedded car text, so a replay shows the car as recorded,
 * whatever the car files say today). Same telemetry mapping as the game's car link (src/app/cars.ts).
 */
import type { SimWorld } from '../../ecs/world';
import { carConfigOf } from '../../replay/cars';
import type { ReplayCar } from '../../replay/format';
import { emptyTelemetry as emptyCarTelemetry, readCarTelemetry } from '../../systems/sim/vehicle/telemetry';
import { SURFACE_IDS } from '../../../terrain/surface';
import type { CarTelemetryView, DrivableCar } from '../car-link';

const RAD_TO_RPM = 30 / Math.PI;
const COLORS: [number, number, number][] = [
  [0.08, 0.28, 0.85],
  [0.85, 0.12, 0.1],
  [0.95, 0.75, 0.1],
  [0.1, 0.6, 0.25],
];

export function replayDrivable(world: SimWorld, eid: number, car: ReplayCar, index: number): DrivableCar {
  const cfg = carConfigOf(world, eid);
  if (!cfg) throw new Error(`replay viewer: car ${index} (${car.id}) was not spawned by the replay car adapter`);
  const tele = emptyCarTelemetry();
  const redline = cfg.engine.redline * RAD_TO_RPM;
  const limiter = cfg.engine.limiter * RAD_TO_RPM;
  const staticTravel = cfg.wheels.map((w) => w.staticTravel);
  const counts = new Array<number>(SURFACE_IDS.length).fill(0);
  return {
    eid,
    info: { id: car.id, name: cfg.name, stats: [], color: COLORS[index % COLORS.length]! },
    shape: {
      lengthM: cfg.body.lengthM,
      widthM: cfg.body.widthM,
      heightM: cfg.body.heightM,
      wheels: cfg.wheels.map((w) => {
        const t = w.front ? cfg.tires.front : cfg.tires.rear;
        return { x: w.position[0], y: w.position[1], z: w.position[2], radiusM: t.radius, widthM: t.width };
      }),
      color: COLORS[index % COLORS.length]!,
    },
    place: () => {
      throw new Error('replay cars are placed by the replay (recorded edits) only');
    },
    readTelemetry(w: SimWorld, out: CarTelemetryView) {
      readCarTelemetry(w, eid, tele);
      out.speedMS = tele.speedMs;
      out.rpm = tele.rpm;
      out.redlineRpm = redline;
      out.maxRpm = Math.max(limiter, redline) * 1.05;
      out.gear = tele.gear;
      out.throttle = tele.throttle;
      out.brake = tele.brake;
      let slip = 0;
      let grounded = 0;
      counts.fill(0);
      for (let i = 0; i < 4; i++) {
        const wt = tele.wheels[i]!;
        const o = out.wheels[i]!;
        o.steer = wt.steerRad;
        o.spin = wt.spinAngleRad;
        o.travel = wt.travelM - staticTravel[i]!;
        if (wt.grounded) {
          grounded++;
          counts[wt.surface] = (counts[wt.surface] ?? 0) + 1;
          slip = Math.max(slip, Math.hypot(wt.slipRatio, Math.tan(Math.min(1.4, Math.abs(wt.slipAngleRad)))));
        }
      }
      out.slip = slip;
      out.contact = grounded / 4;
      let best = 0;
      for (let s = 1; s < counts.length; s++) if (counts[s]! > counts[best]!) best = s;
      out.surface = SURFACE_IDS[best] ?? 'gravel';
      const cc = w.c.CarCollider;
      const k = (m: number): number => Math.min(1, m / 0.3);
      const f = cc.crushF[eid] ?? 0, r = cc.crushR[eid] ?? 0, l = cc.crushL[eid] ?? 0, rt = cc.crushRt[eid] ?? 0;
      out.damage[0] = k(Math.max(f, l));
      out.damage[1] = k(Math.max(f, rt));
      out.damage[2] = k(Math.max(r, l));
      out.damage[3] = k(Math.max(r, rt));
    },
  };
}
