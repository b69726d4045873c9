// The blog role under supervision, in real processes: `src/main.ts --role api,blog` runs the
// real scripts/blog-serve.ts (migrations, then `next start`) on a copy of the blog suite's Next
// build. A crash-looping blog process: test/runtime/blog-crash-loop.test.ts.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlogPostsDocument } from '../../src/generated/graphql';
import { gql } from '../helpers/client';
import { migratedTarget, type MigratedTarget } from '../helpers/db';
import { TEST_DIST } from '../helpers/built-main';
import { spawnMain, type SpawnedApi } from '../helpers/process';
import { freePort, waitFor } from '../helpers/store';
import { logLines } from '../helpers/log-lines';
import { MAIN_DIST } from './blog-global-setup';
import { copyBuild, ROOT } from './blog-server';

const PAYLOAD_SECRET = 'supervisor-test-payload-secret-0123456789';

const blogStarts = (api: SpawnedApi) => logLines(api.output()).filter((l) => l.msg === 'blog: process started');

const groupAlive = (pid: number): boolean => {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}


describe(`the supervised blog process (real Next server from blog/${MAIN_DIST})`, () => {
  let api: SpawnedApi;
  let target: MigratedTarget;
  let distCopy: string;
  let blogPort: number;

  beforeAll(async () => {
    // A private copy of the build: `next start` writes revalidated pages into its dist dir.
    distCopy = `.next/test-supervisor-${process.pid}`;
    copyBuild(MAIN_DIST, distCopy);
    target = await migratedTarget('supervisor-blog-');
    blogPort = await freePort();
    api = await spawnMain(
      ['--role', 'api,blog'],
      {
        LOG_LEVEL: 'info',
        ...target.env,
        CACHE_STORE: 'memory',
        BLOG_PORT: String(blogPort),
        BLOG_DIST_DIR: distCopy,
        PAYLOAD_SECRET,
        WEBHOOK_SECRET: 'supervisor-test-webhook-secret-0123456789',
      },
      120_000,
    );
  }, 180_000);
  afterAll(async () => {
    await api?.stop();
    await target?.cleanup();
    if (distCopy) rmSync(path.join(ROOT, 'blog', distCopy), { recursive: true, force: true });
  });

  it('restarts a killed blog process while the API keeps answering, reports it in logs and metrics, and stops it with the platform', async () => {
    const blogUrl = `http://127.0.0.1:${blogPort}/blog/robots.txt`;
    const apiUrl = api.url.replace('localhost', '127.0.0.1');
    await waitFor(() => answers(blogUrl), 300_000, 'the blog to serve (migrations + next start)');
    const [first] = blogStarts(api);
    expect(first?.pid).toBeGreaterThan(0);
    // Started built as the platform is (production runs dist/): blog-serve.js beside main.js, no tsx.
    const command = readFileSync(`/proc/${first!.pid}/cmdline`, 'utf8').split('\0');
    expect(command).toContain(path.join(TEST_DIST, 'blog-serve.js'));
    expect(command.join(' ')).not.toContain('tsx');
    expect(api.output().indexOf('blog: migrations applied')).toBeGreaterThan(-1);
    // The API reads the blog from the blog process (it loads no CMS itself).
    const listed = async () => (await gql(apiUrl, BlogPostsDocument, { page: 1, limit: 5 })).body;
    let read = await listed();
    await waitFor(async () => (read = await listed()).data?.blogPosts !== undefined, 60_000, 'blogPosts through the blog process');
    expect(read.errors).toBeUndefined();

    // The API is polled throughout: it must never fail while the blog is down and restarting.
    const health: number[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        health.push(await fetch(`${apiUrl}/api/health`).then((r) => r.status, () => 0));
        await new Promise((r) => setTimeout(r, 100));
      }
    })();

    process.kill(first!.pid!, 'SIGKILL');
    await waitFor(() => blogStarts(api).length === 2, 30_000, 'the supervisor to start the blog again');
    // While the blog restarts, the API's blog reads keep their last answer.
    expect(await listed()).toEqual(read);
    const second = blogStarts(api)[1]!;
    expect(second.pid).not.toBe(first!.pid);
    const exitLine = logLines(api.output()).find((l) => l.msg?.startsWith('blog: process exited unexpectedly'));
    expect(exitLine).toMatchObject({ supervised: 'blog', signal: 'SIGKILL', delayMs: 1000 });
    await waitFor(() => answers(blogUrl), 300_000, 'the restarted blog to serve');
    polling = false;
    await poller;
    expect(health.length).toBeGreaterThan(0);
    expect(health.filter((s) => s !== 200)).toEqual([]);

    const metrics = await fetch(`${apiUrl}/metrics`).then((r) => r.text());
    expect(metrics).toMatch(/^blog_process_up 1$/m);
    expect(metrics).toMatch(/^blog_process_restarts_total 1$/m);

    // SIGTERM: the platform exits 0 and takes the blog's whole process group with it.
    const exited = new Promise<number | null>((resolve) => api.child.once('exit', (code) => resolve(code)));
    api.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await waitFor(() => !groupAlive(second.pid!), 10_000, 'the blog process group to be gone');
    expect(await answers(blogUrl)).toBe(false);
  }, 900_000);
});
