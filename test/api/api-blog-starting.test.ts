/**
 * First start, as a new user meets it: the blog process is still migrating or building (here a
 * real child process that never reports `blog-migrated` and listens nowhere), while the API is up.
 * GraphQL blog reads (which the API asks the blog process for) answer SERVICE_UNAVAILABLE with a
 * retry hint instead of running into the request timeout, and `/blog/` answers 503 with
 * Retry-After instead of hanging.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createMetrics } from '../../src/observability/metrics';
import { createRuntime, type Runtime } from '../../src/runtime';
import { BlogPostsDocument } from '../../src/generated/graphql';
import { gql } from '../helpers/client';
import { createTestDb, type TestDb } from '../helpers/db';
import { captureLogger } from '../helpers/logs';
import { freePort } from '../helpers/store';

let testDb: TestDb;
let runtime: Runtime;
let work: string;

beforeAll(async () => {
  testDb = await createTestDb();
  work = mkdtempSync(path.join(tmpdir(), 'blog-starting-'));
  const config = loadConfig({
    envDir: '/nonexistent',
    env: { NODE_ENV: 'test', CACHE_STORE: 'memory', DATA_DIR: work, BLOG_PORT: String(await freePort()), WEBHOOK_SECRET: 'blog-starting-webhook-secret' },
  });
  runtime = await createRuntime(config, {
    roles: new Set(['api', 'blog']),
    logger: captureLogger({ level: 'warn' }).logger,
    metrics: createMetrics({ defaultMetrics: false }),
    version: 'test',
    db: testDb.db,
    listen: { host: '127.0.0.1', port: 0 },
    // A blog process still busy with its first migration and build.
    blog: { command: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], cwd: work, env: { NODE_ENV: 'test' } } },
  });
});

afterAll(async () => {
  await runtime?.close();
  await testDb?.cleanup();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('while the blog process is still starting', () => {
  it('blogPosts answers SERVICE_UNAVAILABLE quickly, not a request timeout', async () => {
    const started = performance.now();
    const { status, body } = await gql(runtime.url!, BlogPostsDocument, { page: 1, limit: 5 });
    const ms = performance.now() - started;
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { retryAfterSeconds: 5 } });
    expect(status).toBe(200); // a GraphQL field error: the response itself is well-formed
    // Nothing listens on the blog's port yet: answered at once, well under the 5 s request timeout (generous bound for a busy machine).
    expect(ms).toBeLessThan(4500);
  });

  it('/blog/ answers 503 SERVICE_UNAVAILABLE with Retry-After', async () => {
    const res = await fetch(`${runtime.url}/blog/`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect((await res.json()).error.code).toBe('SERVICE_UNAVAILABLE');
  });
});
