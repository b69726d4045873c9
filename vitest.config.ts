import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  resolve: {
    // One copy of graphql: the ESM entry, or type-graphql and Apollo see different classes.
    alias: [{ find: /^graphql$/, replacement: fileURLToPath(new URL('./node_modules/graphql/index.js', import.meta.url)) }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/blog-*.test.ts', 'test/integration/blog-*.test.ts', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    setupFiles: ['test/setup.ts'],
    // CI asks for a JSON report beside the console output (.ci/run sums both suites).
    reporters: process.env.VITEST_JSON_DIR ? ['default', ['json', { outputFile: `${process.env.VITEST_JSON_DIR}/main.json` }]] : ['default'],
  },
});
