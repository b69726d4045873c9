import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeConfig, renderHaproxyConfig } from '../../scripts/haproxy-config';
import { APP_ROUTE_REDIRECTS } from '../../src/surfaces/shared/redirects';
import { startApi, type TestApi } from '../helpers/api';
import { haproxyVersion } from '../helpers/cluster';
import { testEnv } from '../helpers/env';
import { freePort, waitFor } from '../helpers/store';
import { listenOnLoopback } from '../fixtures/loopback';

if (testEnv.requireServices && !haproxyVersion) throw new Error('REQUIRE_SERVICES=1 but haproxy is not installed (.ci/install-system-deps.sh installs it)');

describe('the edge configuration (scripts/haproxy-config.ts)', () => {
  it('the compose file redirects the hosts named in the edge\'s environment and routes the app host\'s root files to the API', () => {
    const cfg = composeConfig(3);
    expect(cfg).toContain('acl api path /graphql /sitemap_index.xml /sitemap.xml /robots.txt /llms.txt');
    expect(cfg).toContain('http-request redirect code 301 prefix "${APP_URL-http://localhost:8080}" if redirect_host');
    for (const [from, to] of Object.entries(APP_ROUTE_REDIRECTS)) expect(cfg).toMatch(new RegExp(`acl legacy_route_\\d path ${from} ${from}/\\n.*location ${to}\\?%\\[query\\]`));
  });

  it('deploy/haproxy/haproxy.cfg is the generator output for three compose replicas (npm run edge:config -- --replicas 3)', () => {
    expect(readFileSync('deploy/haproxy/haproxy.cfg', 'utf8')).toBe(composeConfig(3));
  });

  it('carries the spec limits: 100 admitted per 2 s per client IP, the API error shape on 429, the affinity cookie, websocket timeouts', () => {
    const cfg = renderHaproxyConfig({ bind: '127.0.0.1:8080', api: [{ name: 'api-1', address: '127.0.0.1:3101' }] });
    expect(cfg).toContain('store gpc0_rate(2000ms)');
    expect(cfg).toContain('if { sc_gpc0_rate(0) ge 100 }');
    const body = /return status 429 .* lf-string '([^']+)'/.exec(cfg)![1]!;
    expect(JSON.parse(body.replace('%[unique-id]', 'id'))).toEqual({
      error: { code: 'RATE_LIMITED', message: expect.any(String), requestId: 'id', details: { scope: 'edge', retryAfterSeconds: 1 } },
    });
    expect(cfg).toContain('cookie PLATFORM_SIO insert indirect nocache httponly');
    expect(cfg).toContain('timeout tunnel 1h');
    expect(cfg).toContain('timeout server 6000');
    expect(cfg).toContain('http-check send meth GET uri /api/health/ready');
  });

  it('routes the API through the in-process hop (each request first on its connection: a dying replica yields 502, not a reset) with error bodies in the API shape', () => {
    const cfg = renderHaproxyConfig({ bind: '127.0.0.1:8080', api: [{ name: 'api-1', address: '127.0.0.1:3101' }] });
    expect(cfg).toContain('use_backend api_hop if api');
    expect(cfg).toMatch(/backend api_hop\n(?: {2}.*\n)* {2}option http-server-close\n(?: {2}.*\n)* {2}server hop abns@edge-api-hop send-proxy-v2/);
    expect(cfg).toMatch(/frontend api_inner\n {2}bind abns@edge-api-hop accept-proxy\n(?: {2}.*\n)* {2}default_backend api\n/);
    const body = /http-error status 502 content-type application\/json lf-string '([^']+)'/.exec(cfg)![1]!;
    expect(JSON.parse(body.replace('%[unique-id]', 'id'))).toEqual({ error: { code: 'UPSTREAM_UNAVAILABLE', message: expect.any(String), requestId: 'id' } });
  });

  it.runIf(haproxyVersion)('HAProxy accepts both the compose file and a loopback rendering (haproxy -c)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'haproxy-cfg-'));
    const loopback = join(dir, 'loopback.cfg');
    writeFileSync(
      loopback,
      renderHaproxyConfig({
        bind: '127.0.0.1:18080',
        api: [1, 2, 3].map((i) => ({ name: `api-${i}`, address: `127.0.0.1:${18100 + i}` })),
        blog: '127.0.0.1:3001',
        healthOnly: [{ name: 'jobs', address: '127.0.0.1:18191' }],
        opsBind: '127.0.0.1:18404',
      }),
    );
    for (const file of ['deploy/haproxy/haproxy.cfg', loopback]) {
      const check = spawnSync('haproxy', ['-c', '-f', file], { encoding: 'utf8' });
      expect(check.status, check.stderr).toBe(0);
    }
  });
});

