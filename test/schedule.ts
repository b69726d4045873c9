/**
 * Which test files share the machine with which (vitest.config.ts and the exclusive-file setup).
 *
 * The backend files run three at a time. Then the solo files and the blog files run in one group of two
 * workers: a solo file beside a blog file, never two solo or two blog files at once (each holds its
 * class's lock, test/helpers/exclusive.ts), except the alone and any-lane files below. Both kinds spend
 * most of their time waiting on processes they start, so a pair keeps the two cores about as busy as the
 * backend files do.
 */
import path from 'node:path';

export const BLOG_TESTS = ['test/blog/blog-*.test.ts', 'test/e2e/blog-*.test.ts'];

/** The image built and run (test/helpers/containers.ts): a project of its own, last, one file at a time. */
export const CONTAINER_TESTS = ['test/containers/**/*.test.ts'];

/**
 * Files that start several processes, kill them or measure latency under load: never beside a backend
 * file, and never two at once unless both are any-lane files, so a neighbour's CPU never decides their
 * outcome.
 */
export const SOLO_TESTS = [
  'test/runtime/edge-cluster.test.ts',
  // start:cluster, the fixture chain and Debian's Prometheus
  'test/observability/prometheus.test.ts',
  'test/runtime/edge-store-outage.test.ts',
  'test/runtime/edge-network-faults.test.ts',
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
  'test/api/api-store-frozen.test.ts',
  'test/db/db-outage.test.ts',
  'test/runtime/shutdown.test.ts',
  'test/graphql/graphql-pathological.test.ts',
  'test/store/store-managed-redis.test.ts',
  'test/gifts/gifts-load.test.ts',
  // real per-second cron schedules on two replicas
  'test/prices/prices-poll.test.ts',
  'test/system/jobs-schedules.test.ts',
  // spawned processes: a port conflict must end within 3 s
  'test/runtime/startup-problems.test.ts',
];

/** Files that hold the whole machine (both locks): load generators and CPU-time bounds per request. */
export const ALONE_TESTS = ['test/runtime/edge-cluster.test.ts', 'test/graphql/graphql-pathological.test.ts', 'test/gifts/gifts-load.test.ts'];

/**
 * Files that take whichever lock is free: they run beside any file but an alone one, and two of them
 * may run together.
 */
export const ANY_LANE_TESTS = [
  // blog files that use neither the suite's blog servers nor its CMS database (their own processes,
  // data directories and databases, or none)
  'test/blog/blog-budget.test.ts',
  'test/blog/blog-defaults.test.ts',
  'test/blog/blog-feed.test.ts',
  'test/blog/blog-index-pages.test.ts',
  'test/blog/blog-media-db.test.ts',
  'test/blog/blog-postgres.test.ts',
  'test/blog/blog-readme.test.ts',
  'test/blog/blog-supervisor.test.ts',
  // solo files that kill and restart processes but bound nothing in wall-clock time below 5 s: a
  // neighbour slows them, it does not decide their outcome
  'test/indexer/indexer-kill.test.ts',
  'test/indexer/indexer-status.test.ts',
  'test/nameservice/nameservice-issuance.test.ts',
  'test/giveaways/giveaway-settlement.test.ts',
  'test/api/api-readiness.test.ts',
  'test/api/api-replicas.test.ts',
  // solo files whose waits are all 10 s or more (a Sentinel failover, a leader takeover, an event
  // across two processes), none a bound on how fast
  'test/store/store-managed-redis.test.ts',
  'test/indexer/indexer-leader.test.ts',
  'test/api/api-replicas-activity.test.ts',
];

export type ExclusiveClass = 'solo' | 'blog';

/** Every lock of `all` (taken in this order, so no two files deadlock), or any one of `any`. */
export type LockNeed = { all: ExclusiveClass[] } | { any: ExclusiveClass[] };

const ROOT = path.resolve(import.meta.dirname, '..');

/** Whether the file at this path takes whichever lock is free (`ANY_LANE_TESTS`). */
export const takesAnyLane = (filepath: string): boolean => ANY_LANE_TESTS.includes(path.relative(ROOT, filepath));

/** The locks a file of that project holds while it runs. */
export function locksOf(filepath: string, project: ExclusiveClass): LockNeed {
  if (ALONE_TESTS.includes(path.relative(ROOT, filepath))) return { all: ['solo', 'blog'] };
  if (takesAnyLane(filepath)) return { any: ['solo', 'blog'] };
  return { all: [project] };
}
