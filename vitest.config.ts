import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const BLOG_TESTS = ['test/blog/blog-*.test.ts', 'test/e2e/blog-*.test.ts'];
/**
 * Files that start several processes, kill them or measure latency under load: they run one at a
 * time after the rest (project `backend-solo`), so a neighbour's CPU never decides their outcome.
 */
const SOLO_TESTS = [
  'test/runtime/edge-cluster.test.ts',
  'test/runtime/edge-store-outage.test.ts',
  'test/runtime/npm-signals.test.ts',
  'test/runtime/edge-kill.test.ts',
  'test/nameservice/nameservice-issuance.test.ts',
  'test/giveaways/giveaway-settlement.test.ts',
  'test/indexer/indexer-kill.test.ts',
  'test/indexer/indexer-leader.test.ts',
  'test/indexer/indexer-status.test.ts',
  'test/gateway/gateway-replicas.test.ts',
  'test/api/api-replicas.test.ts',
  'test/api/api-replicas-activity.test.ts',
  'test/api/api-readiness.test.ts',
  'test/api/api-store-outage.test.ts',
  'test/db/db-outage.test.ts',
  'test/runtime/shutdown.test.ts',
  'test/graphql/graphql-pathological.test.ts',
  'test/store/store-managed-redis.test.ts',
  'test/gifts/gifts-load.test.ts',
  // real per-second cron schedules on two replicas
  'test/prices/prices-poll.test.ts',
  'test/ops/jobs-schedules.test.ts',
  // spawned processes: a port conflict must end within 3 s
  'test/runtime/startup-problems.test.ts',
];

/**
 * One `vitest run` runs both suites as projects and reports each, even when one fails:
 * `backend` first (two files at a time), then `backend-solo` (one at a time), then `blog` (its files run
 * one at a time). The blog's global setup builds the Next app once and starts a mainnet and a testnet
 * blog server in the background, while the backend files run. `--project blog` runs one suite.
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
          exclude: [...BLOG_TESTS, ...SOLO_TESTS, 'node_modules/**'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          // Two files at a time on the 2-core CI machine: most wait on PostgreSQL, Redis and sockets.
          maxWorkers: 2,
          // Each worker keeps its module cache from file to file: the app's imports cost about 2 s of
          // CPU per file otherwise. Test files share no state through modules (every test builds its
          // own runtime, database and store prefix).
          isolate: false,
          globalSetup: ['test/build-global-setup.ts'],
          setupFiles: ['test/setup.ts'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'backend-solo',
          include: SOLO_TESTS,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          fileParallelism: false,
          isolate: false,
          globalSetup: ['test/build-global-setup.ts'],
          setupFiles: ['test/setup.ts'],
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'blog',
          include: BLOG_TESTS,
          globalSetup: ['test/build-global-setup.ts', 'test/blog/blog-global-setup.ts'],
          setupFiles: ['test/setup.ts', 'test/blog/blog-ready.ts'],
          pool: 'forks',
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