/** A GET through the edge with the Host header a browser would send (fetch may not set Host). */
function getVia(edgePort: number, host: string, path: string): Promise<{ status: number; location?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: edgePort, path, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe.runIf(haproxyVersion)('the edge in front of the API and the app: host and legacy redirects, the app host root files', () => {
  const APEX = 'https://play.example.com';
  let api: TestApi;
  let web: Server;
  let haproxy: ChildProcess;
  let edgePort: number;

  beforeAll(async () => {
    api = await startApi({ env: { NETWORK: 'mainnet', APP_URL: APEX } });
    // The app's own codebase, which owns the rest of the app host.
    web = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('the app'));
    const webUrl = await listenOnLoopback(web);
    edgePort = await freePort();
    const cfg = join(mkdtempSync(join(tmpdir(), 'haproxy-edge-')), 'edge.cfg');
    writeFileSync(
      cfg,
      renderHaproxyConfig({
        bind: `127.0.0.1:${edgePort}`,
        api: [{ name: 'api-1', address: new URL(api.url).host }],
        web: new URL(webUrl).host,
        hostRedirects: { apex: APEX, hosts: ['www.play.example.com', 'mainnet.play.example.com'] },
      }),
    );
    haproxy = spawn('haproxy', ['-db', '-f', cfg], { stdio: 'ignore' });
    await waitFor(async () => (await getVia(edgePort, 'play.example.com', '/robots.txt').catch(() => ({ status: 0 }))).status === 200, 15_000, 'the edge');
  });
  afterAll(async () => {
    haproxy?.kill('SIGTERM');
    await new Promise<void>((resolve) => web?.close(() => resolve()) ?? resolve());
    await api?.close();
  });

  it('the www and legacy network hosts answer 301 to the apex, path and query kept, before any routing', async () => {
    for (const host of ['www.play.example.com', 'mainnet.play.example.com', 'WWW.play.example.com:443']) {
      for (const path of ['/weekly-race/?from=edge', '/', '/api/health', '/rewards']) {
        expect(await getVia(edgePort, host, path), `${host}${path}`).toMatchObject({ status: 301, location: `${APEX}${path}` });
      }
    }
  });

  it('the legacy app routes answer 301 to their new path on the apex, trailing slash tolerated, query kept', async () => {
    for (const [from, to] of Object.entries(APP_ROUTE_REDIRECTS)) {
      expect(await getVia(edgePort, 'play.example.com', from), from).toMatchObject({ status: 301, location: to });
      expect(await getVia(edgePort, 'play.example.com', `${from}/?ref=mail`), `${from}/?ref=mail`).toMatchObject({ status: 301, location: `${to}?ref=mail` });
    }
    expect(await getVia(edgePort, 'play.example.com', '/rewards-old')).toMatchObject({ status: 200, body: 'the app' });
  });

  it("the app host's robots.txt and sitemaps come from the API, the app's pages from the app", async () => {
    for (const path of ['/robots.txt', '/sitemap.xml', '/sitemap_index.xml', '/llms.txt']) {
      const [viaEdge, direct] = await Promise.all([getVia(edgePort, 'play.example.com', path), fetch(`${api.url}${path}`).then((r) => r.text())]);
      expect([path, viaEdge.status, viaEdge.body]).toEqual([path, 200, direct]);
    }
    expect((await getVia(edgePort, 'play.example.com', '/robots.txt')).body).toContain(`Sitemap: ${APEX}/sitemap_index.xml`);
    expect(await getVia(edgePort, 'play.example.com', '/bonus')).toMatchObject({ status: 200, body: 'the app' });
  });
});
