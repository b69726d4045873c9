import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../helpers/api';
import { codesOf, openGraphqlWs, postGraphql, wsCodes } from '../helpers/graphql-wire';

const JSON_HEADERS = { 'content-type': 'application/json' };
const BOARD_BY_VARIABLE = 'query Board($limit: Int!) { leaderboard(board: BET, limit: $limit) { rank } }';
const POST_BY_SLUG = 'query Post($slug: String!) { blogPost(slug: $slug) { title } }';

/** Client mistakes over HTTP: [name, body (a string is sent raw), headers, expected status, expected code]. */
const HTTP_CATALOGUE: Array<[string, unknown, Record<string, string>, number, string]> = [
  ['malformed JSON', '{"query":', JSON_HEADERS, 400, 'BAD_REQUEST'],
  ['empty JSON body', '', JSON_HEADERS, 400, 'BAD_REQUEST'],
  ['a JSON array (batching is off)', [{ query: '{ __typename }' }], JSON_HEADERS, 400, 'BAD_REQUEST'],
  ['missing query', {}, JSON_HEADERS, 400, 'BAD_REQUEST'],
  ['query is a number', { query: 5 }, JSON_HEADERS, 400, 'BAD_REQUEST'],
  ['variables is a string', { query: BOARD_BY_VARIABLE, variables: 'x' }, JSON_HEADERS, 400, 'BAD_REQUEST'],
  ['operationName is a number', { query: '{ __typename }', operationName: 5 }, JSON_HEADERS, 400, 'BAD_REQUEST'],
  ['syntax error', { query: '{ serverStatus {' }, JSON_HEADERS, 400, 'GRAPHQL_PARSE_FAILED'],
  ['unknown field', { query: '{ nope }' }, JSON_HEADERS, 400, 'GRAPHQL_VALIDATION_FAILED'],
  ['unknown argument', { query: '{ serverStatus(x: 1) { status } }' }, JSON_HEADERS, 400, 'GRAPHQL_VALIDATION_FAILED'],
  ['unknown directive', { query: '{ __typename @nope }' }, JSON_HEADERS, 400, 'GRAPHQL_VALIDATION_FAILED'],
  ['two anonymous operations', { query: '{ __typename } { __typename }' }, JSON_HEADERS, 400, 'GRAPHQL_VALIDATION_FAILED'],
  ['two operations without operationName', { query: 'query A { __typename } query B { __typename }' }, JSON_HEADERS, 400, 'BAD_REQUEST'],
  ['unknown operationName', { query: 'query A { __typename }', operationName: 'B' }, JSON_HEADERS, 400, 'BAD_REQUEST'],
  ['a subscription over HTTP', { query: 'subscription { activity { kind } }' }, JSON_HEADERS, 400, 'OPERATION_NOT_SUPPORTED'],
  ['a subscription (HTTP serves queries and mutations)', { query: 'subscription { activity { kind } }' }, JSON_HEADERS, 400, 'OPERATION_NOT_SUPPORTED'],
  ['an unknown mutation field', { query: 'mutation { doIt }' }, JSON_HEADERS, 400, 'GRAPHQL_VALIDATION_FAILED'],
  ['a NUL in a literal', { query: '{ blogPost(slug: "a\\u0000b") { title } }' }, JSON_HEADERS, 400, 'VALIDATION_FAILED'],
  ['a NUL in a variable', { query: POST_BY_SLUG, variables: { slug: 'a\u0000b' } }, JSON_HEADERS, 400, 'VALIDATION_FAILED'],
  ['a lone surrogate in a variable', { query: POST_BY_SLUG, variables: { slug: 'a\ud800b' } }, JSON_HEADERS, 400, 'VALIDATION_FAILED'],
  ['a NUL in an unused variable key', { query: '{ __typename }', variables: { 'k\u0000': 1 } }, JSON_HEADERS, 400, 'VALIDATION_FAILED'],
  ['a variable of the wrong type', { query: BOARD_BY_VARIABLE, variables: { limit: 'ten' } }, JSON_HEADERS, 400, 'VALIDATION_FAILED'],
  ['a missing required variable', { query: BOARD_BY_VARIABLE }, JSON_HEADERS, 400, 'VALIDATION_FAILED'],
  ['a huge Int variable', { query: BOARD_BY_VARIABLE, variables: { limit: 1e300 } }, JSON_HEADERS, 400, 'VALIDATION_FAILED'],
  // As a list size the literal is costed first, so the cost limit refuses it.
  ['a huge Int literal', { query: '{ leaderboard(board: BET, limit: 99999999999999999999) { rank } }' }, JSON_HEADERS, 400, 'QUERY_TOO_COMPLEX'],
  ['a huge Int literal outside a list size', { query: '{ blogPosts(page: 99999999999999999999) { page } }' }, JSON_HEADERS, 400, 'GRAPHQL_VALIDATION_FAILED'],
  ['an unknown enum value', { query: '{ leaderboard(board: NOPE) { rank } }' }, JSON_HEADERS, 400, 'GRAPHQL_VALIDATION_FAILED'],
  ['text/plain without a preflight header (CSRF)', '{"query":"{ __typename }"}', { 'content-type': 'text/plain' }, 400, 'BAD_REQUEST'],
  ['an unsupported content type', '<query/>', { 'content-type': 'application/xml' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
  ['a __proto__ key', '{"query":"{ __typename }","__proto__":{"x":1}}', JSON_HEADERS, 400, 'BAD_REQUEST'],
];

/** The same mistakes over graphql-ws (those a websocket message can carry): [name, subscribe payload, code]. */
const WS_CATALOGUE: Array<[string, Record<string, unknown>, string]> = [
  ['syntax error', { query: '{ serverStatus {' }, 'GRAPHQL_PARSE_FAILED'],
  ['unknown field', { query: '{ nope }' }, 'GRAPHQL_VALIDATION_FAILED'],
  ['two anonymous operations', { query: '{ __typename } { __typename }' }, 'GRAPHQL_VALIDATION_FAILED'],
  ['two operations without operationName', { query: 'query A { __typename } query B { __typename }' }, 'BAD_REQUEST'],
  ['unknown operationName', { query: 'query A { __typename }', operationName: 'B' }, 'BAD_REQUEST'],
  ['an unknown mutation field', { query: 'mutation { doIt }' }, 'GRAPHQL_VALIDATION_FAILED'],
  ['a NUL in a literal', { query: '{ blogPost(slug: "a\\u0000b") { title } }' }, 'VALIDATION_FAILED'],
  ['a NUL in a variable', { query: POST_BY_SLUG, variables: { slug: 'a\u0000b' } }, 'VALIDATION_FAILED'],
  ['a lone surrogate in a variable', { query: POST_BY_SLUG, variables: { slug: 'a\udc00b' } }, 'VALIDATION_FAILED'],
  ['a variable of the wrong type', { query: BOARD_BY_VARIABLE, variables: { limit: 'ten' } }, 'VALIDATION_FAILED'],
  ['a missing required variable', { query: BOARD_BY_VARIABLE }, 'VALIDATION_FAILED'],
  ['a huge Int variable', { query: BOARD_BY_VARIABLE, variables: { limit: 1e300 } }, 'VALIDATION_FAILED'],
  ['a huge Int literal', { query: '{ leaderboard(board: BET, limit: 99999999999999999999) { rank } }' }, 'QUERY_TOO_COMPLEX'],
  ['a huge Int literal outside a list size', { query: '{ blogPosts(page: 99999999999999999999) { page } }' }, 'GRAPHQL_VALIDATION_FAILED'],
  ['an empty query', { query: '' }, 'BAD_REQUEST'],
];

const isClientError = (status: number) => status >= 400 && status < 500;

describe('client mistakes are client errors, never INTERNAL', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => api?.close());

  it.each(HTTP_CATALOGUE)('over HTTP: %s', async (_name, body, headers, status, code) => {
    const res = await postGraphql(api.url, body, headers);
    expect(JSON.stringify(res.body)).not.toContain('INTERNAL');
    expect(isClientError(res.status)).toBe(true);
    expect({ status: res.status, codes: [...new Set(codesOf(res.body))] }).toEqual({ status, codes: [code] });
  });

  it('over HTTP GET: no preflight header → 400; a mutation → 405; a NUL → 400 VALIDATION_FAILED', async () => {
    const get = async (query: string, variables?: unknown, headers: Record<string, string> = { 'apollo-require-preflight': '1' }) => {
      const params = new URLSearchParams({ query, ...(variables ? { variables: JSON.stringify(variables) } : {}) });
      const res = await fetch(`${api.url}/graphql?${params}`, { headers });
      return { status: res.status, codes: codesOf(await res.json()) };
    };
    expect(await get('{ __typename }', undefined, {})).toEqual({ status: 400, codes: ['BAD_REQUEST'] });
    expect(await get('mutation { logout(refreshToken: "rt_x") }')).toEqual({ status: 405, codes: ['METHOD_NOT_ALLOWED'] });
    expect(await get(POST_BY_SLUG, { slug: 'a\u0000' })).toEqual({ status: 400, codes: ['VALIDATION_FAILED'] });
    expect(await get('{ serverStatus { status } }')).toEqual({ status: 200, codes: [] });
  });

  it('over HTTP: a malformed Host header → 400 BAD_REQUEST (RFC 9112), not a failed URL parse', async () => {
    const { hostname, port } = new URL(api.url);
    const body = JSON.stringify({ query: '{ __typename }' });
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () =>
        socket.write(`POST /graphql HTTP/1.1\r\nHost: a b\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`),
      );
      let received = '';
      socket.on('data', (chunk) => (received += chunk));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
    expect(raw.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toMatchObject({ error: { code: 'BAD_REQUEST' } });
  });

  it('over REST: NUL or lone surrogates in params, query strings and JSON bodies → 400 VALIDATION_FAILED', async () => {
    const cases = [
      fetch(`${api.url}/api/analytics/leaderboards/bet/players/ab%00cd`),
      fetch(`${api.url}/api/analytics/leaderboards/bet?coinType=0x2%00`),
      fetch(`${api.url}/api/blog/webhooks/contentpartner`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ event: 'webhook.test', delivery_id: 'd\ud800' }) }),
    ];
    for (const res of await Promise.all(cases)) {
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatchObject({ code: 'VALIDATION_FAILED', details: { path: expect.any(String) } });
    }
  });

  it.each(WS_CATALOGUE)('over graphql-ws: %s, connection kept', async (_name, payload, code) => {
    const conn = await openGraphqlWs(api.wsUrl);
    try {
      const outcome = await conn.run(payload);
      expect(JSON.stringify(outcome)).not.toContain('INTERNAL');
      expect([...new Set(wsCodes(outcome))]).toEqual([code]);
      expect(conn.closed).toBeUndefined();
    } finally {
      await conn.close();
    }
  });

  it('over graphql-ws: malformed messages close with 4400 (bad request), never 4500 (internal)', async () => {
    const frames = ['{not json', JSON.stringify({ id: '1', type: 'subscribe', payload: {} }), JSON.stringify({ id: '1', type: 'subscribe', payload: { query: '{ __typename }', variables: 'x' } }), JSON.stringify({ type: 'nope' })];
    for (const frame of frames) {
      const conn = await openGraphqlWs(api.wsUrl);
      const outcome = await conn.exchange(frame, '1');
      expect(outcome).toEqual({ closed: { code: 4400, reason: expect.any(String) } });
    }
  });

  it('logs nothing at error level for any of these mistakes', () => {
    expect(api.logs.lines.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual([]);
  });
});
