/**
 * Babylon scene setup for the game: right-handed (+Y up, matching the simulation), sky dome with a
 * vertical gradient, hemispheric fill + directional sun with a shadow generator for the car, linear fog.
 */
import { Engine } from '@babylonjs/core/Engines/engine';
import { Scene } from '@babylonjs/core/scene';
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight';
import { DirectionalLight } from '@babylonjs/core/Lights/directionalLight';
import { ShadowGenerator } from '@babylonjs/core/Lights/Shadows/shadowGenerator';
import '@babylonjs/core/Lights/Shadows/shadowGeneratorSceneComponent';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder';
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera';

export interface SceneKit {
  engine: Engine;
  scene: Scene;
  sun: DirectionalLight;
  shadows: ShadowGenerator | null;
  sky: Mesh;
  /** Camera used while no stage is loaded (menus). */
  menuCamera: FreeCamera;
}

export const SKY_TOP = new Color3(0.32, 0.52, 0.82);
export const SKY_HORIZON = new Color3(0.78, 0.84, 0.9);
/** Sky dome radius as built, m (a graphics preset scales it inside its far plane). */
export const SKY_RADIUS_M = 1500;

export function createSceneKit(canvas: HTMLCanvasElement, opts: { shadows: boolean }): SceneKit {
  const engine = new Engine(canvas, true, { preserveDrawingBuffer: true, stencil: false, antialias: true }, true);
  const scene = new Scene(engine);
  scene.useRightHandedSystem = true;
  scene.clearColor = new Color4(SKY_HORIZON.r, SKY_HORIZON.g, SKY_HORIZON.b, 1);
  scene.ambientColor = new Color3(0.25, 0.25, 0.28);
  scene.fogMode = Scene.FOGMODE_LINEAR;
  scene.fogColor = SKY_HORIZON.clone();
  scene.fogStart = 250;
  scene.fogEnd = 900;
  scene.skipPointerMovePicking = true;
  scene.autoClear = true;

  const hemi = new HemisphericLight('hemi', new Vector3(0, 1, 0), scene);
  hemi.intensity = 0.55;
  hemi.diffuse = new Color3(0.85, 0.9, 1.0);
  hemi.groundColor = new Color3(0.35, 0.32, 0.26);
  hemi.specular = Color3.Black();

  const sun = new DirectionalLight('sun', new Vector3(-0.45, -0.8, -0.35).normalize(), scene);
  sun.intensity = 1.05;
  sun.diffuse = new Color3(1.0, 0.95, 0.85);
  sun.specular = new Color3(0.4, 0.4, 0.35);
  sun.position = new Vector3(40, 80, 30);
  sun.shadowMinZ = 1;
  sun.shadowMaxZ = 200;

  let shadows: ShadowGenerator | null = null;
  if (opts.shadows) {
    shadows = new ShadowGenerator(1024, sun);
    shadows.usePercentageCloserFiltering = true;
    shadows.bias = 0.002;
    shadows.darkness = 0.35;
  }

  // sky dome: inside-out sphere, vertex colours from horizon to zenith, unlit, unaffected by fog
  const sky = CreateSphere('sky', { diameter: 2 * SKY_RADIUS_M, segments: 16, sideOrientation: 1 }, scene);
  const pos = sky.getVerticesData(VertexBuffer.PositionKind)!;
  const cols = new Float32Array((pos.length / 3) * 4);
  for (let i = 0; i < pos.length / 3; i++) {
    const t = Math.max(0, Math.min(1, pos[3 * i + 1]! / SKY_RADIUS_M));
    const k = Math.pow(t, 0.5);
    cols[4 * i] = SKY_HORIZON.r + (SKY_TOP.r - SKY_HORIZON.r) * k;
    cols[4 * i + 1] = SKY_HORIZON.g + (SKY_TOP.g - SKY_HORIZON.g) * k;
    cols[4 * i + 2] = SKY_HORIZON.b + (SKY_TOP.b - SKY_HORIZON.b) * k;
    cols[4 * i + 3] = 1;
  }
  sky.setVerticesData(VertexBuffer.ColorKind, cols);
  const skyMat = new StandardMaterial('skyMat', scene);
  skyMat.disableLighting = true;
  skyMat.emissiveColor = Color3.White();
  skyMat.diffuseColor = Color3.Black();
  skyMat.fogEnabled = false;
  skyMat.backFaceCulling = false;
  sky.material = skyMat;
  sky.infiniteDistance = true;
  sky.isPickable = false;
  sky.applyFog = false;

  const menuCamera = new FreeCamera('menuCam', new Vector3(0, 2, 0), scene);
  menuCamera.setTarget(new Vector3(0, 2.2, 10));
  menuCamera.inputs.clear();
  scene.activeCamera = menuCamera;
  return { engine, scene, sun, shadows, sky, menuCamera };
}
