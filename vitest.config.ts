import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const BLOG_TESTS = ['test/integration/blog-*.test.ts', 'test/e2e/blog-*.test.ts'];

/**
 * One `vitest run` runs both suites as projects and reports each, even when one fails:
 * `backend` first, then `blog` (its global setup builds the Next app once and starts a mainnet
 * and a testnet blog server; its files run one at a time). `--project blog` runs one suite.
 */
export default defineConfig({
  resolve: {
    // One copy of graphql: the ESM entry, or type-graphql and Apollo see different classes.
    alias: [{ find: /^graphql$/, replacement: fileURLToPath(new URL('./node_modules/graphql/index.js', import.meta.url)) }],
  },
  test: {
    // CI asks for a JSON report beside the console output (.ci/run prints one summary line from it).
    reporters: process.env.VITEST_JSON_DIR ? ['default', ['json', { outputFile: `${process.env.VITEST_JSON_DIR}/vitest.json` }]] : ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'backend',
          include: ['test/**/*.test.ts'],
          exclude: [...BLOG_TESTS, 'node_modules/**'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          setupFiles: ['test/setup.ts'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'blog',
          include: BLOG_TESTS,
          globalSetup: ['test/integration/blog-global-setup.ts'],
          setupFiles: ['test/setup.ts'],
          pool: 'forks',
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
