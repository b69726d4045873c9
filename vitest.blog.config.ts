import { defineConfig } from 'vitest/config'

/**
 * Blog suite: builds the Next app once (global setup), starts a mainnet and a testnet
 * server from that build, then runs the blog integration and browser tests one file at a time.
 * Run with `npm run blog:test`.
 */
export default defineConfig({
  test: {
    include: ['test/integration/blog-*.test.ts', 'test/e2e/blog-*.test.ts'],
    globalSetup: ['test/integration/blog-global-setup.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
})
