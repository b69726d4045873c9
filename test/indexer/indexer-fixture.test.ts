import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SuiGraphQLClient } from '@mysten/sui/graphql';
import { GrpcWebFetchTransport, SuiGrpcClient } from '@mysten/sui/grpc';
import { bcs } from '@mysten/sui/bcs';
import { startSuiChainFixture, type SuiChainFixture } from '../fixtures/sui-chain/index.js';

/** The fixture chain speaks the real protocols: the SDK's own listEvents, unmodified, reads it. */
let chain: SuiChainFixture;

beforeAll(async () => {
  chain = await startSuiChainFixture({ seed: 3, events: 1500, graphql: { shortPageProbability: 0.3 }, grpc: { shortPageProbability: 0.3, maxPageSize: 40 } });
});
afterAll(() => chain?.close());

type ListEvents = SuiGrpcClient['listEvents'];
const clients: Record<string, () => { listEvents: ListEvents }> = {
  graphql: () => new SuiGraphQLClient({ url: chain.graphqlUrl, network: 'localnet' }),
  'grpc-web text': () => new SuiGrpcClient({ baseUrl: chain.grpcUrl, network: 'localnet' }),
  'grpc-web binary': () =>
    new SuiGrpcClient({ network: 'localnet', transport: new GrpcWebFetchTransport({ baseUrl: chain.grpcUrl, format: 'binary' }) }),
};

const BetResult = bcs.struct('BetResultEvent', {
  player: bcs.Address,
  game_id: bcs.u64(),
  coin_type: bcs.string(),
  stake: bcs.u64(),
  payout: bcs.u64(),
  won: bcs.bool(),
});

describe.each(Object.keys(clients))('SDK listEvents against the fixture (%s)', (name) => {
  it('pages ascending with endCursor/hasNextPage and returns SDK-shaped events', async () => {
    const client = clients[name]();
    const type = `${chain.packageId}::game::BetResultEvent`;
    const want = chain.eventsOfType(type);
    const got = [];
    let after: string | null = null;
    for (;;) {
      const page: Awaited<ReturnType<ListEvents>> = await client.listEvents({ filter: { eventType: type }, after, limit: 30 });
      got.push(...page.events);
      if (!page.hasNextPage) break;
      expect(page.endCursor).toBeTruthy();
      after = page.endCursor;
    }
    expect(got.map((e) => `${e.transactionDigest}#${e.eventIndex}`)).toEqual(want.map((e) => `${e.txDigest}#${e.eventIndex}`));
    const [first] = got;
    expect(first).toMatchObject({
      packageId: chain.packageId,
      module: 'game',
      eventType: type,
      checkpoint: want[0].checkpoint.toString(),
      json: want[0].json,
    });
    const decoded = BetResult.parse(first.bcs);
    expect(decoded.stake).toBe(want[0].json.stake);
    expect(decoded.player).toBe(want[0].json.player);
  });

  it('pages descending', async () => {
    const client = clients[name]();
    const type = `${chain.packageId}::house::HouseLiquidityEvent`;
    const want = chain.eventsOfType(type).reverse();
    const got = [];
    let before: string | null = null;
    for (;;) {
      const page: Awaited<ReturnType<ListEvents>> = await client.listEvents({ filter: { eventType: type }, before, order: 'descending', limit: 20 });
      got.push(...page.events);
      if (!page.hasNextPage) break;
      before = page.endCursor;
    }
    expect(got.map((e) => e.transactionDigest + e.eventIndex)).toEqual(want.map((e) => e.txDigest + e.eventIndex));
  });
});

describe('fixture protocol details', () => {
  it('GraphQL rejects a page larger than the service limit, as Sui does', async () => {
    const client = new SuiGraphQLClient({ url: chain.graphqlUrl, network: 'localnet' });
    await expect(client.listEvents({ filter: { eventType: `${chain.packageId}::vip::PlayerVipExpProgressEvent` }, limit: 51 })).rejects.toThrow(/page size/);
  });

  it('serves the SDK document and arbitrary queries over the Sui schema (timestamp included)', async () => {
    const client = new SuiGraphQLClient({ url: chain.graphqlUrl, network: 'localnet' });
    const res = await client.query({
      query: 'query { events(first: 1, filter: { type: "' + chain.packageId + '::vip" }) { nodes { timestamp sequenceNumber } } }',
      variables: {},
    });
    expect(res.errors).toBeUndefined();
    const first = chain.events.find((e) => e.module === 'vip')!;
    expect(res.data).toEqual({ events: { nodes: [{ timestamp: new Date(first.timestampMs).toISOString(), sequenceNumber: first.eventIndex }] } });
  });

  it('gRPC reports injected failures as UNAVAILABLE and answers BatchGetTransactions', async () => {
    const client = new SuiGrpcClient({ baseUrl: chain.grpcUrl, network: 'localnet' });
    chain.failNext(1, 'grpc');
    await expect(client.listEvents({ filter: { eventType: `${chain.packageId}::vip::PlayerVipExpProgressEvent` } })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    const e = chain.events[10];
    const { response } = await client.ledgerService.batchGetTransactions({ digests: [e.txDigest], readMask: { paths: ['timestamp'] } });
    const tx = response.transactions[0].result;
    expect(tx.oneofKind).toBe('transaction');
    if (tx.oneofKind === 'transaction') expect(Number(tx.transaction.timestamp!.seconds) * 1000).toBe(Math.floor(e.timestampMs / 1000) * 1000);
  });

  it('is deterministic per seed and appends continue the sequence', async () => {
    const other = await startSuiChainFixture({ seed: 3, events: 1500 });
    try {
      expect(other.events.map((e) => e.txDigest)).toEqual(chain.events.slice(0, other.events.length).map((e) => e.txDigest));
      const added = other.append(50);
      expect(added.length).toBeGreaterThanOrEqual(50);
      expect(added[0].checkpoint).toBeGreaterThanOrEqual(other.events[other.events.length - added.length - 1].checkpoint);
    } finally {
      await other.close();
    }
  });
});
