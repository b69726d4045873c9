// The example page (examples/web/) in Chromium, bundled from the packed layout of @platform/client: two tabs log in
// with in-page keypairs, list quests with progress, hear activity, chat with each other (Socket.IO in one, graphql-ws
// in the other) and go on without a visible error after their access tokens expire and their websockets drop.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import type { Browser, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stageClientPackage } from '../../packages/client/build';
import { createClient, CreateCampaignDocument, CreateCampaignQuestDocument, memoryStorage } from '../../packages/client/src/index';
import { htmlPagePolicy } from '../../src/http/security';
import { startApi, type TestApi } from '../helpers/api';
import { haveChromium, launchChromium, watchPage } from '../helpers/browser';
import { until } from '../helpers/until';

const ROOT = path.resolve(import.meta.dirname, '../..');
const EXAMPLE = path.join(ROOT, 'examples/web');
const OPERATOR_TOKEN = 'client-example-operator-token-0123456789';
/** The shortest access token the API issues (AUTH.ACCESS_TTL_SECONDS has a minimum of 10). */
const ACCESS_TTL_SECONDS = 10;
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.map': 'application/json' };

/** The page as a frontend would ship it: esbuild bundles examples/web/main.ts with `@platform/client` resolved to the packed layout. */
async function bundleExample(outDir: string, stagedPackage: string): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  await esbuild.build({
    entryPoints: [path.join(EXAMPLE, 'main.ts')],
    outdir: outDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'chrome120',
    minify: true,
    sourcemap: true,
    // the package's own dependencies come from the repository's node_modules, as an application's would from its own
    nodePaths: [path.join(ROOT, 'node_modules')],
    plugins: [
      {
        name: 'packed-client',
        setup(build) {
          build.onResolve({ filter: /^@platform\/client$/ }, () => ({ path: path.join(stagedPackage, 'dist/index.js') }));
        },
      },
    ],
    logLevel: 'error',
  });
  for (const file of ['index.html', 'style.css']) copyFileSync(path.join(EXAMPLE, file), path.join(outDir, file));
}

