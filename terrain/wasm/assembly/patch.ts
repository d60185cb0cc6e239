/**
 * The contact patch of a stage's surface (height, gradient, second derivatives and normal at one point) in
 * WebAssembly: AssemblyScript, compiled by terrain/wasm/build.ts into terrain/wasm/patch-wasm.ts and run by
 * terrain/patch-kernel.ts. It is BSplineSurface's TypeScript path (bspline.ts `sampleCurvatureJs`) for a surface
 * whose detail weight lies on the macro grid, operation for operation: the macro grid and the weight from one
 * cell-polynomial memo entry (cell-poly.ts), the detail tile's cell polynomial, the product rule, the normal. WebAssembly's
 * f64 arithmetic is IEEE 754 binary64 with round-to-nearest and no fused multiply-add, as JavaScript's, so the
 * results are the same bits (tests/terrain/patch-kernel.test.ts). The macro height and the weight are the two
 * lanes of f64x2: lane by lane the same operations in the same order.
 *
 * Memory (imported; laid out by patch-kernel.ts, byte offsets):
 *   IO    11 f64: in x, z; out h, ∂h/∂x, ∂h/∂z, h_xx, h_xz, h_zz, nx, ny, nz
 *   ROWS  16 f64: cellPolyInto's intermediate
 *   KEYS  MEMO_SLOTS i32 (the padded index of the cell each memo slot holds, −1: empty)
 *   COEF  MEMO_SLOTS × 32 f64: per slot the macro and weight polynomials interleaved (coefficient c of grid g at 2c + g)
 *   TILE, MACRO, WEIGHT: the tile's cell polynomials (cell-poly.ts tileCellPolys), the two grids' padded control points
 */

/**
 * Memo side in cells, as log2: direct-mapped, slot (i mod 128, j mod 128), 256 m × 256 m of 2 m cells (cell-poly.ts
 * CellPolyMemo keeps 32 × 32: a field of cars spread over a stage evicts each other's cells there; 4 MiB here).
 */
const MEMO_SIDE_BITS = 7;
const MEMO_MASK = (1 << MEMO_SIDE_BITS) - 1;
const MEMO_SLOTS = 1 << (2 * MEMO_SIDE_BITS);
/** Numbers per memo slot: two interleaved 4 × 4 polynomials. */
const SLOT_LEN = 32;

let io: usize = 0, rows: usize = 0, keys: usize = 0, coef: usize = 0;
let tile: usize = 0, macro: usize = 0, weight: usize = 0;
/** The macro grid (and the weight's, the same geometry): padded row length, nodes, origin, cell. */
let pw: i32 = 0, width: i32 = 0, depth: i32 = 0;
let originX: f64 = 0, originZ: f64 = 0, cell: f64 = 0, invCell: f64 = 0;
/** The detail tile: cells per side (a power of two), cell, 1/cell. */
let tileCells: i32 = 0, tileCell: f64 = 0, tileInvCell: f64 = 0;

/** Where the blocks are (byte offsets) and the grids' geometry; empties the memo. */
export function setup(
  ioAt: usize, rowsAt: usize, keysAt: usize, coefAt: usize, tileAt: usize, macroAt: usize, weightAt: usize,
  gridPw: i32, gridWidth: i32, gridDepth: i32, ox: f64, oz: f64, gridCell: f64, gridInvCell: f64,
  detailCells: i32, detailCell: f64, detailInvCell: f64,
): void {
  io = ioAt; rows = rowsAt; keys = keysAt; coef = coefAt;
  tile = tileAt; macro = macroAt; weight = weightAt;
  pw = gridPw; width = gridWidth; depth = gridDepth;
  originX = ox; originZ = oz; cell = gridCell; invCell = gridInvCell;
  tileCells = detailCells; tileCell = detailCell; tileInvCell = detailInvCell;
  for (let s = 0; s < MEMO_SLOTS; s++) store<i32>(keys + (<usize>s << 2), -1);
}

@inline function ld(p: usize, i: i32): f64 {
  return load<f64>(p + (<usize>i << 3));
}
@inline function st(p: usize, i: i32, v: f64): void {
  store<f64>(p + (<usize>i << 3), v);
}

