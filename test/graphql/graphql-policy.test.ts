import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../helpers/api';
import { codesOf, openGraphqlWs, postGraphql, wsCodes, type WsOutcome } from '../helpers/graphql-wire';

const bomb = 'query Bomb { ...F0 } ' + Array.from({ length: 30 }, (_, i) => (i < 29 ? `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }` : 'fragment F29 on Query { __typename }')).join(' ');

/**
 * Forbidden and failing operations, each with the code both transports must answer with and the
 * HTTP status (the code's status for request errors; 200 for errors raised while executing).
 */
const CASES: Array<[string, Record<string, unknown>, string, number]> = [
  ['introspection (__schema)', { query: '{ __schema { queryType { name } } }' }, 'FORBIDDEN', 403],
  ['introspection (__type)', { query: '{ __type(name: "Query") { name } }' }, 'FORBIDDEN', 403],
  ['a misspelt field', { query: '{ serverStatu { status } }' }, 'GRAPHQL_VALIDATION_FAILED', 400],
  ['a misspelt enum value in a variable', { query: 'query B($b: LeaderboardBoard!) { leaderboard(board: $b) { rank } }', variables: { b: 'BE' } }, 'VALIDATION_FAILED', 400],
  ['the 30-level fragment bomb', { query: bomb }, 'QUERY_TOO_COMPLEX', 400],
  ['too many aliases', { query: `{ ${Array.from({ length: 21 }, (_, i) => `a${i}: __typename`).join(' ')} }` }, 'QUERY_TOO_COMPLEX', 400],
  ['a mutation that needs a login', { query: 'mutation { logout(refreshToken: "rt_unknown") }' }, 'UNAUTHENTICATED', 200],
  ['a NUL in a variable', { query: 'query P($s: String!) { blogPost(slug: $s) { title } }', variables: { s: '\u0000' } }, 'VALIDATION_FAILED', 400],
  ['an app error from a resolver', { query: '{ leaderboard(board: BET, coinType: "not a type") { rank } }' }, 'VALIDATION_FAILED', 200],
  ['an out-of-range page size', { query: '{ leaderboard(board: BET, limit: 0) { rank } }' }, 'VALIDATION_FAILED', 200],
];

const messagesOf = (outcome: WsOutcome | { errors?: Array<{ message: string }> }) => ('errors' in outcome && outcome.errors ? outcome.errors.map((e: { message: string }) => e.message) : []);

describe('one GraphQL policy for HTTP and graphql-ws', () => {
  let mainnet: TestApi;
  let testnet: TestApi;
  beforeAll(async () => {
    [mainnet, testnet] = await Promise.all([
      startApi({ env: { NETWORK: 'mainnet', APP_URL: 'https://platform.example', JWT_SECRET: 'j'.repeat(40), PAYLOAD_SECRET: 'p'.repeat(40), WEBHOOK_SECRET: 'w'.repeat(40), BLOG_REVALIDATION_SECRET: 'r'.repeat(40) } }),
      startApi(),
    ]);
  });
  afterAll(async () => Promise.all([mainnet?.close(), testnet?.close()]));

  it('turns introspection off on mainnet and leaves it on for testnet by default', () => {
    expect(mainnet.config.graphql.introspection).toBe(false);
    expect(testnet.config.graphql.introspection).toBe(true);
  });

  it.each(CASES)('%s: the same code over both transports (mainnet)', async (_name, payload, code, status) => {
    const http = await postGraphql(mainnet.url, payload);
    expect(http.status).toBe(status);
    const conn = await openGraphqlWs(mainnet.wsUrl);
    try {
      const ws = await conn.run(payload);
      expect([...new Set(codesOf(http.body))]).toEqual([code]);
      expect([...new Set(wsCodes(ws))]).toEqual([code]);
      expect(messagesOf(ws)).toEqual(messagesOf(http.body));
    } finally {
      await conn.close();
    }
  });

  it('hides "Did you mean" suggestions when introspection is off, on both transports, and keeps them otherwise', async () => {
    const typo = { query: '{ serverStatu { status } }' };
    const enumTypo = { query: 'query B($b: LeaderboardBoard!) { leaderboard(board: $b) { rank } }', variables: { b: 'BE' } };
    for (const payload of [typo, enumTypo]) {
      const conn = await openGraphqlWs(mainnet.wsUrl);
      const hidden = [...messagesOf((await postGraphql(mainnet.url, payload)).body), ...messagesOf(await conn.run(payload))];
      await conn.close();
      expect(hidden).toHaveLength(2);
      for (const message of hidden) expect(message).not.toMatch(/did you mean|serverStatus|"BET"/i);
      const shown = messagesOf((await postGraphql(testnet.url, payload)).body);
      expect(shown.join(' ')).toMatch(/Did you mean/);
    }
  });

  it('answers introspection and __typename when introspection is on', async () => {
    const conn = await openGraphqlWs(testnet.wsUrl);
    try {
      expect(await conn.run({ query: '{ __schema { queryType { name } } }' })).toEqual({ result: { data: { __schema: { queryType: { name: 'Query' } } } } });
      expect(await (await openGraphqlWs(mainnet.wsUrl)).run({ query: '{ __typename }' })).toEqual({ result: { data: { __typename: 'Query' } } });
    } finally {
      await conn.close();
    }
  });

  it('verifies the websocket handshake token like the HTTP Authorization header', async () => {
    const token = mainnet.services.tokens.signAccess('0xpolicy');
    const ok = await openGraphqlWs(mainnet.wsUrl, { authorization: `Bearer ${token}` });
    expect(ok.acknowledged).toBe(true);
    await ok.close();
    for (const forged of [`Bearer ${token}x`, token, 'Basic abc', 42]) {
      const refused = await openGraphqlWs(mainnet.wsUrl, { authorization: forged });
      expect(refused.acknowledged).toBe(false);
      expect(refused.closed).toEqual({ code: 4403, reason: 'TOKEN_INVALID' });
    }
  });

  it('counts websocket operations in the same metrics as HTTP ones', async () => {
    const conn = await openGraphqlWs(testnet.wsUrl);
    try {
      await conn.run({ query: 'query PolicyProbe { serverStatus { status } }' });
      await conn.run({ query: 'query PolicyProbe { serverStatus { status } }' });
      await conn.run({ query: 'query PolicyBroken { nope }', operationName: 'PolicyBroken' });
    } finally {
      await conn.close();
    }
    await postGraphql(testnet.url, { query: 'query PolicyProbe { serverStatus { status } }' });
    const metrics = await (await fetch(`${testnet.url}/metrics`)).text();
    expect(metrics).toMatch(/graphql_operations_total\{operation="PolicyProbe",type="query",outcome="ok"\} 3/);
    expect(metrics).toMatch(/graphql_operations_total\{operation="PolicyBroken",type="unknown",outcome="error"\} 1/);
  });
});
