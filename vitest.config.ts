// Two vitest projects with explicit include/exclude (TESTING.md pitfall 5):
//   unit — everything under tests/ except the end-to-end tests; builds the CLI bundle once first,
//          so tests that spawn `node bin/spindle.mjs` run the real, fresh CLI.
//   e2e  — tests/e2e: drives the built page (dist/, from `vite build`) in headless Chromium.
// `npm test` runs both (scripts/test.mjs); `npm run test:unit`, `npm run test:e2e` run one.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['tests/**/*.test.ts'],
          exclude: ['tests/e2e/**', '**/node_modules/**'],
          globalSetup: ['scripts/build-cli.global-setup.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