/** cell-poly.ts `cellPolyInto` (scale 1): coefficient c of the cell at p[k] into out[o + stride·c]. */
function cellPolyInto(p: usize, k: i32, out: usize, o: i32, stride: i32): void {
  for (let b = 0; b < 4; b++) {
    const r = k + b * pw;
    const p0 = ld(p, r), p1 = ld(p, r + 1), p2 = ld(p, r + 2), p3 = ld(p, r + 3);
    st(rows, b, p0 + 4 * p1 + p2);
    st(rows, 4 + b, 3 * (p2 - p0));
    st(rows, 8 + b, 3 * p0 - 6 * p1 + 3 * p2);
    st(rows, 12 + b, 3 * (p1 - p2) + (p3 - p0));
  }
  let fi: f64 = 1 * (1.0 / 36);
  for (let i = 0; i < 4; i++) {
    const q = 4 * i;
    const r0 = ld(rows, q), r1 = ld(rows, q + 1), r2 = ld(rows, q + 2), r3 = ld(rows, q + 3);
    st(out, o + stride * i, (r0 + 4 * r1 + r2) * fi);
    st(out, o + stride * (i + 4), 3 * (r2 - r0) * (fi * invCell));
    st(out, o + stride * (i + 8), (3 * r0 - 6 * r1 + 3 * r2) * (fi * invCell * invCell));
    st(out, o + stride * (i + 12), (3 * (r1 - r2) + (r3 - r0)) * (fi * invCell * invCell * invCell));
    fi *= invCell;
  }
}

@inline function poly3(c0: v128, c1: v128, c2: v128, c3: v128, x: v128, x2: v128, x3: v128): v128 {
  return f64x2.add(f64x2.add(f64x2.add(c0, f64x2.mul(c1, x)), f64x2.mul(c2, x2)), f64x2.mul(c3, x3));
}
@inline function poly2(c1: v128, c2: v128, c3: v128, x1d: v128, x2d: v128): v128 {
  return f64x2.add(f64x2.add(c1, f64x2.mul(c2, x1d)), f64x2.mul(c3, x2d));
}
@inline function poly1(c2: v128, c3: v128, x1e: v128): v128 {
  return f64x2.add(f64x2.mul(f64x2.splat(2), c2), f64x2.mul(c3, x1e));
}

/**
 * JavaScript's ToInt32 of an integral f64 (as `fi & mask` in bspline.ts): v mod 2³² (exact: the division and the
 * product are by a power of two, the difference is below 2³² and on v's grid), then its low 32 bits. ±Infinity
 * and NaN give NaN there, which the saturating truncation makes 0, as ToInt32 does.
 */
@inline function toInt32(v: f64): i32 {
  const w = v - 4294967296.0 * Math.floor(v * (1.0 / 4294967296.0));
  return <i32>(<i64>w);
}

// The steps' results (wasm globals: each step is inlined into `sample`, so these act as its locals).
let spanT: f64 = 0, spanS: f64 = 0, flatX = false, flatZ = false;
let pH: v128 = f64x2.splat(0), pHx: v128 = f64x2.splat(0), pHz: v128 = f64x2.splat(0);
let pHxx: v128 = f64x2.splat(0), pHxz: v128 = f64x2.splat(0), pHzz: v128 = f64x2.splat(0);
let tN: f64 = 0, tNx: f64 = 0, tNz: f64 = 0, tNxx: f64 = 0, tNxz: f64 = 0, tNzz: f64 = 0;

/**
 * bspline.ts `spanAt` and `CellPolyMemo.offsetOf`: the query clamped to the grid (a clamped axis is flat across the
 * border), the span's parameters into spanT / spanS; returns the span's memo slot, its polynomials built on a miss.
 */
