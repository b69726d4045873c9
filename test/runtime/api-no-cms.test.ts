/**
 * The API process loads no CMS: `src/main.ts --role api,indexer,jobs` (everything but the blog
 * process, in one process, as `npm start` runs it) is started with a hook that records every
 * module it loads (test/fixtures/record-module-loads.ts: ESM through a module hook, CommonJS from
 * require's cache). After serving the blog reads and a partner delivery (the paths that used to
 * load Payload on first use; the blog process is absent here, so they answer SERVICE_UNAVAILABLE),
 * nothing under node_modules/payload, node_modules/@payloadcms, node_modules/next, cms/ or blog/
 * was loaded. `npm run check:deps` (rule no-cms-in-the-api-process) keeps src/ from importing them.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BlogPostDocument, BlogPostsDocument } from '../../src/generated/graphql';
import { gql } from '../helpers/client';
import { freePort, waitFor } from '../helpers/store';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SECRET = 'api-no-cms-webhook-secret-0123456789';
const work = mkdtempSync(path.join(tmpdir(), 'api-no-cms-'));

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the API process', () => {
  it('serves the blog reads and the partner webhook without loading Payload, Next, cms/ or blog/', async () => {
    const records = path.join(work, 'loads');
    mkdirSync(records);
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', './test/fixtures/record-module-loads.ts', 'src/main.ts', '--role', 'api,indexer,jobs'], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
        'GENERAL.PORT': '0',
        DATA_DIR: path.join(work, 'data'),
        DATABASE_URL: '',
        CACHE_STORE: 'memory',
        WEBHOOK_SECRET: SECRET,
        // Nothing listens there: the blog process is not part of this test.
        BLOG_PORT: String(await freePort()),
        BLOG_UPSTREAM_URL: '',
        BLOG_CMS_URL: '',
        RECORD_MODULE_LOADS: records,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await waitFor(() => /"msg":"started"/.test(out) || child.exitCode !== null, 90_000, 'the API to listen');
      const url = `http://127.0.0.1:${/"url":"http:\/\/[^"]+:(\d+)"[^\n]*"msg":"started"/.exec(out)![1]}`;

      const list = await gql(url, BlogPostsDocument, { page: 1, limit: 5 });
      expect(list.body.errors?.[0]?.extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { retryAfterSeconds: 5 } });
      const one = await gql(url, BlogPostDocument, { slug: 'any-post' });
      expect(one.body.errors?.[0]?.extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      const delivery = await fetch(`${url}/api/blog/webhooks/contentpartner`, {
        method: 'POST',
        headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
        body: JSON.stringify({ event: 'webhook.test', delivery_id: 'no-cms-1' }),
      });
      expect(delivery.status).toBe(503);
      expect((await delivery.json()).error.code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);

    const loaded = readFileSync(path.join(records, `${child.pid}.txt`), 'utf8').split('\n');
    // The recording works: the transports and the blog client were loaded through it.
    expect(loaded.some((u) => u.includes('/node_modules/fastify/'))).toBe(true);
    expect(loaded.some((u) => u.endsWith('/src/services/blog/service.ts'))).toBe(true);
    const cms = loaded.filter((u) => /\/node_modules\/(payload|@payloadcms\/[^/]+|next)\//.test(u) || u.startsWith(`file://${ROOT}/cms/`) || u.startsWith(`file://${ROOT}/blog/`));
    expect(cms).toEqual([]);
  }, 120_000);
});
