/**
 * Babylon scene setup for the game: right-handed (+Y up, matching the simulation), a generated sky dome
 * (gradient, sun, clouds: sky-texture.ts), hemispheric fill + directional sun with a shadow generator for the car, linear fog.
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
import { RawTexture } from '@babylonjs/core/Materials/Textures/rawTexture';
import { Texture } from '@babylonjs/core/Materials/Textures/texture';
import { paintSky, skyUv } from './sky-texture';

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

/** Direction the sunlight travels (the sun sits at minus this in the sky; sky-texture.ts paints it there). */
export const SUN_LIGHT_DIR: readonly [number, number, number] = [-0.45, -0.8, -0.35];
/** Sky texture edge, px (the dome spans 180° across it: ~2.8 px per degree). */
const SKY_TEXTURE_PX = 512;

/**
 * Sky dome: inside-out sphere, unlit and unaffected by fog, textured with the generated sky (gradient, sun,
 * clouds; sky-texture.ts) through texture coordinates computed from each vertex's direction.
 */
function createSkyDome(scene: Scene): Mesh {
  const sky = CreateSphere('sky', { diameter: 2 * SKY_RADIUS_M, segments: 24, sideOrientation: 1 }, scene);
  const pos = sky.getVerticesData(VertexBuffer.PositionKind)!;
  const uvs = new Float32Array((pos.length / 3) * 2);
  for (let i = 0; i < pos.length / 3; i++) uvs.set(skyUv(pos[3 * i]!, pos[3 * i + 1]!, pos[3 * i + 2]!), 2 * i);
  sky.setVerticesData(VertexBuffer.UVKind, uvs);
  const sunDir = [-SUN_LIGHT_DIR[0], -SUN_LIGHT_DIR[1], -SUN_LIGHT_DIR[2]] as const;
  const px = paintSky(SKY_TEXTURE_PX, sunDir, { top: [SKY_TOP.r, SKY_TOP.g, SKY_TOP.b], horizon: [SKY_HORIZON.r, SKY_HORIZON.g, SKY_HORIZON.b] });
  const tex = RawTexture.CreateRGBATexture(px, SKY_TEXTURE_PX, SKY_TEXTURE_PX, scene, true, false, Texture.TRILINEAR_SAMPLINGMODE);
  tex.wrapU = tex.wrapV = Texture.CLAMP_ADDRESSMODE;
  const skyMat = new StandardMaterial('skyMat', scene);
  skyMat.disableLighting = true;
  skyMat.emissiveTexture = tex;
  skyMat.emissiveColor = Color3.Black(); // the shader adds the emissive texture to this colour
  skyMat.diffuseColor = Color3.Black();
  skyMat.specularColor = Color3.Black();
  skyMat.fogEnabled = false;
  skyMat.backFaceCulling = false;
  sky.material = skyMat;
  sky.infiniteDistance = true;
  sky.isPickable = false;
  sky.applyFog = false;
  return sky;
}

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

  const sun = new DirectionalLight('sun', new Vector3(...SUN_LIGHT_DIR).normalize(), scene);
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

  const sky = createSkyDome(scene);

  const menuCamera = new FreeCamera('menuCam', new Vector3(0, 2, 0), scene);
  menuCamera.setTarget(new Vector3(0, 2.2, 10));
  menuCamera.inputs.clear();
  scene.activeCamera = menuCamera;
  return { engine, scene, sun, shadows, sky, menuCamera };
}
