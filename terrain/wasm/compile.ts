/**
 * A committed WebAssembly kernel (a base64 module written by build.ts) compiled once, synchronously (the kernels
 * are a few KB: small enough for a browser's main thread), with the reason when it cannot be.
 */
export class CompiledKernel {
  private compiled: WebAssembly.Module | null | undefined;
  private reason: string | null = null;

  constructor(private readonly base64: string) {}

  /** The module, or null where WebAssembly cannot compile it here (`error` says why). */
  module(): WebAssembly.Module | null {
    if (this.compiled !== undefined) return this.compiled;
    try {
      const bin = atob(this.base64);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      this.compiled = new WebAssembly.Module(bytes);
    } catch (e) {
      this.compiled = null;
      this.reason = e instanceof Error ? e.message : String(e);
    }
    return this.compiled;
  }

  /** Why the module did not compile (null when it did), compiling it first if that was not tried yet. */
  error(): string | null {
    this.module();
    return this.reason;
  }
}
