/**
 * Security headers and CORS on the real API over HTTP: every response carries helmet's headers
 * (errors ended early by admission, the body limit and the timeout included), HSTS only over
 * trusted https, and CORS answers only the configured origins on /graphql and /api/*.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { startApi, type TestApi } from '../helpers/api';
import { BUILT_MAIN_ARGS } from '../helpers/built-main';

const APP_ORIGIN = 'https://app.example.test';
const FRONTEND = 'https://play.example.test';
const STRANGER = 'https://evil.example.test';
const QUERY = JSON.stringify({ query: '{ serverStatus { status } }' });

let api: TestApi;
let untrusted: TestApi;
let ipSeq = 0;
/** A fresh client address per request (the test peer is a trusted proxy), so admission never interferes. */
const freshIp = () => `198.51.100.${++ipSeq}`;

const call = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
  fetch(`${api.url}${path}`, { ...init, headers: { 'x-forwarded-for': freshIp(), ...init.headers } });

function expectBaseHeaders(res: Response): void {
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  expect(res.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
}

beforeAll(async () => {
  api = await startApi({
    env: {
      APP_URL: `${APP_ORIGIN}/`,
      CORS_ORIGINS: `${FRONTEND}, http://localhost:5173/`,
      TRUSTED_PROXY_CIDRS: '127.0.0.0/8,::1',
      'HTTP.RATE_LIMIT_MAX': '3',
      'HTTP.BODY_LIMIT_BYTES': '2048',
      'HTTP.REQUEST_TIMEOUT_MS': '1000',
    },
    extraRoutes: (app) => {
      app.get('/api/test/boom', async () => {
        throw new Error('deliberate failure');
      });
      app.get('/api/test/hang', async (request) => {
        await new Promise((resolve) => request.abandonedSignal.addEventListener('abort', resolve));
        return { late: true };
      });
    },
  });
  untrusted = await startApi();
});

afterAll(async () => {
  await Promise.all([api?.close(), untrusted?.close()]);
});

describe('security headers', () => {
  it('are on successful JSON responses, REST and GraphQL', async () => {
    const health = await call('/api/health');
    expect(health.status).toBe(200);
    expectBaseHeaders(health);
    const gql = await call('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: QUERY });
    expect(gql.status).toBe(200);
    expectBaseHeaders(gql);
    expect(gql.headers.get('strict-transport-security')).toBeNull();
  });

  it('are on every error response: 404, 413, 429, 503 timeout, 500', async () => {
    const notFound = await call('/nowhere');
    expect(notFound.status).toBe(404);
    expectBaseHeaders(notFound);

    const tooLarge = await call('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: `{ serverStatus { status } } #${'x'.repeat(4096)}` }) });
    expect(tooLarge.status).toBe(413);
    expectBaseHeaders(tooLarge);

    const ip = freshIp();
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let i = 0; i < 4; i++) {
      const res = await call('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: QUERY });
      statuses.push(res.status);
      if (res.status === 429) limited = res;
      else await res.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expectBaseHeaders(limited!);

    const timedOut = await call('/api/test/hang');
    expect(timedOut.status).toBe(503);
    expect((await timedOut.json()) as unknown).toMatchObject({ error: { code: 'REQUEST_TIMEOUT' } });
    expectBaseHeaders(timedOut);

    const failed = await call('/api/test/boom');
    expect(failed.status).toBe(500);
    expect((await failed.json()) as unknown).toMatchObject({ error: { code: 'INTERNAL' } });
    expectBaseHeaders(failed);
  });

  it('sends HSTS only when a trusted proxy says the request came over https', async () => {
    const https = await call('/api/health', { headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    const notFound = await call('/nowhere', { headers: { 'x-forwarded-proto': 'https' } });
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    const plain = await call('/api/health', { headers: { 'x-forwarded-proto': 'http' } });
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    // A peer outside TRUSTED_PROXY_CIDRS cannot claim https.
    const forged = await fetch(`${untrusted.url}/api/health`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(forged.status).toBe(200);
    expect(forged.headers.get('strict-transport-security')).toBeNull();
    expectBaseHeaders(forged);
  });

  it('gives the HTML landing page on GET /graphql a policy that lets it load, still unframeable', async () => {
    const res = await call('/graphql', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    const directives = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['default-src']).toEqual(["'none'"]);
    // Every script the page references comes from a source the header policy allows.
    const html = await res.text();
    const scriptSources = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]);
    expect(scriptSources.length).toBeGreaterThan(0);
    // The development page (GraphiQL) loads from this server; Apollo's production page from its CDN.
    for (const src of scriptSources) expect(directives['script-src']).toContain(/^https:/.test(src) ? new URL(src).origin : "'self'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('CORS', () => {
  const preflight = (origin: string, path = '/graphql', method = 'POST') =>
    call(path, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'content-type,authorization,apollo-require-preflight' },
    });

  it('answers a preflight from a configured frontend, APP_URL included, on /graphql and /api/*', async () => {
    for (const [origin, path] of [
      [FRONTEND, '/graphql'],
      [APP_ORIGIN, '/graphql'],
      ['http://localhost:5173', '/api/health'],
    ] as const) {
      const res = await preflight(origin, path);
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
      expect(res.headers.get('access-control-allow-methods')).toContain('POST');
      const allowedHeaders = (res.headers.get('access-control-allow-headers') ?? '').split(/,\s*/);
      expect(allowedHeaders).toEqual(expect.arrayContaining(['authorization', 'content-type', 'apollo-require-preflight']));
      expect(res.headers.get('vary')).toMatch(/origin/i);
      expectBaseHeaders(res);
    }
  });

  it('lets the allowed origin read the actual response, credentials included', async () => {
    const res = await call('/graphql', { method: 'POST', headers: { origin: FRONTEND, 'content-type': 'application/json' }, body: QUERY });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(FRONTEND);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(((await res.json()) as { data: { serverStatus: { status: string } } }).data.serverStatus.status).toBeTruthy();
    // A refused token's answer is readable too, so the frontend can see it must log in again.
    const refused = await call('/graphql', { method: 'POST', headers: { origin: FRONTEND, 'content-type': 'application/json', authorization: 'Bearer not-a-token' }, body: QUERY });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(FRONTEND);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('TOKEN_INVALID');
    const get = await call('/graphql?query=%7BserverStatus%7Bstatus%7D%7D', { headers: { origin: FRONTEND, 'apollo-require-preflight': '1' } });
    expect(get.status).toBe(200);
    expect(get.headers.get('access-control-allow-origin')).toBe(FRONTEND);
  });

  it('gives an unknown origin no Access-Control-Allow-Origin, preflight or request', async () => {
    const pre = await preflight(STRANGER);
    expect(pre.status).toBe(404);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    expect(pre.headers.get('access-control-allow-credentials')).toBeNull();
    expect(pre.headers.get('access-control-allow-headers')).toBeNull();
    expectBaseHeaders(pre);
    const res = await call('/graphql', { method: 'POST', headers: { origin: STRANGER, 'content-type': 'application/json' }, body: QUERY });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    // a look-alike of an allowed origin is a different origin
    const lookAlike = await preflight(`${FRONTEND}.evil.test`);
    expect(lookAlike.headers.get('access-control-allow-origin')).toBeNull();
    const otherScheme = await preflight(FRONTEND.replace('https:', 'http:'));
    expect(otherScheme.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('keeps CORS to /graphql and /api/*: /metrics is not readable cross-origin', async () => {
    const res = await call('/metrics', { headers: { origin: FRONTEND } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect((await preflight(FRONTEND, '/metrics', 'GET')).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('lets the allowed origin read error responses too: 404, 413, 429', async () => {
    const headers = { origin: FRONTEND, 'content-type': 'application/json' };
    const notFound = await call('/api/nowhere', { headers: { origin: FRONTEND } });
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('access-control-allow-origin')).toBe(FRONTEND);
    const tooLarge = await call('/graphql', { method: 'POST', headers, body: JSON.stringify({ query: `{ serverStatus { status } } #${'x'.repeat(4096)}` }) });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.headers.get('access-control-allow-origin')).toBe(FRONTEND);
    const ip = freshIp();
    let last: Response | undefined;
    for (let i = 0; i < 4; i++) {
      last = await call('/graphql', { method: 'POST', headers: { ...headers, 'x-forwarded-for': ip }, body: QUERY });
      if (i < 3) await last.arrayBuffer();
    }
    expect(last!.status).toBe(429);
    expect(last!.headers.get('access-control-allow-origin')).toBe(FRONTEND);
    expect(last!.headers.get('access-control-expose-headers')).toContain('retry-after');
  });

  it('does not charge preflights to admission', async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i++) {
      const res = await call('/graphql', {
        method: 'OPTIONS',
        headers: { origin: FRONTEND, 'access-control-request-method': 'POST', 'x-forwarded-for': ip },
      });
      expect(res.status).toBe(204);
    }
    const real = await call('/graphql', { method: 'POST', headers: { origin: FRONTEND, 'content-type': 'application/json', 'x-forwarded-for': ip }, body: QUERY });
    expect(real.status).toBe(200);
  });
});

describe('CORS_ORIGINS at start-up', () => {
  it('refuses anything but http(s) origins, naming each bad entry', () => {
    for (const bad of ['*', 'play.example.test', 'https://play.example.test/app', 'ftp://play.example.test', 'https://user:pw@play.example.test', 'https://play.example.test?x=1']) {
      expect(() => loadConfig({ envDir: '/nonexistent', env: { CORS_ORIGINS: `https://ok.example.test,${bad}` } }), bad).toThrow(`CORS_ORIGINS: "${bad}" is not an origin`);
    }
    const ok = loadConfig({ envDir: '/nonexistent', env: { APP_URL: 'https://app.example.test/path', CORS_ORIGINS: 'https://Play.Example.test/, http://localhost:5173,https://app.example.test' } });
    expect(ok.http.corsOrigins).toEqual(['https://app.example.test', 'https://play.example.test', 'http://localhost:5173']);
  });

  it('stops the process with exit code 78 on a bad origin', async () => {
    const child = spawn(process.execPath, [...BUILT_MAIN_ARGS, '--role', 'api'], {
      env: { ...process.env, NODE_ENV: 'test', 'GENERAL.PORT': '0', CORS_ORIGINS: 'https://ok.example.test,https://play.example.test/app' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(78);
    expect(out).toContain('CORS_ORIGINS: "https://play.example.test/app" is not an origin');
  }, 60_000);
});
