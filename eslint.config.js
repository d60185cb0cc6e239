import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

// ---------------------------------------------------------------------------------------------------------------
// Layers (docs/architecture.md "Layers"): what each protected folder must not import, and the browser globals
// the simulation must not touch. tests/core/layers-lint.test.ts lints a bad fixture in every folder against these.
// ---------------------------------------------------------------------------------------------------------------

/** A relative import that passes through a folder called `name` (the repo has one folder of each name). */
const into = (name) => `^\\.{1,2}/(.*/)?${name}(/|$)`;

/** Import targets a layer may forbid: a regex over the specifier as written, and the reason. */
const TARGET = {
  src: {
    regex: '^(\\.\\./)+src(/(?!validate/)|$)',
    message: 'terrain/ is a library of its own: it imports nothing from src/ but the file checks (src/validate).',
  },
  outside: { regex: '^\\.\\./', message: 'src/validate is the bottom layer: it imports only npm packages.' },
  ecs: { regex: into('ecs'), message: 'Content loaders do not import the simulation core (types only).' },
  systems: { regex: into('systems'), message: 'Lower layers do not import the systems (src/systems).' },
  replay: { regex: into('replay'), message: 'The simulation does not import the replay layer (src/replay).' },
  run: { regex: into('run'), message: 'The simulation does not import the run layer (src/run).' },
  app: { regex: into('app'), message: 'Only the game (src/app) and the CLIs import src/app.' },
  view: { regex: into('view'), message: 'The simulation never imports the views (src/systems/view).' },
  cli: { regex: into('cli'), message: 'Nothing imports the CLIs (src/cli).' },
  cliButArgs: {
    regex: '^\\.{1,2}/(.*/)?cli/(?!(args|errors)$)',
    message: 'The server uses the CLI argument parser and exit codes (src/cli/args.ts, errors.ts), no other CLI module.',
  },
  browser: {
    // @babylonjs/havok is the props' physics engine (wasm, used headless in Node too), not the renderer.
    regex: '^(@babylonjs/(?!havok$)|howler$|codemirror$|@codemirror/|uplot(/|$)|idb$)',
    message: 'The simulation is headless: no renderer, audio, editor, plots or IndexedDB.',
  },
  vite: { regex: '\\?', message: 'Vite-only import (`?url`, `?raw`…): browser loaders live in src/app.' },
};
/** `allowTypeImports`: a type carries no code across the layer (content may name a simulation type). */
const TYPES_OK = new Set(['ecs']);

/** Forbidden targets per protected folder. */
const SIM_BANS = ['app', 'view', 'cli', 'browser', 'vite'];
const LAYERS = {
  'src/validate': ['outside', 'browser', 'vite'],
  terrain: ['src', 'browser', 'vite'],
  'src/content': ['ecs', 'systems', 'replay', 'run', ...SIM_BANS],
  'src/ecs': ['systems', 'replay', 'run', ...SIM_BANS],
  'src/systems/sim': ['replay', 'run', ...SIM_BANS],
  'src/run': ['replay', ...SIM_BANS],
  'src/replay': SIM_BANS,
  // the headless multiplayer client (#22): runs the real sim, talks WebSocket; no browser code, no wall clock
  'src/net': SIM_BANS,
};

/**
 * server/ (Node only): the replay, run, content, terrain and validate layers and the CLI argument parser; never the
 * game (src/app) or the views. It reads the wall clock and uses node:crypto (it is not simulation code), so only
 * the import rule applies to it.
 */
const SERVER_BANS = ['app', 'view', 'cliButArgs', 'browser', 'vite'];

function importRule(layer) {
  const patterns = LAYERS[layer].map((t) => ({ ...TARGET[t], ...(TYPES_OK.has(t) ? { allowTypeImports: true } : {}) }));
  return ['error', { patterns }];
}

/** Browser and wall-clock globals: the simulation is headless and deterministic (same bits in Node and Chromium). */
const GLOBALS = [
  'window',
  'document',
  'navigator',
  'fetch',
  'performance',
  'localStorage',
  'indexedDB',
  'requestAnimationFrame',
  'Date',
  'crypto',
];
const globalMessage = (name) =>
  name === 'Date' || name === 'performance'
    ? 'No wall clock in the simulation: use world.time / world.tick.'
    : name === 'crypto'
      ? 'No unseeded randomness in the simulation: use the world PRNG.'
      : 'The simulation is headless: browser APIs live in src/app.';

/**
 * Math functions whose last bits differ between engines (Chromium vs Node): simulation code imports the fdlibm
 * ports from terrain/dmath.ts instead (dsin, dcos…), so a replay recorded in the browser verifies in Node.
 */
const ENGINE_MATH = ['sin', 'cos', 'tan', 'atan', 'atan2', 'asin', 'acos', 'exp', 'log', 'log2', 'log10', 'pow', 'cbrt'];

/** Longest function allowed in src/ and terrain/, lines (blank lines and comments included). */
const MAX_FUNCTION_LINES = 80;

const layerConfigs = [
  ...Object.keys(LAYERS).map((layer) => ({
    files: [`${layer}/**/*.{ts,js,mjs}`],
    rules: {
      'no-restricted-imports': importRule(layer),
      'no-restricted-globals': [
        'error',
        // checkGlobalObject: `globalThis.fetch`, `self.performance`… are reported too.
        { globals: GLOBALS.map((name) => ({ name, message: globalMessage(name) })), checkGlobalObject: true },
      ],
      // import() is not checked by no-restricted-imports: a dynamic import would slip past the layers. The one
      // exception stays in its folder: a WebAssembly kernel's generated module text (./wasm/<name>-wasm), loaded
      // as a lazy chunk to keep it off the startup bundle.
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression:not([source.value=/^\\.\\/wasm\\/[a-z]+-wasm$/])',
          message: 'No dynamic import() in a protected folder (layers are checked on static imports) but a kernel\'s ./wasm/<name>-wasm.',
        },
      ],
      'no-restricted-properties': [
        'error',
        {
          object: 'Math',
          property: 'random',
          message: 'No unseeded randomness in the simulation: use the world PRNG.',
        },
        ...ENGINE_MATH.map((property) => ({
          object: 'Math',
          property,
          message: `Math.${property} differs between engines: import d${property} from terrain/dmath.ts.`,
        })),
      ],
    },
  })),
];

const serverConfig = {
  files: ['server/**/*.{ts,js,mjs}'],
  rules: { 'no-restricted-imports': ['error', { patterns: SERVER_BANS.map((t) => TARGET[t]) }] },
};

export default tseslint.config(
  // terrain/wasm/assembly and src/systems/sim/vehicle/wasm/assembly are AssemblyScript (their own types: f64, v128,
  // load/store), compiled by terrain/wasm/build.ts
  { ignores: ['dist/**', 'node_modules/**', 'bench/results/**', 'test-results/**', 'coverage/**', 'terrain/wasm/assembly/**', 'src/systems/sim/vehicle/wasm/assembly/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: {
      // Browser code, Node CLIs and page scripts evaluated by Playwright all live in this repo.
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'warn',
      // TypeScript already checks names; typescript-eslint recommends turning this off for TS.
      'no-undef': 'off',
    },
  },
  ...layerConfigs,
  serverConfig,
  {
    // Small, named pieces (#15 item 4): no function over 80 lines (blank lines and comments included).
    files: ['src/**/*.ts', 'terrain/**/*.ts', 'server/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: MAX_FUNCTION_LINES }] },
  },
);
