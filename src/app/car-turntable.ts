/**
 * The car select's 3D turntable: a small Babylon engine on its own canvas showing one car (the same CarView as
 * the game, so the same body and livery) turning slowly on a grey disc. `show(shape)` swaps the car; `dispose()`
 * frees the engine and its WebGL context when the screen is left.
 */
import { Engine } from '@babylonjs/core/Engines/engine';
import { Scene } from '@babylonjs/core/scene';
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight';
import { DirectionalLight } from '@babylonjs/core/Lights/directionalLight';
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera';
import { CreateDisc } from '@babylonjs/core/Meshes/Builders/discBuilder';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { CarView, type CarShape } from '../systems/view/car-view';

/** Turntable speed, rad/s (a turn in ~21 s). */
const SPIN_RAD_S = 0.3;
/** Camera distance as a multiple of the car's length. */
const CAMERA_DISTANCE_PER_LENGTH = 1.75;

export class CarTurntable {
  private readonly engine: Engine;
  private readonly scene: Scene;
  private readonly camera: ArcRotateCamera;
  private view: CarView | null = null;
  private angle = 0.6;
  shownId: string | null = null;

  /** `pick()`: the id of the car to show now (the focused card), `shapeOf(id)`: its shape. */
  constructor(
    readonly canvas: HTMLCanvasElement,
    private readonly pick: () => string | null,
    private readonly shapeOf: (id: string) => CarShape,
  ) {
    this.engine = new Engine(canvas, true, { preserveDrawingBuffer: true, stencil: false, antialias: true }, true);
    const scene = new Scene(this.engine);
    scene.useRightHandedSystem = true;
    scene.clearColor = new Color4(0.13, 0.15, 0.18, 1);
    const hemi = new HemisphericLight('tHemi', new Vector3(0, 1, 0), scene);
    hemi.intensity = 0.6;
    hemi.groundColor = new Color3(0.3, 0.3, 0.32);
    const sun = new DirectionalLight('tSun', new Vector3(-0.4, -0.8, -0.3).normalize(), scene);
    sun.intensity = 1;
    const floor = CreateDisc('tFloor', { radius: 3.2, tessellation: 48 }, scene);
    floor.rotation.x = Math.PI / 2;
    const fm = new StandardMaterial('tFloorMat', scene);
    fm.diffuseColor = new Color3(0.32, 0.33, 0.35);
    fm.specularColor = Color3.Black();
    floor.material = fm;
    this.camera = new ArcRotateCamera('tCam', 0, 1.2, 8, Vector3.Zero(), scene);
    this.camera.fov = 0.6;
    this.scene = scene;
    this.engine.runRenderLoop(() => this.frame());
  }

  /** Put `shape` on the turntable (id: which car, so asking again for the shown car does nothing). */
  show(id: string, shape: CarShape): void {
    if (id === this.shownId) return;
    this.shownId = id;
    this.view?.dispose();
    this.view = new CarView(this.scene, shape, null);
    // the body frame's origin is the CG: lift the car so its tyres stand on the disc
    const groundY = Math.min(...shape.wheels.map((w) => w.y - w.radiusM));
    this.view.update(0, -groundY, 0, { w: 1, x: 0, y: 0, z: 0 }, [], false);
    this.camera.radius = shape.lengthM * CAMERA_DISTANCE_PER_LENGTH;
    this.camera.target.set(0, shape.heightM * 0.45, 0);
  }

  private frame(): void {
    const id = this.pick();
    if (id) this.show(id, this.shapeOf(id));
    const dt = Math.min(0.1, this.engine.getDeltaTime() / 1000);
    this.angle += SPIN_RAD_S * dt;
    this.camera.alpha = this.angle;
    this.camera.beta = 1.18;
    this.scene.render();
  }

  dispose(): void {
    this.engine.stopRenderLoop();
    this.view?.dispose();
    this.scene.dispose();
    this.engine.dispose();
  }
}