@inline function spanSlot(qx: f64, qz: f64): i32 {
  let u = (qx - originX) * invCell, v = (qz - originZ) * invCell;
  flatX = false;
  flatZ = false;
  if (u < 0) {
    u = 0;
    flatX = true;
  } else if (u > <f64>(width - 1)) {
    u = <f64>(width - 1);
    flatX = true;
  }
  if (v < 0) {
    v = 0;
    flatZ = true;
  } else if (v > <f64>(depth - 1)) {
    v = <f64>(depth - 1);
    flatZ = true;
  }
  let i = <i32>Math.floor(u);
  if (i > width - 2) i = width - 2;
  let j = <i32>Math.floor(v);
  if (j > depth - 2) j = depth - 2;
  spanT = u - <f64>i;
  spanS = v - <f64>j;
  const k = j * pw + i; // padded index of the span's first control point
  const slot = ((j & MEMO_MASK) << MEMO_SIDE_BITS) | (i & MEMO_MASK);
  if (load<i32>(keys + (<usize>slot << 2)) != k) {
    cellPolyInto(macro, k, coef, slot * SLOT_LEN, 2);
    cellPolyInto(weight, k, coef, slot * SLOT_LEN + 1, 2);
    store<i32>(keys + (<usize>slot << 2), k);
  }
  return slot;
}

/**
 * bspline.ts `sumCellPolys` for the memo slot's macro (lane 0) and weight (lane 1) polynomials at (spanT, spanS):
 * rows a = Xᵀk, b = X′ᵀk, e = X″ᵀk, then their dot products with Z, into pH … pHzz.
 */
@inline function sumPair(slot: i32): void {
  const xs = spanT * cell, x2s = xs * xs, zs = spanS * cell, z2s = zs * zs;
  const x = f64x2.splat(xs), x2 = f64x2.splat(x2s), x3 = f64x2.splat(x2s * xs);
  const x1d = f64x2.splat(2 * xs), x2d = f64x2.splat(3 * x2s), x1e = f64x2.splat(6 * xs);
  const z = f64x2.splat(zs), z2 = f64x2.splat(z2s), z3 = f64x2.splat(z2s * zs);
  const z1d = f64x2.splat(2 * zs), z2d = f64x2.splat(3 * z2s), z1e = f64x2.splat(6 * zs);
  const c = coef + ((<usize>slot * SLOT_LEN) << 3);
  let c0 = v128.load(c), c1 = v128.load(c, 16), c2 = v128.load(c, 32), c3 = v128.load(c, 48);
  const a0 = poly3(c0, c1, c2, c3, x, x2, x3), b0 = poly2(c1, c2, c3, x1d, x2d), e0 = poly1(c2, c3, x1e);
  c0 = v128.load(c, 64); c1 = v128.load(c, 80); c2 = v128.load(c, 96); c3 = v128.load(c, 112);
  const a1 = poly3(c0, c1, c2, c3, x, x2, x3), b1 = poly2(c1, c2, c3, x1d, x2d), e1 = poly1(c2, c3, x1e);
  c0 = v128.load(c, 128); c1 = v128.load(c, 144); c2 = v128.load(c, 160); c3 = v128.load(c, 176);
  const a2 = poly3(c0, c1, c2, c3, x, x2, x3), b2 = poly2(c1, c2, c3, x1d, x2d), e2 = poly1(c2, c3, x1e);
  c0 = v128.load(c, 192); c1 = v128.load(c, 208); c2 = v128.load(c, 224); c3 = v128.load(c, 240);
  const a3 = poly3(c0, c1, c2, c3, x, x2, x3), b3 = poly2(c1, c2, c3, x1d, x2d), e3 = poly1(c2, c3, x1e);
  const zero = f64x2.splat(0);
  pH = poly3(a0, a1, a2, a3, z, z2, z3);
  pHx = flatX ? zero : poly3(b0, b1, b2, b3, z, z2, z3);
  pHz = flatZ ? zero : poly2(a1, a2, a3, z1d, z2d);
  pHxx = flatX ? zero : poly3(e0, e1, e2, e3, z, z2, z3);
  pHxz = flatX || flatZ ? zero : poly2(b1, b2, b3, z1d, z2d);
  pHzz = flatZ ? zero : poly1(a2, a3, z1e);
}

