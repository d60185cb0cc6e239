/**
 * The Babylon wrapper of the generated car (src/systems/view/car-view.ts) on a NullEngine: few draw calls (one
 * body, one brake-light mesh, one wheel mesh per tyre size with instances for the rest), the ghost is the same
 * car translucent, and crush deforms the body mesh where the crush is.
 */
import { describe, expect, it } from 'vitest';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine';
import { Scene } from '@babylonjs/core/scene';
import { InstancedMesh } from '@babylonjs/core/Meshes/instancedMesh';
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer';
import { CarView, GHOST_VISIBILITY } from '../../src/systems/view/car-view';
import { carShape } from '../../src/app/cars';

function withScene(fn: (scene: Scene) => void): void {
  const engine = new NullEngine();
  const scene = new Scene(engine);
  try {
    fn(scene);
  } finally {
    scene.dispose();
    engine.dispose();
  }
}

describe('CarView', () => {
  it('draws a car as a body, its brake lights and one wheel mesh with three instances (equal tyres)', () => {
    withScene((scene) => {
      const v = new CarView(scene, carShape('rally-awd'), null);
      const own = v.meshes.filter((m) => !(m instanceof InstancedMesh));
      expect(own.map((m) => m.name)).toEqual(['carBodyMesh', 'carBrakeLights', 'wheel0']);
      expect(v.meshes.filter((m) => m instanceof InstancedMesh)).toHaveLength(3);
      v.dispose();
    });
  });

  it('the ghost is the same livery at GHOST_VISIBILITY', () => {
    withScene((scene) => {
      const shape = carShape('hatch-gti');
      const g = new CarView(scene, shape, null, { ghost: true });
      for (const m of g.meshes) expect(m.visibility).toBe(GHOST_VISIBILITY);
      const body = g.meshes.find((m) => m.name === 'carBodyMesh')!;
      const colours = body.getVerticesData(VertexBuffer.ColorKind)!;
      let primary = 0;
      for (let i = 0; i < colours.length; i += 4) if ([0, 1, 2].every((k) => Math.abs(colours[i + k]! - shape.look.primary[k]!) < 1e-6)) primary++;
      expect(primary).toBeGreaterThan(0);
      g.dispose();
    });
  });

  it('crush at the front-left corner moves body vertices there only', () => {
    withScene((scene) => {
      const v = new CarView(scene, carShape('classic-rwd'), null);
      const body = v.meshes.find((m) => m.name === 'carBodyMesh')!;
      const before = Float32Array.from(body.getVerticesData(VertexBuffer.PositionKind)!);
      v.setCrush([1, 0, 0, 0]);
      const after = body.getVerticesData(VertexBuffer.PositionKind)!;
      let moved = 0;
      for (let i = 0; i < before.length; i += 3) {
        const changed = before[i] !== after[i] || before[i + 1] !== after[i + 1] || before[i + 2] !== after[i + 2];
        if (changed) {
          moved++;
          expect(before[i]!).toBeGreaterThanOrEqual(0); // left (+X)
          expect(before[i + 2]!).toBeGreaterThan(0); // front (+Z)
        }
      }
      expect(moved).toBeGreaterThan(0);
      v.dispose();
    });
  });
});
