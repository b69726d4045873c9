/**
 * The OpenAPI document and the reference page, over real HTTP: the document is valid OpenAPI
 * (a maintained validator), lists every `/api` route the app registered with schemas for
 * parameters, bodies and responses, the page loads its assets from this server only (and
 * renders the operations in headless Chromium), and Fastify's own validation of the declared
 * schemas answers in the one error shape.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../helpers/api';
import { testEnv } from '../helpers/env';

const SECRET = 'openapi-test-webhook-secret-0123456789';
const OPERATOR = 'openapi-test-operator-token-0123456789abcdef';
const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = resolve(import.meta.dirname, '../../test-artifacts');
const DOC_ROUTES = /^\/api\/(docs|openapi\.json)(\/|$)/;
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

let api: TestApi;
let doc: OpenApiDocument;

/** The parts of an OpenAPI 3.1 document this test reads (the validator checks the whole). */
interface Schema {
  $ref?: string;
  required?: string[];
  enum?: unknown[];
  properties?: Record<string, Schema>;
}
type Media = { content?: Record<string, { schema?: Schema }> };
type Response = Media & { description: string };
interface Operation {
  tags?: string[];
  parameters?: Array<{ in: string; name: string; schema?: Schema }>;
  requestBody?: Media;
  responses?: Record<string, Response>;
  security?: unknown[];
}
interface OpenApiDocument {
  paths?: Record<string, Partial<Record<(typeof HTTP_METHODS)[number], Operation>>>;
  components?: { schemas?: Record<string, Schema>; securitySchemes?: Record<string, unknown> };
}

/** Every `/api` route the app registered (HEAD routes are Fastify's automatic twins of GET). */
/**
 * Routes that share a parametric segment under different names print it as `{a}|{b}` (e.g. the
 * quest routes `…/:slug/:mode/:questKey/status` and `…/:slug/:questKey/claim`): the documented path
 * among the alternatives is the route's own spelling.
 */
function documentedSpelling(key: string): string {
  if (!key.includes('|')) return key;
  const candidates = key.split('/').reduce<string[]>((paths, segment) => paths.flatMap((p) => segment.split('|').map((alt) => `${p}/${alt}`)), ['']);
  return candidates.map((c) => c.slice(1)).find((c) => c in (doc.paths ?? {})) ?? key;
}

function registeredApiRoutes(): Map<string, Set<string>> {
  const routes = new Map<string, Set<string>>();
  // printRoutes draws a tree: a child line continues its parent's path, 4 columns deeper.
  const stack: string[] = [];
  for (const line of api.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    stack.push(m[2]!);
    const path = stack.join('');
    if (!m[3] || !path.startsWith('/api/') || DOC_ROUTES.test(path)) continue;
    const methods = m[3].split(', ').filter((x) => x !== 'HEAD');
    const key = documentedSpelling(path.replace(/:(\w+)/g, '{$1}'));
    routes.set(key, new Set([...(routes.get(key) ?? []), ...methods.map((x) => x.toLowerCase())]));
  }
  return routes;
}

function operations(): Array<{ path: string; method: string; op: Operation }> {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => item?.[method]).map((method) => ({ path, method, op: item![method]! })),
  );
}

const errorShape = (code: string) => ({ error: { code, message: expect.any(String), requestId: expect.any(String) } });

