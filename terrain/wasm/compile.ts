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

/**
 * A committed kernel whose module text is in a lazy chunk (off the startup bundle): loaded on the first `module()`
 * call (or `load()`), compiled once it has arrived. Until then `module()` is undefined, and callers run their
 * TypeScript path (the kernels give its bits).
 */
export class LazyKernel {
  private kernel: CompiledKernel | null = null;
  private failed: string | null = null;
  private loading: Promise<void> | null = null;

  constructor(private readonly fetchText: () => Promise<string>) {}

  /** Loads the module text (once); resolves when it has arrived or failed to. */
  load(): Promise<void> {
    this.loading ??= this.fetchText().then(
      (text) => void (this.kernel = new CompiledKernel(text)),
      (e: unknown) => void (this.failed = `the module's chunk did not load: ${e instanceof Error ? e.message : String(e)}`),
    );
    return this.loading;
  }

  /** The module; null where it cannot load or compile (`error` says why); undefined while it is on its way. */
  module(): WebAssembly.Module | null | undefined {
    if (this.kernel !== null) return this.kernel.module();
    if (this.failed !== null) return null;
    void this.load();
    return undefined;
  }

  /** Why the module cannot be had (null when it compiled, or is still on its way). */
  error(): string | null {
    return this.kernel?.error() ?? this.failed;
  }
}