describe.runIf(haveChromium())('the example page in Chromium', () => {
  let api: TestApi;
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'client-example-'));
    const staged = await stageClientPackage(path.join(dir, 'package'));
    const web = path.join(dir, 'web');
    await bundleExample(web, staged);
    api = await startApi({
      env: { 'AUTH.ACCESS_TTL_SECONDS': String(ACCESS_TTL_SECONDS), OPERATOR_TOKEN, 'HTTP.RATE_LIMIT_MAX': '10000' },
      extraRoutes: (app) => {
        const config = { securityHeaders: htmlPagePolicy({ 'default-src': ["'none'"], 'script-src': ["'self'"], 'style-src': ["'self'"], 'connect-src': ["'self'"], 'base-uri': ["'none'"] }) };
        app.get<{ Params: { file: string } }>('/example/:file', { config, schema: { hide: true } }, async (request, reply) => {
          const file = path.basename(request.params.file || 'index.html');
          const type = TYPES[path.extname(file)];
          if (!type) return reply.callNotFound();
          try {
            return reply.type(type).send(readFileSync(path.join(web, file)));
          } catch {
            return reply.callNotFound();
          }
        });
      },
    });
    // a campaign with a quest, created through the package with the operator token
    const operator = createClient({ url: api.url, auth: { storage: memoryStorage({ accessToken: OPERATOR_TOKEN, refreshToken: '' }) } });
    const slug = `example-${Date.now()}`;
    await operator.mutate(CreateCampaignDocument, { input: { slug, type: 'partner', title: 'Example campaign', startAt: new Date(Date.now() - 3600_000).toISOString(), endAt: new Date(Date.now() + 86_400_000).toISOString() } });
    await operator.mutate(CreateCampaignQuestDocument, { campaignSlug: slug, input: { title: 'Log in 2 days', xpReward: 5, timePeriod: 'weekly', evaluator: { kind: 'login_streak' }, target: '2' } });
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A tab on the example; its websockets pass through a route the test can cut (as a network drop or a deploy would). */
  async function openTab(transport: 'socket.io' | 'graphql-ws', room: string) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const watched = watchPage(page);
    const sockets: WebSocketRoute[] = [];
    const refreshes: number[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.postData()?.includes('"operationName":"RefreshTokens"')) refreshes.push(Date.now());
    });
    await page.routeWebSocket(/\/(graphql|socket\.io\/)/, (ws) => {
      ws.connectToServer();
      sockets.push(ws);
    });
    await page.goto(`${api.url}/example/index.html?transport=${transport}&room=${encodeURIComponent(room)}`);
    await page.locator('body[data-ready="true"]').waitFor({ timeout: 30_000 });
    return { page, ...watched, sockets, refreshes };
  }
  const messages = (page: Page) => page.locator('#messages li').allTextContents();
  const send = async (page: Page, text: string) => {
    await page.getByRole('textbox', { name: 'message' }).fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
  };

  it('logs in, lists quests, hears activity, chats across transports and survives an access-token expiry mid-subscription', async () => {
    const room = 'game:example';
    const a = await openTab('socket.io', room);
    const b = await openTab('graphql-ws', room);

    for (const tab of [a, b]) {
      expect(await tab.page.locator('#address').textContent()).toMatch(/^0x[0-9a-f]{64}$/);
      await tab.page.locator('#quests li[data-quest]').first().waitFor();
      expect(await tab.page.locator('#quests li[data-quest] progress').count()).toBeGreaterThan(0);
    }
    // the page loaded only the transport it uses
    expect(a.requested.some((u) => u.includes('/socket.io/'))).toBe(true);
    expect(b.requested.some((u) => u.includes('/socket.io/'))).toBe(false);

    await until(async () => (await api.services.presence.counts(room)).online >= 2, 'both tabs in the room');
    await send(a.page, 'hello from socket.io');
    await send(b.page, 'hello from graphql-ws');
    for (const tab of [a, b]) await until(async () => (await messages(tab.page)).filter((m) => /hello from (socket\.io|graphql-ws)/.test(m)).length === 2, 'both messages in each tab');

    await until(
      async () => {
        await api.services.activity.publish({ kind: 'bet', player: '0x1', summary: 'a big win', at: new Date() });
        return (await a.page.locator('#activity li').count()) > 0 && (await b.page.locator('#activity li').count()) > 0;
      },
      'activity in both tabs',
      15_000,
      250,
    );

    // the access tokens expire while the subscriptions run; then every websocket drops and reconnects
    const loggedInAt = Date.now();
    await until(() => Date.now() > loggedInAt + ACCESS_TTL_SECONDS * 1000 + 1000, 'the access tokens to expire', (ACCESS_TTL_SECONDS + 5) * 1000, 250);
    for (const tab of [a, b]) for (const ws of tab.sockets.splice(0)) await ws.close({ code: 1012, reason: 'Service restart' });
    await until(async () => (await api.services.presence.counts(room)).online >= 2 && a.sockets.length > 0 && b.sockets.length > 0, 'both tabs back in the room', 30_000);

    // each tab reconnected with a refreshed token (the one it had is refused now)
    for (const tab of [a, b]) await until(() => tab.refreshes.some((at) => at > loggedInAt), 'each tab to refresh its token for the new handshake', 20_000);
    await send(b.page, 'after the expiry, graphql-ws');
    await send(a.page, 'after the expiry, socket.io');
    for (const tab of [a, b]) await until(async () => (await messages(tab.page)).filter((m) => m.includes('after the expiry')).length === 2, 'the messages after the expiry in each tab', 20_000);
    // a query after the expiry refreshes the token first
    for (const tab of [a, b]) await tab.page.evaluate(() => (window as unknown as { example: { refreshQuests(): Promise<void> } }).example.refreshQuests());

    for (const tab of [a, b]) {
      expect(await tab.page.locator('#errors').isHidden()).toBe(true);
      expect(tab.problems).toEqual([]);
    }
    mkdirSync(path.join(ROOT, 'test-artifacts'), { recursive: true });
    await b.page.screenshot({ path: path.join(ROOT, 'test-artifacts/client-example.png'), fullPage: true });
  }, 120_000);
});
