/**
 * Cross-process locks between test files that share a worker group (test/schedule.ts): a file holds its
 * locks from its first hook to its last. The lock files live in the checkout's test cache, so a worker
 * that dies leaves a lock that goes stale (no update for 30 s) and is taken over.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { afterAll, beforeAll } from 'vitest';
import { locksOf, type ExclusiveClass } from '../schedule';
import { until } from './until';

const LOCK_DIR = path.resolve(import.meta.dirname, '../../node_modules/.cache/platform-tests/locks');
/** Waiting for the other file of the same class: the longest solo file runs about 75 s in CI. */
const WAIT_MS = 10 * 60_000;
const POLL_MS = 100;

type Release = () => Promise<void>;

/** The lock, or undefined while another file holds it. */
const tryLock = (name: ExclusiveClass): Promise<Release | undefined> =>
  lockfile.lock(path.join(LOCK_DIR, name), { realpath: false, stale: 30_000 }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ELOCKED') return undefined;
    throw err;
  });

/** The first of `names` that is free, polling; never holds one while waiting for another. */
async function holdAny(names: ExclusiveClass[]): Promise<Release> {
  mkdirSync(LOCK_DIR, { recursive: true });
  return until(
    async () => {
      for (const name of names) {
        const release = await tryLock(name);
        if (release) return release;
      }
      return undefined;
    },
    `one of the test locks ${names.join(', ')}`,
    WAIT_MS,
    POLL_MS,
  );
}

/** Registers hooks that hold this file's locks (test/schedule.ts) while it runs. */
export function runExclusively(project: ExclusiveClass): void {
  const releases: Release[] = [];
  // Vitest reads the first parameter as a fixtures pattern: it must be destructured, and none is used.
  // eslint-disable-next-line no-empty-pattern
  beforeAll(async ({}, suite) => {
    const need = locksOf(suite.file.filepath, project);
    if ('any' in need) releases.push(await holdAny(need.any));
    else for (const name of need.all) releases.unshift(await holdAny([name]));
  }, WAIT_MS + 5_000);
  afterAll(async () => {
    for (const release of releases.splice(0)) await release();
  });
}
