/** A square grid of terrain vertices sampled from the B-spline surface (geomipmap blocks and chunks, RTIN chunks). */
import type { BSplineSurface, SurfaceSample } from './bspline';

export interface VertexGrid {
  /** World xyz per vertex; vertex (c, r) at index r·n + c, c along +X, r along +Z. */
  positions: Float32Array;
  normals: Float32Array;
}

/**
 * n × n vertices: vertex (c, r) at world (ox + (g0x + c·stride)·cell, oz + (g0z + r·stride)·cell), so grids
 * that share an edge compute identical x, z and heights there. Position and analytic normal per vertex.
 */
export function sampleVertexGrid(surface: BSplineSurface, ox: number, oz: number, cell: number, g0x: number, g0z: number, stride: number, n: number): VertexGrid {
  const positions = new Float32Array(n * n * 3);
  const normals = new Float32Array(n * n * 3);
  const smp: SurfaceSample = { h: 0, dhdx: 0, dhdz: 0, nx: 0, ny: 1, nz: 0 };
  let o = 0;
  for (let r = 0; r < n; r++) {
    const z = oz + (g0z + r * stride) * cell;
    for (let c = 0; c < n; c++) {
      const x = ox + (g0x + c * stride) * cell;
      surface.sample(x, z, smp);
      positions[o] = x;
      positions[o + 1] = smp.h;
      positions[o + 2] = z;
      normals[o] = smp.nx;
      normals[o + 1] = smp.ny;
      normals[o + 2] = smp.nz;
      o += 3;
    }
  }
  return { positions, normals };
}
