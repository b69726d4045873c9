import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import { BLOG_TESTS, CONTAINER_TESTS, SOLO_TESTS } from './test/schedule';
import { PairingSequencer } from './test/sequencer';

/**
 * One `vitest run` runs both suites as projects and reports each, even when one fails:
 * `backend` first (three files at a time), then `backend-solo` and `blog` together, one file of each at a
 * time (test/schedule.ts), then `containers` (the image built and run; skipped without Docker, PostgreSQL
 * and Redis). The blog's global setup builds the Next app once and starts a mainnet and a
 * testnet blog server in the background, while the backend files run. `--project blog` runs one suite.
 */
export default defineConfig({
  resolve: {
    // One copy of graphql: the ESM entry, or type-graphql and Apollo see different classes.
    alias: [{ find: /^graphql$/, replacement: fileURLToPath(new URL('./node_modules/graphql/index.js', import.meta.url)) }],
  },
  test: {
    sequence: { sequencer: PairingSequencer },
    // CI asks for a JSON report beside the console output (.ci/run prints one summary line from it).
    reporters: process.env.VITEST_JSON_DIR ? ['default', ['json', { outputFile: `${process.env.VITEST_JSON_DIR}/vitest.json` }]] : ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'backend',
          include: ['test/**/*.test.ts'],
          exclude: [...BLOG_TESTS, ...SOLO_TESTS, ...CONTAINER_TESTS, 'node_modules/**'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          // Three files at a time on the 2-core CI machine: most wait on PostgreSQL, Redis, sockets and the
          // processes they start (two kept the cores 1.4–1.8 busy; three, 1.7–1.9).
          maxWorkers: 3,
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
          // The group's two workers; test/solo-setup.ts lets one solo file run at a time.
          maxWorkers: 2,
          isolate: false,
          globalSetup: ['test/build-global-setup.ts'],
          setupFiles: ['test/setup.ts', 'test/solo-setup.ts'],
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
          // The solo files' group; test/blog/blog-ready.ts lets one blog file run at a time.
          maxWorkers: 2,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'containers',
          include: CONTAINER_TESTS,
          // The image build (minutes on a first run, seconds from Docker's layer cache) is a hook.
          testTimeout: 180_000,
          hookTimeout: 900_000,
          pool: 'forks',
          // Last and alone: the containers share the host's network, PostgreSQL and Redis, and a
          // build takes both cores.
          maxWorkers: 1,
          isolate: false,
          globalSetup: ['test/build-global-setup.ts'],
          setupFiles: ['test/setup.ts'],
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
