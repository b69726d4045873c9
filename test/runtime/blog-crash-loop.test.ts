// A crash-looping blog process ends the platform: the real scripts/blog-serve.ts under the blog
// role's supervisor, whose migrations fail every time (no Next build needed, so not in the blog suite).
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtTestEntry } from '../helpers/built-main';
import { migratedDataDir } from '../helpers/db';
import { logLines } from '../helpers/log-lines';
import { spawnMain, type SpawnedApi } from '../helpers/process';
import { freePort } from '../helpers/store';

const PAYLOAD_SECRET = 'supervisor-test-payload-secret-0123456789';

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
        builtTestEntry('api-entry-with-blog-policy'),
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
