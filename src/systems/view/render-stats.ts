/**
 * Babylon's own counters for the perf overlay and the test hook: draw calls of the last frame
 * (SceneInstrumentation.drawCallsCounter) and the triangles of the meshes drawn (active indices / 3).
 */
import type { Scene } from '@babylonjs/core/scene';
import { SceneInstrumentation } from '@babylonjs/core/Instrumentation/sceneInstrumentation';

export class RenderStats {
  private readonly inst: SceneInstrumentation;

  constructor(private readonly scene: Scene) {
    this.inst = new SceneInstrumentation(scene);
  }

  /** Draw calls of the last rendered frame (the counter restarts before each render). */
  drawCalls(): number {
    return this.inst.drawCallsCounter.current;
  }

  /** Triangles of the active meshes of the last rendered frame. */
  activeTriangles(): number {
    return this.scene.getActiveIndices() / 3;
  }

  dispose(): void {
    this.inst.dispose();
  }
}
