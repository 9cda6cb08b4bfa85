// ESLint flat config. The engine boundary (STYLE.md habit 1) is enforced here: src/engine/**
// must stay pure TypeScript that runs in a Worker, in Node and in tests.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig([
  globalIgnores(['dist/', 'dist-cli/', 'coverage/', 'test-results/', 'node_modules/']),

  js.configs.recommended,
  tseslint.configs.recommended,

  {
    files: ['**/*.{js,mjs,cjs,ts,tsx}'],
    rules: {
      // TypeScript (tsc -b, with checkJs for the .js/.mjs files) reports undefined names.
      'no-undef': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      // A soft cap on file size (STYLE.md habit 12): a warning, not a failure.
      'max-lines': ['warn', { max: 400 }],
    },
  },

  {
    files: ['src/components/**/*.{ts,tsx}', 'src/app/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
  },

  {
    files: ['src/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'react', message: 'The engine must not depend on React.' },
            { name: 'react-dom', message: 'The engine must not depend on React.' },
            { name: 'comlink', message: 'Worker plumbing lives in src/worker/, not the engine.' },
          ],
          patterns: [
            {
              group: ['react/*', 'react-dom/*'],
              message: 'The engine must not depend on React.',
            },
            { group: ['d3', 'd3-*', 'd3/*'], message: 'The engine must not draw; d3 is UI-only.' },
            {
              group: ['**/components', '**/components/**', '**/app', '**/app/**'],
              message: 'The engine must not import the UI (src/components, src/app).',
            },
            {
              group: ['**/worker', '**/worker/**'],
              message: 'The engine must not import the worker adapter (src/worker).',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'window', message: 'The engine runs in Workers and Node: no DOM.' },
        { name: 'document', message: 'The engine runs in Workers and Node: no DOM.' },
        { name: 'navigator', message: 'The engine runs in Workers and Node: no DOM.' },
      ],
    },
  },
]);
