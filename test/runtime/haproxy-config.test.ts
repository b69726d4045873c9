import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { composeConfig, renderHaproxyConfig } from '../../scripts/haproxy-config';
import { haproxyVersion } from '../helpers/cluster';
import { testEnv } from '../helpers/env';

if (testEnv.requireServices && !haproxyVersion) throw new Error('REQUIRE_SERVICES=1 but haproxy is not installed (.ci/install-system-deps.sh installs it)');

describe('the edge configuration (scripts/haproxy-config.ts)', () => {
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
