// `node --import tsx --import ./bench/native-math-register.mjs …`: every import of terrain/dmath.ts resolves to
// bench/native-math.ts (the engine's own Math), for the peers benchmark's native-Math variant.
import { register } from 'node:module';

register(new URL('./native-math-hooks.mjs', import.meta.url));
