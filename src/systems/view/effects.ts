/**
 * Spray and skid marks. Spray: one particle system behind the car styled per surface (spray-styles.ts: gravel
 * dust, snow spray, grass debris, tyre smoke on tarmac and ice), emission ∝ speed on loose surfaces and ∝ slip,
 * coloured by the surface's dust colour (terrain SURFACE_PROPS), thin enough that the car shows through it. Skid marks: a ring buffer of quads (one per wheel per sample) laid on the
 * ground where a wheel in contact slips; old quads are overwritten.
 */
import type { Scene } from '@babylonjs/core/scene';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { DynamicTexture } from '@babylonjs/core/Materials/Textures/dynamicTexture';
import { ParticleSystem } from '@babylonjs/core/Particles/particleSystem';
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import type { Stage } from '../../../terrain/stage';
import { SURFACE_PROPS, type SurfaceId } from '../../../terrain/surface';
import type { SimWorld } from '../../ecs/world';
import type { CarTelemetryView, DrivableCar } from '../../app/car-link';
import { SPRAY_STYLES, sprayRate } from './spray-styles';

const MAX_QUADS = 1200;
/** Spray starts this far behind the car's centre, m (at the rear wheels' contact patches). */
const SPRAY_BEHIND_M = 1.8;
/** Babylon's default layer mask (drawn by every camera). */
const ALL_LAYERS = 0x0fffffff;
/** Tyre smoke colour on sealed surfaces. */
const TYRE_SMOKE = [0.85, 0.85, 0.85] as const;

export class Effects {
  private readonly dust: ParticleSystem;
  private readonly emitter = new Vector3();
  private readonly skid: Mesh;
  private readonly skidPos: Float32Array;
  private skidNext = 0;
  private readonly lastMark: (Vector3 | null)[] = [null, null, null, null];
  private readonly tex: DynamicTexture;
  private style: SurfaceId | null = null;
  /** A graphics preset's particle factor 0..1 (dust and spray emission). */
  particles = 1;

