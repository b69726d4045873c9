import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServerStatusDocument } from '../../src/generated/graphql';
import { startApi, type TestApi } from '../helpers/api';
import { gql, wsClient, wsQuery } from '../helpers/client';

const post2 = (url: string, query: string) =>
  fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) }).then(async (r) => ({ status: r.status, body: await r.json() }));

describe('API basics over the real HTTP and WebSocket interfaces', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => api?.close());

  it('answers GET /api/health with 200 and liveness only', async () => {
    const res = await fetch(`${api.url}/api/health`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ status: 'ok', network: 'testnet' });
    expect(Object.keys(body).sort()).toEqual(['network', 'status', 'uptimeSeconds', 'version']);
  });

  it('answers a typed GraphQL query over HTTP', async () => {
    const { status, body } = await gql(api.url, ServerStatusDocument);
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(body.data?.serverStatus.status).toBe('ok');
  });

  it('answers the same query over graphql-ws on the same path', async () => {
    const client = wsClient(api.wsUrl);
    try {
      const result = await wsQuery(client, ServerStatusDocument);
      expect(result.errors).toBeUndefined();
      expect(result.data?.serverStatus.network).toBe('testnet');
    } finally {
      await client.dispose();
    }
  });

  it('uses one error shape for unknown routes and malformed bodies', async () => {
    const notFound = await fetch(`${api.url}/api/nope`);
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toMatchObject({ error: { code: 'NOT_FOUND', message: expect.any(String), requestId: expect.any(String) } });

    const bad = await fetch(`${api.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 'BAD_REQUEST' } });
  });

  it('exposes request and GraphQL operation metrics in Prometheus format', async () => {
    await gql(api.url, ServerStatusDocument);
    const res = await fetch(`${api.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/api\/health",status="200"\} \d+/);
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="[^"]+",method="POST",route="\/graphql"\}/);
    expect(text).toMatch(/graphql_operations_total\{operation="ServerStatus",type="query",outcome="ok"\} [1-9]/);
  });

  it('refuses queries over the depth, alias and cost limits', async () => {
    const post = (query: string) =>
      fetch(`${api.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) }).then(async (r) => ({ status: r.status, body: await r.json() }));
    const aliases = Array.from({ length: 25 }, (_, i) => `a${i}: serverStatus { status }`).join(' ');
    const tooManyAliases = await post(`{ ${aliases} }`);
    expect(tooManyAliases.status).toBe(400);
    expect(JSON.stringify(tooManyAliases.body.errors)).toContain('aliases');

    const strict = await startApi({ env: { GRAPHQL_MAX_DEPTH: '1', 'GRAPHQL.MAX_COST': '3' } });
    try {
      const tooDeep = await post2(strict.url, '{ serverStatus { status } }');
      expect(tooDeep.status).toBe(400);
      expect(tooDeep.body.errors.map((e: { message: string }) => e.message)).toContain('Query depth 2 exceeds the limit of 1');
      const tooCostly = await post2(strict.url, '{ serverStatus { status network version } }');
      expect(tooCostly.body.errors.map((e: { message: string }) => e.message)).toContain('Query cost exceeds the limit of 3 (counted at least 4)');
    } finally {
      await strict.close();
    }
  });
});
