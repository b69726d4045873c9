/** Global setup: builds the spawned processes' entry (test/helpers/built-main.ts) when its sources changed. */
import { buildIfStale } from '../scripts/build';
import { TEST_DIST } from './helpers/built-main';

export default async function setup(): Promise<void> {
  await buildIfStale({ outdir: TEST_DIST });
}
