/**
 * Promoted traffic vehicles (car entities of a town run's world, town-lod.ts) drawn like the player's car: a
 * car view per entity, made on promotion and dropped on demotion. Shared by the town drive and the town
 * replay viewer; the views are built from the car files the run simulates (`cars[type]`).
 */
import type { CarConfig } from '../../content/car-schema';
import type { TownRun } from '../../run/town';
import type { SceneKit } from '../../systems/view/scene';
import { CarView } from '../../systems/view/car-view';
import { emptyTelemetry, type DrivableCar } from '../car-link';
import { drivable } from '../cars';

/** A traffic vehicle type the full model can take: its car id and the config the run spawns it with. */
export interface TrafficCarFile {
  id: string;
  cfg: CarConfig;
}

interface PromotedView {
  car: DrivableCar;
  view: CarView;
}

export class PromotedCarViews {
  private readonly views = new Map<number, PromotedView>();
  private readonly tele = emptyTelemetry();
  private readonly live = new Set<number>();

  constructor(
    private readonly kit: SceneKit,
    private readonly cars: readonly TrafficCarFile[],
  ) {}

  /** Vehicles drawn with a car view now. */
  get size(): number {
    return this.views.size;
  }

  /** Views for the vehicles promoted now, placed at their bodies' poses; views of demoted ones dropped. */
  update(run: TownRun): void {
    const st = run.traffic.state, w = run.world, b = w.c.RigidBody;
    this.live.clear();
    for (let k = 0; k < st.capacity; k++) {
      const eid = st.eid[k]!;
      const file = this.cars[st.type[k]!];
      if (!st.alive[k] || eid < 0 || !file) continue;
      this.live.add(eid);
      let p = this.views.get(eid);
      if (!p) {
        const car = drivable(w, eid, { id: file.id, name: file.cfg.name, stats: [], color: file.cfg.look.primary }, file.cfg);
        p = { car, view: new CarView(this.kit.scene, car.shape, this.kit.shadows) };
        this.views.set(eid, p);
      }
      p.car.readTelemetry(w, this.tele);
      p.view.update(b.px[eid]!, b.py[eid]!, b.pz[eid]!, { w: b.qw[eid]!, x: b.qx[eid]!, y: b.qy[eid]!, z: b.qz[eid]! }, this.tele.wheels, this.tele.brake > 0.05);
    }
    for (const [eid, p] of this.views) {
      if (this.live.has(eid)) continue;
      p.view.dispose();
      this.views.delete(eid);
    }
  }

  /** Drops every view (the session ends, or the replay's run is rebuilt). */
  clear(): void {
    for (const p of this.views.values()) p.view.dispose();
    this.views.clear();
  }
}
