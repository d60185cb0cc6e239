import { defineConfig } from 'vite';
import { carHmr } from './vite/plugins/car-hmr';
import { offline } from './vite/plugins/offline';

// Havok ships its wasm beside the ES module; excluding it from dependency pre-bundling lets Vite serve the
// wasm file as an asset instead of inlining a broken path.
export default defineConfig({
  base: './',
  // dev only: car file edits swap the car in the running game (issue 9, docs/tuning.md)
  // build only: web manifest, icons and the service worker that precaches the build (docs/game.md "Offline")
  plugins: [carHmr(), offline()],
  optimizeDeps: { exclude: ['@babylonjs/havok'] },
  build: {
    target: 'es2022',
    sourcemap: false,
    // dist/.vite/manifest.json: `npm run size` (tests/e2e/size.mjs) follows it to the startup chunks and fails
    // above their gzip budget
    manifest: true,
    // kB, minified: the entry chunk holds Babylon's engine and scene and the boot's share of the simulation
    // (~1200 kB, 415 KiB gzip with its static imports); Vite warns above this
    chunkSizeWarningLimit: 1300,
  },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173 },
});
