/**
 * The terrain contact patch in WebAssembly (terrain/wasm/assembly/patch.ts): BSplineSurface's curvature sample
 * (height, gradient, second derivatives, normal) for a surface whose detail weight lies on the macro grid, the
 * shipped stages' shape. The same bits as the TypeScript path (`BSplineSurface.sampleCurvatureJs`), about half the
 * time per sample in isolation (the simulation samples each wheel's patch once per tick; docs/ai.md).
 *
 * One instance per surface, in a memory of its own sized once (never grown, so views stay valid): the kernel's
 * scratch and memo, then the detail tile's cell polynomials and the two grids' control points. Those arrays move
 * into the kernel's memory (the surface's grids and tile read them there from then on), so the data is not held twice.
 * Where WebAssembly cannot compile the module, or a surface's memory cannot be had, the surface keeps the TypeScript
 * path (`patchKernelError`).
 */
import { PATCH_WASM_BASE64 } from './wasm/patch-wasm';
import { CompiledKernel } from './wasm/compile';

/**
 * IO's slots (f64): the query point in, the patch out. Module-local: an imported constant as a typed-array index
 * costs V8 a generic element access (measured ≈ 8 ns each under Node), so only this module indexes IO.
 */
const IO_X = 0, IO_Z = 1, IO_H = 2, IO_DHDX = 3, IO_DHDZ = 4, IO_HXX = 5, IO_HXZ = 6, IO_HZZ = 7, IO_NX = 8, IO_NY = 9, IO_NZ = 10;

/** The patch's fields (bspline.ts CurvatureSample). */
export interface KernelPatch {
  h: number;
  dhdx: number;
  dhdz: number;
  hxx: number;
  hxz: number;
  hzz: number;
  nx: number;
  ny: number;
  nz: number;
}

export interface PatchKernel {
  /** The query point at IO_X / IO_Z, the patch at IO_H … IO_NZ after `sample` (`sampleKernelAt`). */
  readonly io: Float64Array;
  readonly sample: () => void;
  /** The arrays moved into the kernel's memory (the same numbers): the grids' padded control points and the tile's polynomials. */
  readonly macro: Float64Array;
  readonly weight: Float64Array;
  readonly tilePolys: Float64Array;
}

/** What the kernel evaluates: the macro grid and its weight (same geometry) and the detail tile. */
export interface PatchKernelInput {
  macro: Float64Array;
  weight: Float64Array;
  /** Padded row length, nodes per row and column, origin, cell (m) and 1/cell of the macro grid. */
  pw: number;
  width: number;
  depth: number;
  originX: number;
  originZ: number;
  cellSize: number;
  invCell: number;
  /** The tile's cell polynomials (cell-poly.ts tileCellPolys), cells per side, cell (m), 1/cell. */
  tilePolys: Float64Array;
  tileCells: number;
  tileCellSize: number;
  tileInvCell: number;
}

/** Bytes of the kernel's fixed blocks (patch.ts header): IO, ROWS, memo keys, memo coefficients (MEMO_SLOTS as patch.ts). */
const IO_AT = 0, ROWS_AT = 128, KEYS_AT = 256, MEMO_SLOTS = 1 << 14;
const COEF_AT = KEYS_AT + 4 * MEMO_SLOTS;
const DATA_AT = COEF_AT + 8 * 32 * MEMO_SLOTS;
const PAGE = 65536;

const patchModule = new CompiledKernel(PATCH_WASM_BASE64);
/** The last surface's kernel that could not be made (its memory), or null. */
let instanceError: string | null = null;

/**
 * Why surfaces use the TypeScript path (the module did not compile here, or the last kernel found no memory for
 * its data), or null when the kernel runs.
 */
export function patchKernelError(): string | null {
  return patchModule.error() ?? instanceError;
}

/** A kernel over `input` (its arrays copied into the kernel's memory: use the returned views), or null without WebAssembly. */
export function createPatchKernel(input: PatchKernelInput): PatchKernel | null {
  const mod = patchModule.module();
  if (mod === null) return null;
  const tileAt = DATA_AT;
  const macroAt = tileAt + 8 * input.tilePolys.length;
  const weightAt = macroAt + 8 * input.macro.length;
  const end = weightAt + 8 * input.weight.length;
  const pages = Math.ceil(end / PAGE);
  let memory: WebAssembly.Memory, ex: { setup: (...a: number[]) => void; sample: () => void };
  try {
    memory = new WebAssembly.Memory({ initial: pages, maximum: pages });
    ex = new WebAssembly.Instance(mod, { env: { memory } }).exports as typeof ex;
  } catch (e) {
    // no room for the data (a browser short of memory, a grid past 4 GiB): the surface keeps the TypeScript path
    instanceError = `${(end / 2 ** 20).toFixed(0)} MiB for the kernel: ${e instanceof Error ? e.message : String(e)}`;
    return null;
  }
  const view = (at: number, src: Float64Array): Float64Array => {
    const v = new Float64Array(memory.buffer, at, src.length);
    v.set(src);
    return v;
  };
  instanceError = null;
  const kernel: PatchKernel = {
    io: new Float64Array(memory.buffer, IO_AT, 11),
    sample: ex.sample,
    tilePolys: view(tileAt, input.tilePolys),
    macro: view(macroAt, input.macro),
    weight: view(weightAt, input.weight),
  };
  ex.setup(
    IO_AT, ROWS_AT, KEYS_AT, COEF_AT, tileAt, macroAt, weightAt,
    input.pw, input.width, input.depth, input.originX, input.originZ, input.cellSize, input.invCell,
    input.tileCells, input.tileCellSize, input.tileInvCell,
  );
  return kernel;
}

/** The kernel's patch at (p[0], p[2]) (a point's x, y, z in an array: no boxed double arguments) into `out`. */
export function sampleKernelAt(k: PatchKernel, p: Float64Array, out: KernelPatch): void {
  const io = k.io;
  io[IO_X] = p[0]!;
  io[IO_Z] = p[2]!;
  k.sample();
  out.h = io[IO_H]!;
  out.dhdx = io[IO_DHDX]!;
  out.dhdz = io[IO_DHDZ]!;
  out.hxx = io[IO_HXX]!;
  out.hxz = io[IO_HXZ]!;
  out.hzz = io[IO_HZZ]!;
  out.nx = io[IO_NX]!;
  out.ny = io[IO_NY]!;
  out.nz = io[IO_NZ]!;
}
