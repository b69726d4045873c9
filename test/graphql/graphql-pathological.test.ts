import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../helpers/api';
import { codesOf, openGraphqlWs, postGraphql, wsCodes } from '../helpers/graphql-wire';

/** Each fragment spreads the next twice: 2^30 paths through a 1 KB document. */
const fragmentBomb = (levels: number) =>
  'query Bomb { ...F0 } ' +
  Array.from({ length: levels }, (_, i) => (i < levels - 1 ? `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }` : `fragment F${i} on Query { __typename }`)).join(' ');

/**
 * Shapes that made validation super-linear; each must be refused as QUERY_TOO_COMPLEX. All fit
 * the websocket's 16 KiB message cap, so both transports get the same documents.
 */
const SHAPES: Record<string, string> = {
  'fragment bomb, 30 levels': fragmentBomb(30),
  'fragment bomb, 30 levels, inside a list': 'query { leaderboard(board: BET) { ...E0 } } ' +
    Array.from({ length: 30 }, (_, i) => (i < 29 ? `fragment E${i} on LeaderboardEntry { ...E${i + 1} ...E${i + 1} }` : 'fragment E29 on LeaderboardEntry { rank }')).join(' '),
  'one field repeated 400 times': `{ ${'serverStatus { status } '.repeat(400)}}`,
  'a wide fragment spread from 100 fragments': `{ ${Array.from({ length: 100 }, (_, i) => `...G${i}`).join(' ')} } ${Array.from({ length: 100 }, (_, i) => `fragment G${i} on Query { serverStatus { status network version } }`).join(' ')}`,
  '16 fragments each spreading 16 others': `{ ${Array.from({ length: 17 }, (_, i) => `...T${i}`).join(' ')} } ${Array.from({ length: 17 }, (_, i) => `fragment T${i} on Query { serverStatus { ${Array.from({ length: 17 }, (_, j) => `...U${j}`).join(' ')} } }`).join(' ')} ${Array.from({ length: 17 }, (_, j) => `fragment U${j} on ServerStatus { status }`).join(' ')}`,
  '3000 nested list brackets': `{ leaderboard(board: BET, coinType: ${'['.repeat(3000)}${']'.repeat(3000)}) { rank } }`,
  '600 directives': `{ __typename ${'@skip(if: false) '.repeat(600)}}`,
  '550 variables': `query(${Array.from({ length: 550 }, (_, i) => `$v${i}: Int`).join(' ')}) { __typename }`,
  '500 aliases': `{ ${Array.from({ length: 500 }, (_, i) => `a${i}: __typename`).join(' ')} }`,
  '300 operations': Array.from({ length: 300 }, (_, i) => `query Q${i} { __typename }`).join(' '),
};

/** Fits the 1 MiB body limit (not the websocket's 16 KiB message cap). */
const NEAR_BODY_LIMIT = { 'a 1 MB document': `{ ${'__typename '.repeat(90_000)}}`, 'a 1 MB comment': `{ __typename } #${'x'.repeat(1_000_000)}` };

const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * The API runs in this process, so process.cpuUsage covers the server's work for a request
 * (plus the client's, a little, and whatever else the process runs meanwhile, such as garbage
 * collection). The best of five runs is compared with the 50 ms goal: that noise can only make a
 * run slower, and an unbounded analysis can never be fast.
 */
async function bestCpuMs(run: () => Promise<void>): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const since = process.cpuUsage();
    await run();
    runs.push(cpuMs(since));
  }
  return Math.min(...runs);
}

async function healthLatencies(url: string, probes: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < probes; i++) {
    const started = performance.now();
    const res = await fetch(`${url}/api/health`);
    await res.arrayBuffer();
    latencies.push(performance.now() - started);
  }
  return latencies;
}

describe('pathological GraphQL documents are refused in bounded time', () => {
  let api: TestApi;
  beforeAll(async () => {
    // Per-event caps (8 KiB by default) would refuse these documents by size before any analysis;
    // raised to the frame limit here so the websocket path's query analysis itself is what is measured.
    api = await startApi({ caps: { maxEventBytes: 16 * 1024 } });
    await postGraphql(api.url, { query: '{ serverStatus { status } }' });
  });
  afterAll(async () => api?.close());

  it.each(Object.entries({ ...SHAPES, ...NEAR_BODY_LIMIT }))('over HTTP: %s → 400 QUERY_TOO_COMPLEX, under 50 ms of CPU', async (_name, query) => {
    const started = performance.now();
    const first = await postGraphql(api.url, { query });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(first.status).toBe(400);
    expect(codesOf(first.body)).toEqual(['QUERY_TOO_COMPLEX']);
    expect(await bestCpuMs(async () => void (await postGraphql(api.url, { query })))).toBeLessThan(50);
  });

  it('sends the websocket documents within its 16 KiB message cap', () => {
    for (const query of Object.values(SHAPES)) expect(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }).length).toBeLessThan(16 * 1024);
  });

  it.each(Object.entries(SHAPES))('over graphql-ws: %s → QUERY_TOO_COMPLEX, under 50 ms of CPU', async (_name, query) => {
    const conn = await openGraphqlWs(api.wsUrl);
    try {
      const outcome = await conn.run({ query });
      expect(wsCodes(outcome)).toEqual(['QUERY_TOO_COMPLEX']);
      expect(await bestCpuMs(async () => void (await conn.run({ query })))).toBeLessThan(50);
      expect(conn.closed).toBeUndefined();
    } finally {
      await conn.close();
    }
  });

  it('keeps /api/health under 100 ms (median) while the 30-level document arrives over both transports', async () => {
    const baseline = median(await healthLatencies(api.url, 5));
    const conn = await openGraphqlWs(api.wsUrl);
    let attacking = true;
    let refused = 0;
    const attack = (async () => {
      while (attacking) {
        const [http, ws] = await Promise.all([postGraphql(api.url, { query: fragmentBomb(30) }), conn.run({ query: fragmentBomb(30) })]);
        expect(codesOf(http.body)).toEqual(['QUERY_TOO_COMPLEX']);
        expect(wsCodes(ws)).toEqual(['QUERY_TOO_COMPLEX']);
        refused += 2;
      }
    })();
    try {
      const during = await healthLatencies(api.url, 9);
      expect(median(during), `health latency during the attack (baseline ${baseline.toFixed(1)} ms)`).toBeLessThan(100);
    } finally {
      attacking = false;
      await attack;
      await conn.close();
    }
    expect(refused).toBeGreaterThan(0);
  });

  it('still accepts an ordinary query with fragments on both transports', async () => {
    const query = 'query Board { leaderboard(board: BET, limit: 5) { ...Entry } serverStatus { status } } fragment Entry on LeaderboardEntry { rank player score }';
    const http = await postGraphql(api.url, { query });
    expect(http.status).toBe(200);
    expect(http.body.errors).toBeUndefined();
    const conn = await openGraphqlWs(api.wsUrl);
    try {
      expect(await conn.run({ query })).toEqual({ result: { data: http.body.data } });
    } finally {
      await conn.close();
    }
  });
});
