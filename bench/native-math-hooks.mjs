// Module resolve hook (see native-math-register.mjs): terrain/dmath.ts → bench/native-math.ts.
const NATIVE = new URL('./native-math.ts', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  const r = await nextResolve(specifier, context);
  return r.url.endsWith('/terrain/dmath.ts') ? { ...r, url: NATIVE } : r;
}
