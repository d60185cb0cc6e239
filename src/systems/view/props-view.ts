/**
 * Havok props (cones, hay bales, barrels, fence posts) drawn from the simulation's Prop component: origin at
 * the base centre, orientation quaternion (w, x, y, z); the mesh is centred, so it sits at origin + R·(0, h/2, 0).
 * Reads only.
 */
import type { Scene } from '@babylonjs/core/scene';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import { CreateCylinder } from '@babylonjs/core/Meshes/Builders/cylinderBuilder';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { Quaternion } from '@babylonjs/core/Maths/math.vector';
import type { ShadowGenerator } from '@babylonjs/core/Lights/Shadows/shadowGenerator';
import type { SimWorld } from '../../ecs/world';
import { PROP_KINDS } from '../../systems/sim/collision/havok-scene';

const COLORS: Record<string, [number, number, number]> = {
  cone: [1.0, 0.42, 0.05],
  'hay-bale': [0.86, 0.72, 0.38],
  barrel: [0.12, 0.32, 0.7],
  'fence-post': [0.45, 0.33, 0.2],
};

export class PropsView {
  private readonly meshes: Mesh[] = [];
  private readonly mats: StandardMaterial[] = [];

  constructor(
    scene: Scene,
    private readonly world: SimWorld,
    private readonly eids: readonly number[],
    shadows: ShadowGenerator | null,
  ) {
    const P = world.c.Prop;
    const matOf = new Map<string, StandardMaterial>();
    for (const eid of eids) {
      const kind = PROP_KINDS[P.kind[eid]!] ?? 'barrel';
      let m = matOf.get(kind);
      if (!m) {
        m = new StandardMaterial(`prop_${kind}`, scene);
        const c = COLORS[kind] ?? [0.5, 0.5, 0.5];
        m.diffuseColor = new Color3(c[0], c[1], c[2]);
        m.specularColor = new Color3(0.05, 0.05, 0.05);
        matOf.set(kind, m);
        this.mats.push(m);
      }
      const r = P.radius[eid]!, h = P.height[eid]!;
      const mesh =
        kind === 'fence-post'
          ? CreateBox(`prop${eid}`, { width: 2 * r, depth: 2 * r, height: h }, scene)
          : CreateCylinder(`prop${eid}`, { diameterTop: kind === 'cone' ? 0.02 : 2 * r, diameterBottom: 2 * r, height: h, tessellation: kind === 'cone' ? 12 : 16 }, scene);
      mesh.material = m;
      mesh.isPickable = false;
      mesh.rotationQuaternion = new Quaternion();
      shadows?.addShadowCaster(mesh);
      this.meshes.push(mesh);
    }
    this.update();
  }

  update(): void {
    const P = this.world.c.Prop;
    this.eids.forEach((eid, i) => {
      const m = this.meshes[i]!;
      const w = P.qw[eid]!, x = P.qx[eid]!, y = P.qy[eid]!, z = P.qz[eid]!;
      const h2 = 0.5 * P.height[eid]!;
      // R·(0, h/2, 0): the second column of the rotation matrix times h/2
      m.position.set(P.px[eid]! + 2 * (x * y - w * z) * h2, P.py[eid]! + (1 - 2 * (x * x + z * z)) * h2, P.pz[eid]! + 2 * (y * z + w * x) * h2);
      m.rotationQuaternion!.set(x, y, z, w);
    });
  }

  dispose(): void {
    for (const m of this.meshes) m.dispose();
    for (const m of this.mats) m.dispose();
  }
}
