import type { GenerateOptions } from './generate';

/**
 * Generator settings of the stages shipped in src/content/stages/<id>/ (`npm run stage -- build-shipped`). They
 * predate stage.toml's `[generator]` table and are generated without it (their content hashes stay the same).
 * test-short, the flat stage the tests race on, has no ditches (terrain/ditch.ts): its bytes stay those of
 * generator version 2, so the runs recorded on it (and their lap-time orderings) stay valid.
 */
export const SHIPPED_STAGES: readonly (GenerateOptions & { id: string })[] = ([
  { id: 'forest-gravel', name: 'Metsäpolku (forest gravel)', seed: 3101, lengthKm: 5.4, surface: 'gravel' },
  { id: 'col-tarmac', name: 'Col de Bitre (mountain tarmac)', seed: 2207, lengthKm: 4.3, surface: 'tarmac' },
  { id: 'snow-ridge', name: 'Snøkam (snow)', seed: 4409, lengthKm: 4.3, surface: 'snow' },
  { id: 'test-short', name: 'Test short', seed: 7, lengthKm: 0.6, surface: 'gravel', size: 257, relief: 0.05, checkpointsM: [300], ditch: false },
] as const satisfies readonly (GenerateOptions & { id: string })[]).map((s) => ({ ...s, recordParams: false }));