  constructor(
    scene: Scene,
    private readonly stage: Stage,
  ) {
    this.tex = new DynamicTexture('dustTex', { width: 64, height: 64 }, scene, false);
    const ctx = this.tex.getContext() as CanvasRenderingContext2D;
    const g = ctx.createRadialGradient(32, 32, 2, 32, 32, 31);
    g.addColorStop(0, 'rgba(255,255,255,0.9)');
    g.addColorStop(1, 'rgba(255,255,255,0)');
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, 64, 64);
    this.tex.hasAlpha = true;
    this.tex.update();
    const ps = new ParticleSystem('dust', 1500, scene);
    ps.particleTexture = this.tex;
    ps.emitter = this.emitter;
    ps.minEmitBox = new Vector3(-0.8, 0, -0.3);
    ps.maxEmitBox = new Vector3(0.8, 0.2, 0.3);
    ps.minEmitPower = 1;
    ps.maxEmitPower = 1;
    ps.blendMode = ParticleSystem.BLENDMODE_STANDARD;
    ps.emitRate = 0;
    ps.updateSpeed = 0.016;
    ps.start();
    this.dust = ps;
    // skid marks
    this.skidPos = new Float32Array(MAX_QUADS * 4 * 3);
    const idx = new Uint32Array(MAX_QUADS * 6);
    for (let q = 0; q < MAX_QUADS; q++) idx.set([4 * q, 4 * q + 1, 4 * q + 2, 4 * q + 1, 4 * q + 3, 4 * q + 2], 6 * q);
    const nrm = new Float32Array(MAX_QUADS * 12);
    for (let i = 1; i < nrm.length; i += 3) nrm[i] = 1;
    this.skidPos.fill(0);
    const vd = new VertexData();
    vd.positions = this.skidPos;
    vd.indices = idx;
    vd.normals = nrm;
    this.skid = new Mesh('skids', scene);
    vd.applyToMesh(this.skid, true);
    const m = new StandardMaterial('skidMat', scene);
    m.diffuseColor = new Color3(0.05, 0.04, 0.03);
    m.specularColor = Color3.Black();
    m.alpha = 0.55;
    m.backFaceCulling = false;
    m.zOffset = -4;
    this.skid.material = m;
    this.skid.isPickable = false;
    this.skid.alwaysSelectAsActiveMesh = true;
  }

  /** Hides or shows the spray (the e2e check compares the same frame with and without it). */
  setSprayHidden(hidden: boolean): void {
    this.dust.layerMask = hidden ? 0 : ALL_LAYERS;
  }

  /** Particles alive now (the e2e spray check reads it to know the spray is on). */
  get activeParticles(): number {
    return this.dust.getActiveCount();
  }

  /** Sets the particle system's look for a surface (on a surface change only). */
  private applyStyle(surf: SurfaceId): void {
    if (surf === this.style) return;
    this.style = surf;
    const st = SPRAY_STYLES[surf];
    const ps = this.dust;
    ps.minSize = st.minSizeM;
    ps.maxSize = st.maxSizeM;
    ps.minLifeTime = st.minLifeS;
    ps.maxLifeTime = st.maxLifeS;
    // emit power 1: the direction vectors are the launch velocities, m/s (sideways ±0.8, up riseMS)
    ps.direction1 = new Vector3(-0.8, st.riseMS[0], -0.8);
    ps.direction2 = new Vector3(0.8, st.riseMS[1], 0.8);
    ps.gravity = new Vector3(0, -st.gravityMS2, 0);
    const c = surf === 'tarmac' || surf === 'ice' ? TYRE_SMOKE : SURFACE_PROPS[surf].dustColor;
    ps.color1 = new Color4(c[0], c[1], c[2], st.alpha);
    ps.color2 = new Color4(c[0] * 0.9, c[1] * 0.9, c[2] * 0.9, st.alpha * 0.75);
    ps.colorDead = new Color4(c[0], c[1], c[2], 0);
  }

  update(world: SimWorld, car: DrivableCar, t: CarTelemetryView, dt: number, pose: { x: number; y: number; z: number; fx: number; fz: number }): void {
    void world;
    const surf = (t.surface in SURFACE_PROPS ? t.surface : 'gravel') as SurfaceId;
    this.applyStyle(surf);
    const fh = Math.hypot(pose.fx, pose.fz) || 1;
    this.emitter.set(pose.x - (pose.fx / fh) * SPRAY_BEHIND_M, pose.y - 0.3, pose.z - (pose.fz / fh) * SPRAY_BEHIND_M);
    this.dust.emitRate = sprayRate(SPRAY_STYLES[surf], t.speedMS, t.slip, t.contact) * this.particles;
    // skid marks: lay a quad between the last mark point and the wheel's current ground point
    const shape = car.shape;
    const lx = pose.fz / fh;
    const lz = -pose.fx / fh;
    let changed = false;
    for (let i = 0; i < shape.wheels.length && i < 4; i++) {
      const w = shape.wheels[i]!;
      const px = pose.x + lx * w.x + (pose.fx / fh) * w.z;
      const pz = pose.z + lz * w.x + (pose.fz / fh) * w.z;
      const slipping = t.contact > 0.5 && t.slip > 0.25 && t.speedMS > 2;
      if (!slipping) {
        this.lastMark[i] = null;
        continue;
      }
      const py = this.stage.bspline.height(px, pz) + 0.05;
      const last = this.lastMark[i];
      if (last && Vector3.DistanceSquared(last, new Vector3(px, py, pz)) > 0.25) {
        const hw = w.widthM * 0.45;
        const q = this.skidNext;
        const o = q * 12;
        const P = this.skidPos;
        P.set([last.x + lx * hw, last.y, last.z + lz * hw, last.x - lx * hw, last.y, last.z - lz * hw, px + lx * hw, py, pz + lz * hw, px - lx * hw, py, pz - lz * hw], o);
        this.skidNext = (q + 1) % MAX_QUADS;
        this.lastMark[i] = new Vector3(px, py, pz);
        changed = true;
      } else if (!last) this.lastMark[i] = new Vector3(px, py, pz);
    }
    if (changed) this.skid.updateVerticesData(VertexBuffer.PositionKind, this.skidPos, false, false);
    void dt;
  }

  dispose(): void {
    this.dust.dispose();
    this.skid.dispose();
    this.tex.dispose();
  }
}
