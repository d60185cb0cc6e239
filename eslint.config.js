import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/results/**', 'test-results/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: {
      globals: {
        console: 'readonly', process: 'readonly', window: 'readonly', document: 'readonly', navigator: 'readonly',
        performance: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly',
        requestAnimationFrame: 'readonly', setInterval: 'readonly', clearInterval: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'warn',
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
