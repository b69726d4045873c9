import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

/**
 * Blog suite: builds the Next app once (global setup), starts a mainnet and a testnet
 * server from that build, then runs the blog integration and browser tests one file at a time.
 * Run with `npm run blog:test`.
 */
export default defineConfig({
  resolve: {
    // One copy of graphql (as in vitest.config.ts): the backend's API is started by some blog tests.
    alias: [{ find: /^graphql$/, replacement: fileURLToPath(new URL('./node_modules/graphql/index.js', import.meta.url)) }],
  },
  test: {
    include: ['test/integration/blog-*.test.ts', 'test/e2e/blog-*.test.ts'],
    globalSetup: ['test/integration/blog-global-setup.ts'],
    setupFiles: ['test/setup.ts'],
    // Same report convention as vitest.config.ts: .ci/run reads $VITEST_JSON_DIR/blog.json.
    reporters: process.env.VITEST_JSON_DIR ? ['default', ['json', { outputFile: `${process.env.VITEST_JSON_DIR}/blog.json` }]] : ['default'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
})
