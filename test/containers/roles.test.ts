// Every role run from the image as production runs it: non-root, read-only root, DATA_DIR a tmpfs,
// on this machine's PostgreSQL and Redis over the host network.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/db';
import { testEnv } from '../helpers/env';
import { chainEnv, untilIndexedAt } from '../helpers/indexer';
import { freePort } from '../helpers/store';
import { until } from '../helpers/until';
import { buildImage, type Container, needsContainers, removeAll, runContainer } from '../helpers/containers';
import { startSuiChainFixture, type SuiChainFixture } from '../fixtures/sui-chain/index.js';

const run = needsContainers();
const ROOT = path.resolve(import.meta.dirname, '../..');
const SECRETS = {
  JWT_SECRET: 'container-test-jwt-secret-0123456789abcdef',
  PAYLOAD_SECRET: 'container-test-payload-secret',
  WEBHOOK_SECRET: 'container-test-webhook-secret',
  BLOG_REVALIDATION_SECRET: 'container-test-revalidation-secret',
};

const ok = (url: string) => fetch(url, { signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false);

/** Polls until `url` answers 2xx; the seconds since `since`. */
async function readyAfter(url: string, since: number, container: Container, timeoutMs = 90_000): Promise<number> {
  await until(
    async () => {
      if (await ok(url)) return true;
      const state = await container.state();
      if (!state.running) throw new Error(`${container.name} exited ${state.exitCode}:\n${(await container.logs()).slice(-4000)}`);
      return false;
    },
    `${url} answering`,
    timeoutMs,
    50,
  );
  return (Date.now() - since) / 1000;
}

describe.runIf(run)('the image, each role as production runs it', () => {
  let db: ScratchDatabase;
  let blogDb: ScratchDatabase;
  let chain: SuiChainFixture;
  const ports = { api: 0, blog: 0, jobs: 0, indexer: 0 };
  let env: Record<string, string>;
  const figures: string[] = [];

  beforeAll(async () => {
    await buildImage();
    [db, blogDb] = await Promise.all([createScratchDatabase(testEnv.databaseUrl!), createScratchDatabase(testEnv.databaseUrl!)]);
    chain = await startSuiChainFixture({ seed: 7, events: 400 });
    for (const role of Object.keys(ports) as (keyof typeof ports)[]) ports[role] = await freePort();
    const apiOrigin = `http://127.0.0.1:${ports.api}`;
    env = {
      ...SECRETS,
      DATABASE_URL: db.url,
      BLOG_DATABASE_URL: blogDb.url,
      SHARED_STORE_URL: testEnv.redisUrl!,
      SHARED_STORE_KEY_PREFIX: `ct-${process.pid}:`,
      APP_URL: apiOrigin,
      GENERAL_PORT: String(ports.api),
      BLOG_PORT: String(ports.blog),
      // The blog in its own container: the API proxies /blog to it and forwards the webhook there.
      BLOG_UPSTREAM_URL: `http://127.0.0.1:${ports.blog}`,
      LOG_LEVEL: 'info',
    };
  }, 900_000);

  afterAll(async () => {
    await removeAll();
    await chain?.close();
    await Promise.all([db?.drop(), blogDb?.drop()]);
    if (figures.length) console.log(`container figures:\n  ${figures.join('\n  ')}`);
  });

  it('api: the first start migrates an empty database; GraphQL and REST answer; a second start is ready without migrating', async () => {
    const origin = `http://127.0.0.1:${ports.api}`;
    let since = Date.now();
    const first = await runContainer({ name: 'api-first', env });
    const firstReady = await readyAfter(`${origin}/api/health/ready`, since, first);
    expect(await first.logs()).toMatch(/migration/i);
    const gql = await fetch(`${origin}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }) });
    expect(await gql.json()).toEqual({ data: { __typename: 'Query' } });
    const quests = await fetch(`${origin}/api/quests/list`);
    expect(quests.status).toBe(200);
    expect(JSON.stringify(await quests.json())).toContain('daily-bet');
    const rss = await first.memoryMiB();
    expect(await first.stop()).toMatchObject({ exitCode: 0 });

    since = Date.now();
    const second = await runContainer({ name: 'api-second', env });
    const secondReady = await readyAfter(`${origin}/api/health/ready`, since, second);
    const logs = await second.logs();
    expect(logs).not.toMatch(/applying migration|applied \d+ migration/i);
    // The figure is a benchmark's business; this bound only catches a start that migrates or builds again.
    expect(secondReady).toBeLessThan(10);
    expect(await second.stop()).toMatchObject({ exitCode: 0 });
    figures.push(`api: first start ready in ${firstReady.toFixed(2)} s (migrations included), second in ${secondReady.toFixed(2)} s; ${rss.toFixed(0)} MiB after its first requests`);
  });

  it('blog: serves /blog/ from the image\'s own build (no build at start), and the partner webhook publishes through the API to a page', async () => {
    const since = Date.now();
    const blog = await runContainer({ name: 'blog', env, args: ['--role', 'blog'] });
    const ready = await readyAfter(`http://127.0.0.1:${ports.blog}/blog/`, since, blog);
    const blogLogs = await blog.logs();
    expect(blogLogs).not.toMatch(/building|next build/i);
    expect(blogLogs).not.toMatch(/EROFS|read-only file system/i);

    const api = await runContainer({ name: 'api-webhook', env });
    const origin = `http://127.0.0.1:${ports.api}`;
    await readyAfter(`${origin}/api/health/ready`, Date.now(), api);
    const article = JSON.parse(readFileSync(path.join(ROOT, 'docs/sample-article.json'), 'utf8')) as { article: { slug: string; title: string } };
    const delivery = await fetch(`${origin}/api/blog/webhooks/contentpartner`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${SECRETS.WEBHOOK_SECRET}` },
      body: JSON.stringify(article),
    });
    const text = await delivery.text();
    expect(delivery.status, text).toBe(201);
    expect(JSON.parse(text)).toMatchObject({ received: true, result: 'created', slug: article.article.slug });
    const page = await fetch(`${origin}/blog/posts/${article.article.slug}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(article.article.title);
    // The index page is ISR: after the publish's revalidation it lists the post (written where the build is read-only).
    await until(async () => (await (await fetch(`${origin}/blog/`)).text()).includes(article.article.title), 'the index listing the post', 15_000, 200);
    expect(await blog.logs()).not.toMatch(/EROFS|read-only file system/i);
    figures.push(`blog: ready ${ready.toFixed(2)} s after docker run (migrations of an empty database included); ${(await blog.memoryMiB()).toFixed(0)} MiB after a publish`);
    expect(await blog.stop()).toMatchObject({ exitCode: 0 });
    expect(await api.stop()).toMatchObject({ exitCode: 0 });
  });

  it('jobs and indexer: healthy on HEALTH_PORT; the indexer follows the fixture chain into PostgreSQL', async () => {
    const jobs = await runContainer({ name: 'jobs', env: { ...env, HEALTH_PORT: String(ports.jobs) }, args: ['--role', 'jobs'] });
    const indexer = await runContainer({ name: 'indexer', env: { ...env, ...chainEnv(chain), HEALTH_PORT: String(ports.indexer) }, args: ['--role', 'indexer'] });
    const since = Date.now();
    const jobsReady = await readyAfter(`http://127.0.0.1:${ports.jobs}/api/health/ready`, since, jobs);
    const indexerReady = await readyAfter(`http://127.0.0.1:${ports.indexer}/api/health/ready`, since, indexer);
    await untilIndexedAt(db.url, chain);
    figures.push(`jobs: ready in ${jobsReady.toFixed(2)} s, ${(await jobs.memoryMiB()).toFixed(0)} MiB; indexer: ready in ${indexerReady.toFixed(2)} s, ${(await indexer.memoryMiB()).toFixed(0)} MiB after indexing ${chain.events.length} events`);
    for (const c of [jobs, indexer]) expect(await c.stop(), c.name).toMatchObject({ exitCode: 0 });
  });
});