/** The detail tile's cell at (qx, qz) (periodic: index mod tileCells), `sumCellPolys` for it into tN … tNzz. */
@inline function sumTile(qx: f64, qz: f64): void {
  const tu = qx * tileInvCell, tv = qz * tileInvCell;
  const fi = Math.floor(tu), fj = Math.floor(tv);
  const m = tileCells - 1;
  const o = ((toInt32(fj) & m) * tileCells + (toInt32(fi) & m)) * 16;
  const x = (tu - fi) * tileCell, x2 = x * x, x3 = x2 * x, x1d = 2 * x, x2d = 3 * x2, x1e = 6 * x;
  const z = (tv - fj) * tileCell, z2 = z * z, z3 = z2 * z, z1d = 2 * z, z2d = 3 * z2, z1e = 6 * z;
  let d0 = ld(tile, o), d1 = ld(tile, o + 1), d2 = ld(tile, o + 2), d3 = ld(tile, o + 3);
  const a0 = d0 + d1 * x + d2 * x2 + d3 * x3, b0 = d1 + d2 * x1d + d3 * x2d, e0 = 2 * d2 + d3 * x1e;
  d0 = ld(tile, o + 4); d1 = ld(tile, o + 5); d2 = ld(tile, o + 6); d3 = ld(tile, o + 7);
  const a1 = d0 + d1 * x + d2 * x2 + d3 * x3, b1 = d1 + d2 * x1d + d3 * x2d, e1 = 2 * d2 + d3 * x1e;
  d0 = ld(tile, o + 8); d1 = ld(tile, o + 9); d2 = ld(tile, o + 10); d3 = ld(tile, o + 11);
  const a2 = d0 + d1 * x + d2 * x2 + d3 * x3, b2 = d1 + d2 * x1d + d3 * x2d, e2 = 2 * d2 + d3 * x1e;
  d0 = ld(tile, o + 12); d1 = ld(tile, o + 13); d2 = ld(tile, o + 14); d3 = ld(tile, o + 15);
  const a3 = d0 + d1 * x + d2 * x2 + d3 * x3, b3 = d1 + d2 * x1d + d3 * x2d, e3 = 2 * d2 + d3 * x1e;
  tN = a0 + a1 * z + a2 * z2 + a3 * z3;
  tNx = b0 + b1 * z + b2 * z2 + b3 * z3;
  tNz = a1 + a2 * z1d + a3 * z2d;
  tNxx = e0 + e1 * z + e2 * z2 + e3 * z3;
  tNxz = b1 + b2 * z1d + b3 * z2d;
  tNzz = 2 * a2 + a3 * z1e;
}

/**
 * The patch at IO's (x, z) into IO[2..10]: bspline.ts `curvatureAtQuery` with a paired weight and a detail tile
 * (`spanAt`, the memo, `sumCellPolys` for the pair and the tile cell, `addDetailCurvature` weighted, the normal),
 * its steps inlined into one function.
 */
export function sample(): void {
  const qx = ld(io, 0), qz = ld(io, 1);
  sumPair(spanSlot(qx, qz));
  sumTile(qx, qz);
  // addDetailCurvature (weighted): macro + the product rule on w·n
  const n = tN, nx = tNx, nz = tNz;
  const w = f64x2.extract_lane(pH, 1), wx = f64x2.extract_lane(pHx, 1), wz = f64x2.extract_lane(pHz, 1);
  const gx = f64x2.extract_lane(pHx, 0) + (wx * n + w * nx);
  const gz = f64x2.extract_lane(pHz, 0) + (wz * n + w * nz);
  st(io, 2, f64x2.extract_lane(pH, 0) + w * n);
  st(io, 3, gx);
  st(io, 4, gz);
  st(io, 5, f64x2.extract_lane(pHxx, 0) + (f64x2.extract_lane(pHxx, 1) * n + 2 * wx * nx + w * tNxx));
  st(io, 6, f64x2.extract_lane(pHxz, 0) + (f64x2.extract_lane(pHxz, 1) * n + wx * nz + wz * nx + w * tNxz));
  st(io, 7, f64x2.extract_lane(pHzz, 0) + (f64x2.extract_lane(pHzz, 1) * n + 2 * wz * nz + w * tNzz));
  const inv = 1 / Math.sqrt(gx * gx + 1 + gz * gz);
  st(io, 8, -gx * inv);
  st(io, 9, inv);
  st(io, 10, -gz * inv);
}
