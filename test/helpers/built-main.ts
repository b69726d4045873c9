/**
 * The processes tests spawn run the built entry, as `npm start` runs dist/main.js: esbuild's bundle
 * of the same sources (scripts/build.ts), built once per run by test/build-global-setup.ts into its
 * own directory (a running `npm start` keeps its dist/). A start costs about a third of the CPU of
 * `node --import tsx src/main.ts`, and the suite starts dozens.
 */
import path from 'node:path';
import { OPERATOR_ENTRIES } from '../../scripts/build';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Inside the repository, so the built files find node_modules as dist/ does. */
export const TEST_DIST = path.join(ROOT, '.test-dist');
/** Node arguments that run one built entry (`main`, `blog-migrate`, …: scripts/build.ts's DIST_ENTRIES and TEST_ENTRIES below). */
export const builtNodeArgs = (name: string): string[] => ['--enable-source-maps', path.join(TEST_DIST, `${name}.js`)];
/** Node arguments that run src/main.ts built. */
export const BUILT_MAIN_ARGS: readonly string[] = builtNodeArgs('main');
/**
 * Scripts and test entries built beside main.js (test/build-global-setup.ts), by output name: the
 * scripts tests run as an operator would, built as production builds its own (about a third of the
 * CPU of a start under tsx).
 */
export const TEST_ENTRIES = {
  'api-entry-edge': 'test/fixtures/api-entry-edge.ts',
  'api-entry-with-blog-policy': 'test/fixtures/api-entry-with-blog-policy.ts',
  'api-entry-with-slow-routes': 'test/fixtures/api-entry-with-slow-routes.ts',
  'blog-lifecycle-cycles': 'test/fixtures/blog-lifecycle-cycles.ts',
  ...OPERATOR_ENTRIES,
} as const;
/** A built test entry, as `spawnMain` takes it. */
export const builtTestEntry = (name: keyof typeof TEST_ENTRIES): string => path.join(TEST_DIST, `${name}.js`);
/** Node arguments that run one of TEST_ENTRIES' sources (a path from the repository root) built. */
export function builtScriptArgs(source: (typeof TEST_ENTRIES)[keyof typeof TEST_ENTRIES]): string[] {
  const name = Object.keys(TEST_ENTRIES).find((key) => TEST_ENTRIES[key as keyof typeof TEST_ENTRIES] === source)!;
  return builtNodeArgs(name);
}
