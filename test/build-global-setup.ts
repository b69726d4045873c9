/** Global setup: builds the spawned processes' entries (test/helpers/built-main.ts) when their sources changed. */
import { buildIfStale, DIST_ENTRIES } from '../scripts/build';
import { TEST_DIST, TEST_ENTRIES } from './helpers/built-main';

export default async function setup(): Promise<void> {
  await buildIfStale({ outdir: TEST_DIST, entries: { ...DIST_ENTRIES, ...TEST_ENTRIES } });
}
