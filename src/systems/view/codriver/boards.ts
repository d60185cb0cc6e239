/**
 * Corner arrow boards in the stage view: a red board with white chevrons pointing the way the road goes, on a
 * post, at each spot board-spots.ts picks. One thin-instanced board mesh per direction and one for the posts.
 */
import type { Scene } from '@babylonjs/core/scene';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import { CreatePlane } from '@babylonjs/core/Meshes/Builders/planeBuilder';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import '@babylonjs/core/Meshes/thinInstanceMesh';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { DynamicTexture } from '@babylonjs/core/Materials/Textures/dynamicTexture';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { Matrix, Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import type { Stage } from '../../../../terrain/stage';
import type { PaceNote } from '../../../../terrain/pacenotes/types';
import { boardSpots, type BoardSpot } from './board-spots';

/** Board size and the height of its centre above the ground, m (a typical rally chevron board). */
const BOARD_W = 2.4;
const BOARD_H = 0.8;
const BOARD_Y = 1.3;
const TEX_W = 256;
const TEX_H = 86;

/** Red board, white border, three white chevrons pointing to canvas-right (`flip`: canvas-left). */
function chevronTexture(scene: Scene, flip: boolean): DynamicTexture {
  const tex = new DynamicTexture(`chevron${flip ? 'L' : 'R'}`, { width: TEX_W, height: TEX_H }, scene, true);
  const ctx = tex.getContext() as CanvasRenderingContext2D;
  ctx.fillStyle = '#c8141e';
  ctx.fillRect(0, 0, TEX_W, TEX_H);
  ctx.strokeStyle = '#fff';
  ctx.lineWidth = 6;
  ctx.strokeRect(3, 3, TEX_W - 6, TEX_H - 6);
  ctx.fillStyle = '#fff';
  for (let i = 0; i < 3; i++) {
    const x0 = 40 + i * 64;
    const pts = [[x0, 14], [x0 + 22, 14], [x0 + 50, 43], [x0 + 22, 72], [x0, 72], [x0 + 28, 43]];
    ctx.beginPath();
    for (const [k, [x, y]] of pts.entries()) {
      const px = flip ? TEX_W - x! : x!;
      if (k === 0) ctx.moveTo(px, y!);
      else ctx.lineTo(px, y!);
    }
    ctx.closePath();
    ctx.fill();
  }
  tex.update();
  return tex;
}

function boardMaterial(scene: Scene, flip: boolean): StandardMaterial {
  const m = new StandardMaterial(`chevronMat${flip ? 'L' : 'R'}`, scene);
  m.diffuseTexture = chevronTexture(scene, flip);
  m.emissiveColor = new Color3(0.35, 0.35, 0.35); // readable in the shade of a forest
  m.specularColor = new Color3(0.05, 0.05, 0.05);
  m.backFaceCulling = false;
  return m;
}

function placeAll(mesh: Mesh, spots: readonly BoardSpot[], y: (s: BoardSpot) => number): void {
  const mats = spots.map((s) => Matrix.Compose(Vector3.One(), Quaternion.RotationAxis(Vector3.Up(), s.heading), new Vector3(s.x, y(s), s.z)));
  if (mats.length > 0) {
    mesh.thinInstanceAdd(mats, true); // refresh: uploads the instance buffer
    mesh.thinInstanceRefreshBoundingInfo(false);
  }
  mesh.isPickable = false;
  mesh.isVisible = mats.length > 0;
}

/** The boards for a stage's notes; the caller disposes the returned meshes. */
export function buildCornerBoards(scene: Scene, stage: Stage, notes: readonly PaceNote[]): Mesh[] {
  const spots = boardSpots(notes, stage.road);
  const ground = (s: BoardSpot): number => stage.bspline.height(s.x, s.z);
  const meshes: Mesh[] = [];
  for (const dir of ['right', 'left'] as const) {
    const board = CreatePlane(`chevron_${dir}`, { width: BOARD_W, height: BOARD_H }, scene);
    // the driver sees the plane's texture mirrored (right-handed scene, looking at the plane's back face):
    // chevrons drawn pointing to canvas-left point right on the road (checked in the e2e screenshots)
    board.material = boardMaterial(scene, dir === 'right');
    placeAll(board, spots.filter((s) => s.direction === dir), (s) => ground(s) + BOARD_Y);
    meshes.push(board);
  }
  const post = CreateBox('chevronPost', { width: 0.12, height: BOARD_Y, depth: 0.12 }, scene);
  post.material = new StandardMaterial('chevronPostMat', scene);
  (post.material as StandardMaterial).diffuseColor = new Color3(0.25, 0.25, 0.25);
  placeAll(post, spots, (s) => ground(s) + BOARD_Y / 2);
  meshes.push(post);
  return meshes;
}
