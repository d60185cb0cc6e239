import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/results/**', 'test-results/**', 'coverage/**'] },
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
  {
    // The simulation must not use wall-clock time or unseeded randomness (determinism, ARCHITECTURE.md).
    files: ['src/ecs/**/*.ts', 'src/systems/sim/**/*.ts', 'terrain/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'Use the world PRNG (determinism).' },
        { object: 'Date', property: 'now', message: 'No wall clock in the simulation.' },
        { object: 'performance', property: 'now', message: 'No wall clock in the simulation.' },
      ],
    },
  },
);
