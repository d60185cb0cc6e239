/**
 * Car catalogue and factories for the app, on the vehicle simulation (issue 4): BUILTIN_CARS configs,
 * spawnCar (automatic clutch and gearbox by default), readCarTelemetry for the views, and the collision
 * issue's CarCollider (residual crush per end drives the damage indicator and the dents).
 */
import type { SimWorld } from '../ecs/world';
import { spawnCar } from '../ecs/prefab-car';
import { BUILTIN_CARS, loadBuiltinCar } from '../content/cars';
import type { CarConfig } from '../content/car-schema';
import { emptyTelemetry as emptyCarTelemetry, readCarTelemetry, type CarTelemetry } from '../systems/sim/vehicle/telemetry';
import { attachCarColliderFromConfig } from '../systems/sim/collision/car-collider';
import { updateDerived } from '../systems/sim/rigid-body';
import { SURFACE_IDS } from '../../terrain/surface';
import type { CarInfo, CarTelemetryView, DrivableCar, Pose } from './car-link';
import type { CarShape } from '../systems/view/car-view';

const COLORS: [number, number, number][] = [
  [0.08, 0.28, 0.85],
  [0.85, 0.12, 0.1],
  [0.95, 0.75, 0.1],
  [0.1, 0.6, 0.25],
];

const configs = new Map<string, CarConfig>();
function config(id: string): CarConfig {
  let c = configs.get(id);
  if (!c) {
    c = loadBuiltinCar(id);
    configs.set(id, c);
  }
  return c;
}

const RAD_TO_RPM = 30 / Math.PI;

export function CARS(): CarInfo[] {
  return BUILTIN_CARS.map((b, i) => {
    const c = config(b.id);
    const kw = Math.max(...c.engine.curveOmega.map((w, k) => (w * c.engine.curveTorque[k]!) / 1000));
    return {
      id: b.id,
      name: c.name,
      color: COLORS[i % COLORS.length]!,
      stats: [
        ['Drive', c.drivetrain.layout.toUpperCase()],
        ['Power', `${Math.round(kw)} kW`],
        ['Torque', `${Math.round(c.engine.peakTorque)} N·m`],
        ['Mass', `${Math.round(c.body.massKg)} kg`],
        ['Power/mass', `${Math.round((kw * 1000) / c.body.massKg)} W/kg`],
        ['Gears', String(c.gearbox.forwardGears)],
        ['Redline', `${Math.round(c.engine.redline * RAD_TO_RPM)} rpm`],
      ],
    };
  });
}

function shapeOf(c: CarConfig, color: [number, number, number]): CarShape {
  return {
    lengthM: c.body.lengthM,
    widthM: c.body.widthM,
    heightM: c.body.heightM,
    wheels: c.wheels.map((w) => {
      const t = w.front ? c.tires.front : c.tires.rear;
      return { x: w.position[0], y: w.position[1], z: w.position[2], radiusM: t.radius, widthM: t.width };
    }),
    color,
  };
}

export function carFactory(id: string): (world: SimWorld, pose: Pose) => DrivableCar {
  const infos = CARS();
  const info = infos.find((c) => c.id === id) ?? infos[0]!;
  const cfg = config(info.id);
  return (world, pose) => {
    const eid = spawnCar(world, cfg, { x: pose.x, z: pose.z, heading: pose.heading });
    attachCarColliderFromConfig(world, eid, cfg);
    const shape = shapeOf(cfg, info.color);
    const tele: CarTelemetry = emptyCarTelemetry();
    const redline = cfg.engine.redline * RAD_TO_RPM;
    const limiter = cfg.engine.limiter * RAD_TO_RPM;
    const staticTravel = cfg.wheels.map((w) => w.staticTravel);
    const counts = new Array<number>(SURFACE_IDS.length).fill(0);
    return {
      eid,
      info,
      shape,
      place: (w, p) => {
        // respawn at rest on the road: rebuild the body state with spawnCar's own placement logic on a
        // scratch car would duplicate entities, so move this one: position on the ground, zero momenta
        const b = w.c.RigidBody;
        const gy = w.ground;
        const gs = { h: 0, nx: 0, ny: 1, nz: 0, surface: 0 };
        gy.sample(p.x, p.z, gs);
        const cgAboveGround = Math.max(...cfg.wheels.map((wh) => -(wh.position[1] - (wh.front ? cfg.tires.front.radius : cfg.tires.rear.radius)) ));
        b.px[eid] = p.x;
        b.py[eid] = gs.h + cgAboveGround + 0.05;
        b.pz[eid] = p.z;
        b.qw[eid] = Math.cos(p.heading / 2);
        b.qx[eid] = 0;
        b.qy[eid] = Math.sin(p.heading / 2);
        b.qz[eid] = 0;
        b.Px[eid] = b.Py[eid] = b.Pz[eid] = 0;
        b.Lx[eid] = b.Ly[eid] = b.Lz[eid] = 0;
        updateDerived(w, eid);
      },
      readTelemetry: (w: SimWorld, out: CarTelemetryView) => {
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
            // combined slip measure: |κ| and |tan α| (both ~0.1–0.2 at peak grip)
            slip = Math.max(slip, Math.hypot(wt.slipRatio, Math.tan(Math.min(1.4, Math.abs(wt.slipAngleRad)))));
          }
        }
        out.slip = slip;
        out.contact = grounded / 4;
        let best = 0;
        for (let s = 1; s < counts.length; s++) if (counts[s]! > counts[best]!) best = s;
        out.surface = SURFACE_IDS[best] ?? 'gravel';
        const cc = w.c.CarCollider;
        // crush (m) → 0..1 per corner: front/rear end crush shared by the two corners of that end, plus the side
        const f = cc.crushF[eid]!, r = cc.crushR[eid]!, l = cc.crushL[eid]!, rt = cc.crushRt[eid]!;
        const k = (m: number): number => Math.min(1, m / 0.3);
        out.damage[0] = k(Math.max(f, l));
        out.damage[1] = k(Math.max(f, rt));
        out.damage[2] = k(Math.max(r, l));
        out.damage[3] = k(Math.max(r, rt));
      },
    };
  };
}
