/**
 * The development GraphQL IDE (src/graphql/ide): GraphiQL from the installed package, served by
 * the API on GET /graphql to a browser, working offline; off under NODE_ENV=production.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../helpers/api';
import { loginWithKeypair } from '../helpers/auth';
import { testEnv } from '../helpers/env';
import { until } from '../helpers/until';

const CHROMIUM = '/usr/bin/chromium';
const asHtml = { headers: { accept: 'text/html' } };

function cspOf(res: Response): Record<string, string[]> {
  const csp = res.headers.get('content-security-policy') ?? '';
  return Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
}

describe('GraphiQL in development', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => api?.close());

  it('answers a browser on GET /graphql with a page loading only this server, under a policy allowing nothing else', async () => {
    const res = await fetch(`${api.url}/graphql`, asHtml);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain('<script type="module" src="graphql/ide/graphiql.js">');
    expect(html).not.toMatch(/https?:\/\//);
    const csp = cspOf(res);
    expect(csp['default-src']).toEqual(["'none'"]);
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['connect-src']).toEqual(["'self'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    const script = await fetch(`${api.url}/graphql/ide/graphiql.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(await script.text()).toContain('graphiql');
    expect((await fetch(`${api.url}/graphql/ide/other.js`)).status).toBe(404);
    // A GraphQL client still gets GraphQL on the same path.
    const query = await fetch(`${api.url}/graphql?query=${encodeURIComponent('{ __typename }')}`, { headers: { 'apollo-require-preflight': '1' } });
    expect(await query.json()).toEqual({ data: { __typename: 'Query' } });
  });

  const haveChromium = existsSync(CHROMIUM);
  if (!haveChromium && testEnv.requireServices) throw new Error(`REQUIRE_SERVICES=1 but ${CHROMIUM} is missing`);
  describe.skipIf(!haveChromium)('in headless Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
      });
    });
    afterAll(async () => browser?.close());

    /** Sets a GraphiQL editor's text through its CodeMirror, as typing would. */
    const setEditor = (page: Page, selector: string, text: string) =>
      page.locator(`${selector} .CodeMirror`).first().evaluate((el, value) => (el as unknown as { CodeMirror: { setValue(v: string): void } }).CodeMirror.setValue(value), text);
    const response = (page: Page) => page.locator('.result-window').textContent();
    /** Runs the editor's operation once GraphiQL has read its name from the edit (it does so after a debounce; the tab shows it). */
    const run = async (page: Page, operationName: string) => {
      await page.locator('#graphiql-session-tab-0', { hasText: operationName }).waitFor({ timeout: 5_000 });
      await page.locator('.graphiql-execute-button').click();
    };

    it('runs a query with the edited auth header, and a subscription over graphql-ws, with nothing leaving loopback', async () => {
      const wallet = await loginWithKeypair(api.url);
      const page = await browser.newPage();
      const requested: string[] = [];
      const sockets: string[] = [];
      const problems: string[] = [];
      page.on('request', (r) => requested.push(r.url()));
      page.on('websocket', (ws) => sockets.push(ws.url()));
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console: ${m.text()}`);
      });
      await page.goto(`${api.url}/graphql`);
      await page.locator('.graphiql-query-editor .CodeMirror').waitFor({ timeout: 20_000 });

      // The headers editor: the token goes with HTTP requests and the graphql-ws handshake alike.
      await page.getByRole('button', { name: 'Headers' }).click();
      await setEditor(page, '.graphiql-editor-tool .graphiql-editor:not(.hidden)', JSON.stringify({ Authorization: `Bearer ${wallet.accessToken}` }));
      await setEditor(page, '.graphiql-query-editor', 'query Me { me { walletAddress } }');
      await run(page, 'Me');
      await until(async () => (await response(page))?.includes(wallet.address), 'the caller’s wallet in the result pane', 15_000);

      await setEditor(page, '.graphiql-query-editor', 'subscription Feed { activity { kind summary } }');
      await run(page, 'Feed');
      // Published until the subscriber (connected asynchronously) shows one: no guess at when it subscribed.
      await until(
        async () => {
          await api.services.activity.publish({ kind: 'bet', player: wallet.address, summary: 'seen in GraphiQL', at: new Date() });
          return (await response(page))?.includes('seen in GraphiQL');
        },
        'the published activity in the result pane',
        15_000,
        200,
      );

      expect(problems).toEqual([]);
      expect(requested.filter((u) => !u.startsWith(`${api.url}/`) && !u.startsWith('data:'))).toEqual([]);
      expect(requested).toContain(`${api.url}/graphql/ide/graphiql.js`);
      expect(sockets).toEqual([api.wsUrl]);
      await page.close();
    }, 40_000);
  });
});

describe('GraphQL IDE under NODE_ENV=production', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ env: { NODE_ENV: 'production', JWT_SECRET: 'ide-test-jwt-secret-0123456789abcdef', PAYLOAD_SECRET: 'ide-test-payload-secret' } });
  });
  afterAll(async () => api?.close());

  it('keeps Apollo’s landing page and its policy, and serves no IDE assets', async () => {
    const res = await fetch(`${api.url}/graphql`, asHtml);
    expect(res.status).toBe(200);
    expect(await res.text()).not.toContain('graphql/ide/');
    expect(cspOf(res)['script-src']).toContain('https://embeddable-sandbox.cdn.apollographql.com');
    expect((await fetch(`${api.url}/graphql/ide/graphiql.js`)).status).toBe(404);
  });
});