beforeAll(async () => {
  api = await startApi({ env: { WEBHOOK_SECRET: SECRET, OPERATOR_TOKEN: OPERATOR } });
  const res = await fetch(`${api.url}/api/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('application/json');
  doc = (await res.json()) as OpenApiDocument;
});
afterAll(async () => api?.close());

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('is the checked-in schema/openapi.json (the console and the client package are typed from it), but for the version', () => {
    const checkedIn = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../schema/openapi.json'), 'utf8')) as { info: { version: string } };
    const served = structuredClone(doc) as unknown as { info: { version: string } };
    expect(checkedIn.info.version).toBe('0.0.0');
    served.info.version = checkedIn.info.version;
    expect(served).toEqual(checkedIn);
  });

  it('lists every registered /api route with its methods, and nothing else', () => {
    const registered = registeredApiRoutes();
    expect(registered.size).toBeGreaterThanOrEqual(6);
    const documented = new Map(Object.entries(doc.paths ?? {}).map(([path, item]) => [path, new Set(HTTP_METHODS.filter((m) => item?.[m]))]));
    expect(documented).toEqual(registered);
    expect(Object.keys(doc.paths ?? {}).filter((p) => !p.startsWith('/api/'))).toEqual([]);
  });

  it('declares parameters, bodies and responses with schemas for every operation', () => {
    for (const { path, method, op } of operations()) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(op.tags?.length, where).toBeGreaterThan(0);
      const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const declared = op.parameters ?? [];
      expect(declared.filter((p) => p.in === 'path').map((p) => p.name).sort(), where).toEqual(pathParams.sort());
      for (const p of declared) expect(p.schema, `${where} ${p.name}`).toBeDefined();
      if (method === 'post') {
        const body = op.requestBody;
        expect(body?.content?.['application/json']?.schema, where).toBeDefined();
      }
      const responses = Object.entries(op.responses ?? {});
      // A success, or (a browser's return from an OAuth provider) a redirect…
      // …unless the operation exists only to send the caller to a websocket (426 WEBSOCKET_ONLY).
      expect(responses.some(([status]) => /^[23]/.test(status) || status === '426'), where).toBe(true);
      expect(responses.some(([status]) => status.startsWith('5')), where).toBe(true);
      for (const [status, response] of responses) {
        if (status === '204' || status.startsWith('3')) {
          expect(response.content, `${where} ${status} has no body`).toBeUndefined();
          continue;
        }
        const schema = response.content?.['application/json']?.schema;
        expect(schema, `${where} ${status}`).toBeDefined();
        if (/^[45]/.test(status)) {
          expect(schema, `${where} ${status}`).toEqual({ $ref: '#/components/schemas/ErrorResponse' });
          expect(response.description, `${where} ${status}`).toMatch(/^[A-Z_]+(, [A-Z_]+)*$/);
        }
      }
    }
    expect(operations().filter((o) => o.method === 'get' && o.path.includes('{')).every((o) => (o.op.parameters ?? []).length > 0)).toBe(true);
  });

  it('marks every route that needs the access token, and those that take it optionally', () => {
    expect(Object.keys(doc.components?.securitySchemes ?? {})).toContain('bearerAuth');
    for (const { path, method, op } of operations()) {
      const codes = Object.values(op.responses ?? {}).flatMap((r) => r.description.split(', '));
      const where = `${method.toUpperCase()} ${path}`;
      const ownScheme = (op.security ?? []).some((s) => Object.keys(s as object).some((name) => name !== 'bearerAuth'));
      if (ownScheme) continue; // the webhook secret, the operator token
      if (codes.includes('UNAUTHENTICATED')) expect(op.security, where).toEqual([{ bearerAuth: [] }]);
      else if (codes.includes('TOKEN_INVALID')) expect(op.security, where).toEqual([{}, { bearerAuth: [] }]);
    }
    expect(doc.paths?.['/api/users/me']?.get?.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths?.['/api/auth/login']?.post?.security).toBeUndefined();
  });

  it('defines the error shape once, as a component every error response references', () => {
    const errorSchema = doc.components?.schemas?.ErrorResponse;
    expect(errorSchema?.required).toEqual(['error']);
    const inner = errorSchema?.properties?.error;
    expect(Object.keys(inner?.properties ?? {}).sort()).toEqual(['code', 'details', 'message', 'requestId']);
    expect(inner?.properties?.code?.enum).toEqual(expect.arrayContaining(['VALIDATION_FAILED', 'RATE_LIMITED', 'INTERNAL']));
  });

  it('hides /graphql, /metrics and the docs routes themselves', () => {
    expect(Object.keys(doc.paths ?? {}).filter((p) => /graphql|metrics|\/docs|openapi/.test(p))).toEqual([]);
  });

  it('leaves out routes that tests and benchmarks add beside the REST plugin', async () => {
    const withExtra = await startApi({
      extraRoutes: (app) => {
        app.get('/api/test-only/echo', { schema: { response: { 200: { type: 'object', properties: { ok: { type: 'boolean' } } } } } }, async () => ({ ok: true }));
      },
    });
    try {
      expect(await (await fetch(`${withExtra.url}/api/test-only/echo`)).json()).toEqual({ ok: true });
      const extraDoc = (await (await fetch(`${withExtra.url}/api/openapi.json`)).json()) as OpenApiDocument;
      expect(Object.keys(extraDoc.paths ?? {}).sort()).toEqual(Object.keys(doc.paths ?? {}).sort());
    } finally {
      await withExtra.close();
    }
  }, 90_000);
});

describe('Fastify validates against the declared schemas', () => {
  it('answers a bad path parameter or query with VALIDATION_FAILED in the error shape', async () => {
    const tooLong = `/api/analytics/leaderboards/${'x'.repeat(101)}`; // refused by the router itself (maxParamLength)
    for (const url of ['/api/analytics/leaderboards/nope', '/api/stats/leaderboards/xp?limit=0', '/api/analytics/leaderboards/weekly_bet?week=last-week', tooLong]) {
      const res = await fetch(`${api.url}${url}`);
      expect(res.status, url).toBe(400);
      const body = await res.json();
      expect(body, url).toMatchObject(errorShape('VALIDATION_FAILED'));
      expect(body.error.details.issues.length, url).toBeGreaterThan(0);
      expect(res.headers.get('x-content-type-options'), url).toBe('nosniff');
    }
  });

  it('answers a malformed URL in the error shape, with the security headers', async () => {
    const res = await fetch(`${api.url}/api/analytics/leaderboards/%E0%A4%A`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject(errorShape('BAD_REQUEST'));
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers a good request with the documented body', async () => {
    const top = await fetch(`${api.url}/api/analytics/leaderboards/xp?limit=5`);
    expect(top.status).toBe(200);
    expect(await top.json()).toEqual({ board: 'xp', entries: [] });
    const player = await fetch(`${api.url}/api/stats/leaderboards/bet/players/0xabc`);
    expect(await player.json()).toEqual({ board: 'bet', entry: null });
    const cache = await fetch(`${api.url}/api/stats/cache`, { headers: { authorization: `Bearer ${OPERATOR}` } });
    expect(Object.keys((await cache.json()).leaderboards).sort()).toEqual(['entries', 'hits', 'misses']);
  });

  it('serializes through the response schemas without dropping a field the service returns', async () => {
    await api.db.query(`INSERT INTO xp_leaderboard (player, total_xp, vip_level) VALUES ('0xdoc1', 18446744073709551615, 3), ('0xdoc2', 7, 0)`);
    await api.services.leaderboards.invalidate();
    const top = await (await fetch(`${api.url}/api/analytics/leaderboards/xp?limit=2`)).json();
    expect(top.entries).toEqual(await api.services.leaderboards.top({ board: 'xp', limit: 2 }));
    expect(top.entries[0]).toMatchObject({ rank: 1, player: '0xdoc1', score: '18446744073709551615', vipLevel: 3, count: null, coinType: null });
    const one = await (await fetch(`${api.url}/api/analytics/leaderboards/xp/players/0xdoc2`)).json();
    expect(one).toEqual({ board: 'xp', entry: await api.services.leaderboards.rankOf({ board: 'xp', player: '0xdoc2' }) });
    expect(one.entry.rank).toBe(2);
  });

  it('checks the webhook secret before anything about the body, and documents every refusal', async () => {
    const post = (body: string, authorization?: string) =>
      fetch(`${api.url}/api/blog/webhooks/contentpartner`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body,
      });
    for (const body of ['"not an object"', '{"event":"article.deleted"}', '{"event":"article.published","article":"text"}']) {
      const anonymous = await post(body, 'Bearer wrong-secret');
      expect(anonymous.status, body).toBe(401);
      expect(await anonymous.json()).toMatchObject(errorShape('UNAUTHENTICATED'));
    }
    const malformed = await post('{"event":', `Bearer ${SECRET}`);
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject(errorShape('BAD_REQUEST'));

    const webhook = doc.paths?.['/api/blog/webhooks/contentpartner']?.post;
    const documented = Object.entries(webhook?.responses ?? {}).flatMap(([status, r]) =>
      /^[45]/.test(status) ? r.description.split(', ').map((code) => `${status} ${code}`) : [],
    );
    expect(documented).toEqual(expect.arrayContaining(['400 BAD_REQUEST', '401 UNAUTHENTICATED', '429 RATE_LIMITED', '500 INTERNAL']));
    expect(webhook?.security).toEqual([{ webhookSecret: [] }]);
  });
});

describe('GET /api/docs', () => {
  it('serves the reference page with its scripts and styles from this server', async () => {
    const page = await fetch(`${api.url}/api/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/https?:/);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => new URL(m[1]!, page.url));
    expect(assets.filter((u) => u.pathname.endsWith('.js')).length).toBeGreaterThanOrEqual(3);
    expect(assets.filter((u) => u.pathname.endsWith('.css')).length).toBeGreaterThanOrEqual(1);
    for (const asset of assets) {
      expect(asset.origin).toBe(api.url);
      const res = await fetch(asset);
      expect(res.status, asset.pathname).toBe(200);
      expect((await res.arrayBuffer()).byteLength, asset.pathname).toBeGreaterThan(0);
    }
    // The page's script loads the document from ./json beside it: the same document.
    const initializer = await (await fetch(`${api.url}/api/docs/static/swagger-initializer.js`)).text();
    expect(initializer).toContain("resolveUrl('./json')");
    expect(await (await fetch(`${api.url}/api/docs/json`)).json()).toEqual(doc);
  });

  const haveChromium = existsSync(CHROMIUM);
  if (!haveChromium && testEnv.requireServices) throw new Error(`REQUIRE_SERVICES=1 but ${CHROMIUM} is missing`);
  describe.skipIf(!haveChromium)('in headless Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
      });
    });
    afterAll(async () => browser?.close());

    it('renders every operation, loading only from this server, with no CSP violation or script error', async () => {
      const page = await browser.newPage();
      const requested: string[] = [];
      const problems: string[] = [];
      page.on('request', (r) => requested.push(r.url()));
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console: ${m.text()}`);
      });
      await page.goto(`${api.url}/api/docs`);
      const expected = operations().map((o) => `${o.method.toUpperCase()} ${o.path}`).sort();
      const rendered = async () =>
        (
          await page.locator('.opblock-summary').evaluateAll((els) =>
            els.map((el) => `${el.querySelector('.opblock-summary-method')?.textContent} ${el.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`),
          )
        ).sort();
      await expect.poll(rendered, { timeout: 20_000 }).toEqual(expected);

      // Expanding the webhook operation shows its documented body and error responses.
      const webhook = page.locator('.opblock-post', { has: page.locator('[data-path="/api/blog/webhooks/contentpartner"]') });
      await webhook.locator('.opblock-summary').click();
      await expect.poll(() => webhook.locator('.responses-table').first().textContent(), { timeout: 10_000 }).toContain('401');
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, 'api-docs.png'), fullPage: true });
      expect(problems).toEqual([]);
      expect(requested.filter((u) => !u.startsWith(`${api.url}/`) && !u.startsWith('data:'))).toEqual([]);
      expect(requested).toContain(`${api.url}/api/docs/json`);
      await page.close();
    }, 60_000);
  });
});
