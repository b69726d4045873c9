import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../helpers/api';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const refusal = (maxDepth: number) => ({
  error: { code: 'VALIDATION_FAILED', details: { setting: 'INPUT.JSON_MAX_DEPTH', maxDepth }, message: expect.stringContaining('INPUT.JSON_MAX_DEPTH') },
});

describe('nesting depth of JSON bodies (INPUT.JSON_MAX_DEPTH) over HTTP', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => api?.close());

  const post = (url: string, payload: string) => api.app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } });

  it('answers GraphQL variables nested 50,000 deep with 400 VALIDATION_FAILED naming the setting (it was 500 INTERNAL)', async () => {
    const res = await post('/graphql', `{"query":"{ __typename }","variables":{"v":${nested(50_000)}}}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject(refusal(64));
    expect((await post('/graphql', '{"query":"{ __typename }"}')).json()).toEqual({ data: { __typename: 'Query' } });
  });

  it('refuses a REST body one level beyond the default bound and accepts one at it', async () => {
    // `{"wallet": …}` is one level: the array inside may be 63 deep
    const atBound = await post('/api/auth/challenge', `{"wallet":${nested(63)}}`);
    expect(atBound.statusCode).toBe(400);
    expect(atBound.json().error.code).toBe('VALIDATION_FAILED');
    expect(atBound.json().error.details?.setting).toBeUndefined();
    const beyond = await post('/api/auth/challenge', `{"wallet":${nested(64)}}`);
    expect(beyond.statusCode).toBe(400);
    expect(beyond.json()).toMatchObject(refusal(64));
  });

  it('counts brackets inside strings as text, not nesting', async () => {
    const res = await post('/graphql', `{"query":"{ __typename }","variables":{"v":"${nested(500)}"}}`);
    expect(res.statusCode).toBe(200);
  });

  it('bounds GraphQL variables sent over GET too', async () => {
    const query = encodeURIComponent('query($v: [[String]]) { __typename }');
    const res = await api.app.inject({ method: 'GET', url: `/graphql?query=${query}&variables=${encodeURIComponent(`{"v":${nested(2000)}}`)}`, headers: { 'apollo-require-preflight': '1' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject(refusal(64));
  });
});

describe('INPUT.JSON_MAX_DEPTH set in the environment', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ env: { INPUT_JSON_MAX_DEPTH: '3' } });
  });
  afterAll(async () => api?.close());

  it('bounds bodies at the configured depth', async () => {
    const post = (payload: string) => api.app.inject({ method: 'POST', url: '/graphql', payload, headers: { 'content-type': 'application/json' } });
    expect((await post('{"query":"{ __typename }","variables":{"v":[1]}}')).statusCode).toBe(200);
    const res = await post('{"query":"{ __typename }","variables":{"v":[[1]]}}');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject(refusal(3));
  });
});
