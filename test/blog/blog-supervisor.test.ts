// The blog role under supervision, in real processes: `src/main.ts --role api,blog` runs the
// real scripts/blog-serve.ts (migrations, then `next start`). The restart test needs a Next
// build of the blog (blog/.next or the blog suite's blog/.next/test-mainnet); it never builds one.
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlogPostsDocument } from '../../src/generated/graphql';
import { gql } from '../helpers/client';
import { createScratchDatabase, migratedDataDir, postgresUrl, type ScratchDatabase } from '../helpers/db';
import { spawnMain, type SpawnedApi } from '../helpers/process';
import { freePort, waitFor } from '../helpers/store';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BUILD = ['.next/test-mainnet', '.next'].find((dist) => existsSync(path.join(ROOT, 'blog', dist, 'BUILD_ID')));
const PAYLOAD_SECRET = 'supervisor-test-payload-secret-0123456789';

interface LogLine {
  msg?: string;
  pid?: number;
  supervised?: string;
  [key: string]: unknown;
}

/** The JSON log lines of a process's output (the blog's own output is interleaved as plain text). */
function logLines(output: string): LogLine[] {
  return output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as LogLine];
      } catch {
        return [];
      }
    });
}

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

// In the blog project (vitest.config.ts) the global setup has built the site, so a missing build is a failure, never a skip.
if (!BUILD) throw new Error('blog-supervisor: no Next build in blog/.next or blog/.next/test-mainnet (run it in the blog suite)');

describe(`the supervised blog process (real Next server from blog/${BUILD})`, () => {
  let api: SpawnedApi;
  let scratch: ScratchDatabase | null = null;
  let dataDir: string;
  let distCopy: string;
  let blogPort: number;

  beforeAll(async () => {
    // A private copy of the build: `next start` writes revalidated pages into its dist dir.
    const dist = path.join(ROOT, 'blog', BUILD!);
    distCopy = `.next/test-supervisor-${process.pid}`;
    const copy = path.join(ROOT, 'blog', distCopy);
    for (const entry of readdirSync(dist)) if (entry !== 'cache') cpSync(path.join(dist, entry), path.join(copy, entry), { recursive: true });
    dataDir = await migratedDataDir('supervisor-blog-');
    const serverUrl = postgresUrl();
    scratch = serverUrl ? await createScratchDatabase(serverUrl) : null;
    blogPort = await freePort();
    api = await spawnMain(
      ['--role', 'api,blog'],
      {
        LOG_LEVEL: 'info',
        DATA_DIR: dataDir,
        DATABASE_URL: scratch?.url ?? '',
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
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    if (distCopy) rmSync(path.join(ROOT, 'blog', distCopy), { recursive: true, force: true });
  });

  it('restarts a killed blog process while the API keeps answering, reports it in logs and metrics, and stops it with the platform', async () => {
    const blogUrl = `http://127.0.0.1:${blogPort}/blog/robots.txt`;
    const apiUrl = api.url.replace('localhost', '127.0.0.1');
    await waitFor(() => answers(blogUrl), 300_000, 'the blog to serve (migrations + next start)');
    const [first] = blogStarts(api);
    expect(first?.pid).toBeGreaterThan(0);
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

describe('a crash-looping blog process ends the platform', () => {
  it('exits 69 with a clear error after the configured number of blog exits (real blog-serve, migrations refused)', async () => {
    const dataDir = await migratedDataDir('supervisor-crash-');
    // A directory where the blog's SQLite file belongs: its migrations fail and blog-serve exits 1,
    // every time. (An unreachable BLOG_DATABASE_URL no longer gets this far: start-up refuses it, exit 69.)
    mkdirSync(path.join(dataDir, 'blog.db'));
    let api: SpawnedApi | null = null;
    try {
      api = await spawnMain(
        ['--role', 'api,blog'],
        {
          LOG_LEVEL: 'info',
          DATA_DIR: dataDir,
          CACHE_STORE: 'memory',
          BLOG_PORT: String(await freePort()),
          PAYLOAD_SECRET,
        },
        120_000,
        // Its policy: a crash loop is 3 exits within 10 minutes, 100 ms backoff.
        'test/fixtures/api-entry-with-blog-policy.ts',
      );
      const proc = api;
      const code = await new Promise<number | null>((resolve) => (proc.child.exitCode !== null ? resolve(proc.child.exitCode) : proc.child.once('exit', (c) => resolve(c))));
      expect(code).toBe(69);
      const out = api.output();
      expect(out).toContain('blog: crash loop, the process exited 3 times within 600 s (last: exit code 1); not restarting it');
      expect(out).toMatch(/blog: migrations failed \(exit 1\)/);
      expect(logLines(out).filter((l) => l.msg === 'blog: process started')).toHaveLength(3);
      expect(logLines(out).find((l) => l.msg === 'stopped')).toMatchObject({ reason: 'blog crash loop', exitCode: 69 });
    } finally {
      await api?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 600_000);
});
