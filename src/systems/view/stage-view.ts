/**
 * Stage dressing: the road ribbon (draped on the B-spline surface, a few cm above it, coloured by the
 * surface under each centreline point with darker wheel tracks) and, on a rallycross circuit, the joker road's ribbon, scenery as thin instances (trees, rocks, fences, markers,
 * edge posts, bushes; trees in three generated species with mesh levels and far impostors, tree-geometry.ts,
 * snow-covered where the surface map says snow; boulders and posts from scenery-geometry.ts; corner protection
 * as round hay bales), the start and finish gantries and
 * checkpoint banners.
 */
import type { Scene } from '@babylonjs/core/scene';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';
import '@babylonjs/core/Meshes/thinInstanceMesh';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { Matrix, Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { CreateCylinder } from '@babylonjs/core/Meshes/Builders/cylinderBuilder';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { CreateIcoSphere } from '@babylonjs/core/Meshes/Builders/icoSphereBuilder';
import type { ShadowGenerator } from '@babylonjs/core/Lights/Shadows/shadowGenerator';
import { GANTRY_MARGIN_M, type SceneryItem, type Stage, type StagePose } from '../../../terrain/stage';
import { GROUND_COLORS } from './terrain-view';
import { SURFACE_IDS } from '../../../terrain/surface';
import { SceneryCells, type SceneryGroup } from './scenery-cells';
import type { GraphicsPreset } from './graphics-presets';
import { buildTreeGeometry, speciesAt, TREE_LEVELS, TREE_SPECIES, type TreeGeometry, type TreeSpecies } from './tree-geometry';
import { buildPostGeometry, buildRockGeometry, rockVariantAt, ROCK_VARIANTS } from './scenery-geometry';

/** Share of the stage's trees that are birches (the rest spruce and pine). */
const BIRCH_SHARE = 0.22;
/** Scale of the unit tree's width per metre of height: a 16 m spruce's lowest tier is 0.84 · 0.45 · 16 ≈ 6 m wide. */
const TREE_WIDTH_PER_HEIGHT = 0.45;
/** Sides of a round hay bale. */
const BALE_SIDES = 10;

/**
 * Whether a tree at (x, z) carries snow: only where the stage's surface map says snow (issue 18), so a
 * tarmac or gravel stage never shows a white tree and a snow stage's trees are white wherever the ground is.
 */
export function isSnowCovered(stage: Stage, x: number, z: number): boolean {
  return stage.surfaceMap.surfaceIdAt(x, z) === 'snow';
}

/** The scenery group (and mesh name prefix) of a species, bare or snow-covered: `tree-spruce`, `tree-spruceSnow`. */
export function treeGroupKey(species: TreeSpecies, snowy: boolean): string {
  return `tree-${species}${snowy ? 'Snow' : ''}`;
}

/**
 * The scenery group (stage-view's thin-instance group key) an item is drawn in: a tree by species and snow
 * cover, a rock by its boulder shape, anything else by its kind.
 */
export function sceneryGroupKey(stage: Stage, it: SceneryItem): string {
  if (it.kind === 'tree') return treeGroupKey(speciesAt(it.x, it.z, BIRCH_SHARE), isSnowCovered(stage, it.x, it.z));
  if (it.kind === 'rock') return `rock${rockVariantAt(it.x, it.z)}`;
  return it.kind;
}

/**
 * An item's instance scale (x, y, z) for its unit prototype: trees' crowns follow their height (the unit tree
 * is ~0.4 m wide at 1 m tall; the item radius is the trunk's collider), rocks and posts are as wide as their
 * collider, fences and checkpoint markers keep their prototype's width.
 */
function instanceScale(it: SceneryItem): [number, number, number] {
  const r = it.kind === 'fence' || it.kind === 'marker' ? 1 : it.kind === 'tree' ? it.height * TREE_WIDTH_PER_HEIGHT : it.kind === 'post' ? 2 * it.radius : it.radius;
  return [r, it.height, r];
}

/**
 * Trees and bushes this close to the road edge are drawn at every graphics preset (never thinned): each is a
 * static collider, and a car that leaves the road must see what it can hit, m.
 */
export const ALWAYS_DRAWN_EDGE_M = 25;

/** Whether an item stands within ALWAYS_DRAWN_EDGE_M of the road edge (or of the joker road's). */
export function isWithinReach(stage: Stage, it: { x: number; z: number }): boolean {
  for (const road of stage.joker ? [stage.road, stage.joker.road] : [stage.road]) {
    const p = road.project(it.x, it.z);
    if (Math.abs(p.lateralM) - road.poseAt(p.distanceM).width / 2 <= ALWAYS_DRAWN_EDGE_M) return true;
  }
  return false;
}

/** The ambient colour of snowy tree crowns (× the scene's ambient): a blue-grey fill on their shaded side. */
export const SNOW_SHADE_AMBIENT: [number, number, number] = [1.3, 1.45, 1.75];
/** Emissive share of the edge posts' vertex colours (their orange reflectors catch the eye). */
const POST_GLOW = 0.25;

/** A gantry beam closer than this to the camera (horizontally) is drawn faded, m. */
export const GANTRY_FADE_M = 20;
/** A faded beam's visibility (0 = invisible, 1 = opaque). */
export const GANTRY_FADED_VISIBILITY = 0.2;

function mat(scene: Scene, name: string, c: [number, number, number], opts: { emissive?: number } = {}): StandardMaterial {
  const m = new StandardMaterial(name, scene);
  m.diffuseColor = new Color3(c[0], c[1], c[2]);
  m.specularColor = new Color3(0.05, 0.05, 0.05);
  if (opts.emissive) m.emissiveColor = new Color3(c[0] * opts.emissive, c[1] * opts.emissive, c[2] * opts.emissive);
  return m;
}

export class StageView {
  readonly meshes: Mesh[] = [];
  /** Triangles of everything the view holds (all scenery at full density). */
  triangles = 0;
  private readonly protos: Mesh[] = [];
  /** The start and finish gantries' beams (faded while the camera is under or near one). */
  readonly beams: Mesh[] = [];
  private scenery!: SceneryCells;

  constructor(
    private readonly scene: Scene,
    private readonly stage: Stage,
    shadows: ShadowGenerator | null,
  ) {
    this.buildRoad();
    this.buildScenery(shadows);
    this.buildGantry(stage.start, 'START', [0.85, 0.1, 0.1]);
    this.buildGantry(stage.finish, 'FINISH', [0.1, 0.1, 0.1]);
    for (const cp of stage.checkpoints) this.buildBanner(cp);
    // a levelled group counts its most detailed level only (one level per cell is drawn)
    for (const m of this.meshes) if (!/L[12]_/.test(m.name)) this.triangles += (m.getTotalIndices() / 3) * Math.max(1, m.thinInstanceCount);
  }

  private buildRoad(): void {
    // coloured by the surface the simulation reads under each centreline point (a mixed-surface circuit's
    // tarmac and gravel sections; vertex colours blend across a section change)
    const sm = this.stage.surfaceMap;
    const fallback = GROUND_COLORS[this.stage.surface];
    this.buildRibbon('road', this.stage.road, (x, z) => GROUND_COLORS[SURFACE_IDS[sm.surfaceAt(x, z)] ?? this.stage.surface] ?? fallback, 0.04, -2);
    // the rallycross joker road (stage.toml [joker]): a ribbon of its surface, drawn a centimetre under the main
    // road so the main road wins where the two overlap at the branch's ends
    const J = this.stage.joker;
    if (J) this.buildRibbon('jokerRoad', J.road, () => GROUND_COLORS[J.surface], 0.03, -1);
  }

  /** A road ribbon draped on the surface along a centreline (points xyz, widths), `lift` m above it. */
  private buildRibbon(
    name: string,
    road: { points: Float64Array; widths: Float32Array },
    baseAt: (x: number, z: number) => [number, number, number],
    lift: number,
    zOffset: number,
  ): void {
    const n = road.points.length / 3;
    const ACROSS = 7; // vertices across: edge, shoulder, track, centre, track, shoulder, edge
    const u = [-1, -0.9, -0.45, 0, 0.45, 0.9, 1];
    const positions = new Float32Array(n * ACROSS * 3);
    const colors = new Float32Array(n * ACROSS * 4);
    const bs = this.stage.bspline;
    for (let k = 0; k < n; k++) {
      const x = road.points[3 * k]!;
      const z = road.points[3 * k + 2]!;
      const kp = Math.min(n - 1, k + 1);
      const km = Math.max(0, k - 1);
      let dx = road.points[3 * kp]! - road.points[3 * km]!;
      let dz = road.points[3 * kp + 2]! - road.points[3 * km + 2]!;
      const l = Math.hypot(dx, dz) || 1;
      dx /= l;
      dz /= l;
      // left of travel = (cos θ, 0, −sin θ) with forward (sin θ, 0, cos θ) = (dx, dz)
      const lx = dz;
      const lz = -dx;
      const hw = road.widths[k]! / 2;
      const base = baseAt(x, z);
      for (let a = 0; a < ACROSS; a++) {
        const px = x + lx * hw * u[a]!;
        const pz = z + lz * hw * u[a]!;
        const v = k * ACROSS + a;
        positions[3 * v] = px;
        positions[3 * v + 1] = bs.height(px, pz) + lift;
        positions[3 * v + 2] = pz;
        const edge = Math.abs(u[a]!) === 1;
        const track = Math.abs(u[a]!) === 0.45;
        const f = edge ? 0.97 : track ? 0.82 : 1;
        const e = edge ? 0.15 : 0; // edges blend toward the verge
        colors[4 * v] = (base[0] * (1 - e) + GROUND_COLORS.dirt[0] * e) * f;
        colors[4 * v + 1] = (base[1] * (1 - e) + GROUND_COLORS.dirt[1] * e) * f;
        colors[4 * v + 2] = (base[2] * (1 - e) + GROUND_COLORS.dirt[2] * e) * f;
        colors[4 * v + 3] = 1;
      }
    }
    const indices: number[] = [];
    for (let k = 0; k < n - 1; k++)
      for (let a = 0; a < ACROSS - 1; a++) {
        const p = k * ACROSS + a;
        indices.push(p, p + 1, p + ACROSS, p + 1, p + ACROSS + 1, p + ACROSS);
      }
    const normals: number[] = [];
    VertexData.ComputeNormals(positions, indices, normals);
    for (let i = 1; i < normals.length; i += 3) if (normals[i]! < 0) { normals[i - 1] = -normals[i - 1]!; normals[i] = -normals[i]!; normals[i + 1] = -normals[i + 1]!; }
    const vd = new VertexData();
    vd.positions = positions;
    vd.colors = colors;
    vd.indices = indices;
    vd.normals = normals;
    const mesh = new Mesh(name, this.scene);
    vd.applyToMesh(mesh);
    const m = mat(this.scene, `${name}Mat`, [1, 1, 1]);
    m.backFaceCulling = false;
    m.zOffset = zOffset;
    mesh.material = m;
    mesh.receiveShadows = true;
    mesh.isPickable = false;
    mesh.freezeWorldMatrix();
    this.meshes.push(mesh);
  }

  private buildScenery(shadows: ShadowGenerator | null): void {
    const s = this.scene;
    const baleMat = mat(s, 'bale', [0.86, 0.72, 0.38]);
    const markerMat = mat(s, 'marker', [0.95, 0.95, 0.95], { emissive: 0.2 });
    const bushMat = mat(s, 'bush', [0.2, 0.33, 0.14]);
    // vertex-coloured generated meshes (scenery-geometry.ts): the boulders and the edge posts, whose reflectors glow a little
    const rockMat = mat(s, 'rockMat', [1, 1, 1]);
    const postMat = mat(s, 'postMat', [1, 1, 1], { emissive: POST_GLOW });
    // the generated meshes are closed and their normals outward whatever the winding: draw both faces (the winding
    // is not kept consistent with the right-handed scene's front face)
    rockMat.backFaceCulling = false;
    postMat.backFaceCulling = false;
    const rocks = Array.from({ length: ROCK_VARIANTS }, (_, v) => this.treeMesh(`rock${v}`, buildRockGeometry(v), rockMat));
    const post = this.treeMesh('post', buildPostGeometry(), postMat);
    const fence = this.buildBales(baleMat);
    // unit-sized prototypes: radius 1, height 1 (scaled per item from radius/height)
    const marker = CreateBox('marker', { width: 0.3, height: 1, depth: 0.3 }, s);
    marker.bakeTransformIntoVertices(Matrix.Translation(0, 0.5, 0));
    marker.material = markerMat;
    const bush = CreateIcoSphere('bush', { radius: 1, subdivisions: 1 }, s);
    bush.bakeTransformIntoVertices(Matrix.Scaling(1, 0.7, 1).multiply(Matrix.Translation(0, 0.4, 0)));
    bush.material = bushMat;
    const groups = new Map<string, SceneryGroup>([
      ...rocks.map((r, v): [string, SceneryGroup] => [`rock${v}`, { protos: [r], mats: [], thinned: false }]),
      ['fence', { protos: [fence], mats: [], thinned: false }],
      ['marker', { protos: [marker], mats: [], thinned: false }],
      ['post', { protos: [post], mats: [], thinned: false }],
      ['bush', { protos: [bush], mats: [], thinned: true }],
    ]);
    const trees = this.buildTreeProtos();
    for (const [key, protos] of trees) groups.set(key, { protos, mats: [], thinned: true, levels: true });
    const q = new Quaternion();
    for (const it of this.stage.scenery) {
      if (it.kind === 'arch') continue; // drawn by buildGantry (posts at ±radius, like their colliders)
      const g = groups.get(sceneryGroupKey(this.stage, it))!;
      Quaternion.RotationYawPitchRollToRef(it.rotY, 0, 0, q);
      g.mats.push(Matrix.Compose(new Vector3(...instanceScale(it)), q, new Vector3(it.x, it.y - 0.1, it.z)));
      if (g.thinned) (g.pinned ??= []).push(isWithinReach(this.stage, it));
    }
    // the prototypes stay disabled (and are disposed with the view); the cells draw their instances
    this.protos.push(...rocks, fence, marker, post, bush, ...[...trees.values()].flat());
    this.scenery = new SceneryCells(groups);
    this.meshes.push(...this.scenery.meshes);
    void shadows; // scenery does not cast into the car-focused shadow map (keeps it sharp)
  }

  /**
   * Each tree species' mesh levels (tree-geometry.ts), bare and snow-covered, keyed by treeGroupKey; one
   * vertex-coloured material for the bare trees and one for the snowy ones, whose ambient term gives the shaded
   * side of a snowy crown a blue-grey (sky-lit snow) instead of a dark grey.
   */
  private buildTreeProtos(): Map<string, Mesh[]> {
    const bare = mat(this.scene, 'treeMat', [1, 1, 1]);
    const snowy = mat(this.scene, 'treeSnowMat', [1, 1, 1]);
    snowy.ambientColor = new Color3(...SNOW_SHADE_AMBIENT);
    const out = new Map<string, Mesh[]>();
    for (const sp of TREE_SPECIES)
      for (const snow of [false, true]) {
        const key = treeGroupKey(sp, snow);
        const m = snow ? snowy : bare;
        m.backFaceCulling = false; // impostor silhouettes are single-sided planes
        out.set(key, Array.from({ length: TREE_LEVELS }, (_, l) => this.treeMesh(`${key}L${l}`, buildTreeGeometry(sp, l, snow), m)));
      }
    return out;
  }

  /** A mesh of generated geometry (vertex colours, the geometry's outward normals). */
  private treeMesh(name: string, g: TreeGeometry, material: StandardMaterial): Mesh {
    const vd = new VertexData();
    vd.positions = g.positions;
    vd.colors = g.colors;
    vd.indices = g.indices;
    vd.normals = g.normals;
    const mesh = new Mesh(name, this.scene);
    vd.applyToMesh(mesh);
    mesh.material = material;
    return mesh;
  }

  /**
   * A corner protection item (stage `fence`, a 2 m × 1.1 m box collider): two round hay bales lying on their
   * sides along the item's width, 1 m long and 1 m across each (scaled to the item's height).
   */
  private buildBales(material: StandardMaterial): Mesh {
    const parts = [-0.5, 0.5].map((x) => {
      const b = CreateCylinder('bale', { height: 0.98, diameter: 1, tessellation: BALE_SIDES }, this.scene);
      b.bakeTransformIntoVertices(Matrix.RotationZ(Math.PI / 2).multiply(Matrix.Translation(x, 0.5, 0)));
      return b;
    });
    const bales = Mesh.MergeMeshes(parts, true)!;
    bales.name = 'fence';
    bales.material = material;
    return bales;
  }

  private buildGantry(p: StagePose, _label: string, color: [number, number, number]): void {
    const s = this.scene;
    const m = mat(s, `gantry_${_label}`, color, { emissive: 0.3 });
    const white = mat(s, `gantryWhite_${_label}`, [0.95, 0.95, 0.95], { emissive: 0.2 });
    const w = p.width + 2 * GANTRY_MARGIN_M;
    const lx = Math.cos(p.heading);
    const lz = -Math.sin(p.heading);
    const parts: Mesh[] = [];
    for (const side of [-1, 1]) {
      const x = p.x + lx * side * w * 0.5;
      const z = p.z + lz * side * w * 0.5;
      const post = CreateBox(`post_${_label}`, { width: 0.35, height: 5.5, depth: 0.35 }, s);
      post.position.set(x, this.stage.bspline.height(x, z) + 2.75, z);
      post.material = white;
      parts.push(post);
    }
    const beam = CreateBox(`beam_${_label}`, { width: w, height: 1.1, depth: 0.3 }, s);
    beam.position.set(p.x, Math.max(this.stage.bspline.height(p.x, p.z) + 5.2, 0), p.z);
    beam.rotation.y = p.heading;
    beam.material = m;
    parts.push(beam);
    this.beams.push(beam);
    // chequered line on the road
    const line = CreateBox(`line_${_label}`, { width: p.width, height: 0.02, depth: 0.6 }, s);
    line.position.set(p.x, this.stage.bspline.height(p.x, p.z) + 0.06, p.z);
    line.rotation.y = p.heading;
    line.material = white;
    parts.push(line);
    for (const part of parts) {
      part.isPickable = false;
      part.freezeWorldMatrix();
      this.meshes.push(part);
    }
  }

  private buildBanner(p: StagePose): void {
    const s = this.scene;
    const m = mat(s, 'cpMat', [1.0, 0.75, 0.05], { emissive: 0.35 });
    const lx = Math.cos(p.heading);
    const lz = -Math.sin(p.heading);
    for (const side of [-1, 1]) {
      const x = p.x + lx * side * (p.width * 0.5 + 0.8);
      const z = p.z + lz * side * (p.width * 0.5 + 0.8);
      const flag = CreateBox('cpFlag', { width: 0.25, height: 2.4, depth: 0.25 }, s);
      flag.position.set(x, this.stage.bspline.height(x, z) + 1.2, z);
      flag.material = m;
      flag.isPickable = false;
      flag.freezeWorldMatrix();
      this.meshes.push(flag);
    }
  }

  /** A graphics preset's tree density and scenery distance (src/systems/view/graphics-presets.ts). */
  setGraphics(p: Pick<GraphicsPreset, 'treeDensity' | 'sceneryDistanceM' | 'treeLodM'>): void {
    this.scenery.configure(p.treeDensity, p.sceneryDistanceM, p.treeLodM);
  }

  /**
   * Shows the scenery cells within the preset's distance of the camera at (x, z), and fades a gantry beam the
   * camera is near, so that the beam never hides the car (a chase camera passes under it at the start).
   */
  updateVisibility(x: number, z: number): void {
    this.scenery.updateVisibility(x, z);
    for (const b of this.beams) {
      const v = Math.hypot(b.position.x - x, b.position.z - z) < GANTRY_FADE_M ? GANTRY_FADED_VISIBILITY : 1;
      if (b.visibility !== v) b.visibility = v;
    }
  }

  dispose(): void {
    for (const m of this.meshes) m.dispose(false, true);
    for (const m of this.protos) m.dispose(false, true);
  }
}
