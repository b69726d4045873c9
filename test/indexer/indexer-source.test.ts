import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSuiChainFixture, type FixtureEvent, type SuiChainFixture } from '../fixtures/sui-chain/index.js';
import { createEventSource, type ChainEvent, type EventSource, type Transport } from '../../src/indexer/sources/index.js';
import { EVENT_KINDS, KIND_LIST, eventTypeOf } from '../../src/indexer/kinds.js';
import { followKind, type DecodedEvent } from '../../src/indexer/follow.js';

const TRANSPORTS: Transport[] = ['graphql', 'grpc'];
const PAGE = 25;

let chain: SuiChainFixture;

beforeAll(async () => {
  chain = await startSuiChainFixture({
    seed: 7,
    events: 4000,
    graphql: { shortPageProbability: 0.4 },
    grpc: { shortPageProbability: 0.4 },
  });
});
afterAll(() => chain?.close());

const id = (e: { txDigest: string; eventSeq?: number; eventIndex?: number }) => `${e.txDigest}#${e.eventSeq ?? e.eventIndex}`;

function expectSameEvents(got: ChainEvent[], want: FixtureEvent[]): void {
  expect(new Set(got.map(id)).size).toBe(got.length); // no duplicate
  expect(got.map(id)).toEqual(want.map(id)); // no gap, same order
  got.forEach((e, i) => {
    const w = want[i];
    expect(e).toEqual({
      txDigest: w.txDigest,
      eventSeq: w.eventIndex,
      checkpoint: w.checkpoint,
      timestampMs: w.timestampMs,
      sender: w.sender,
      type: w.type,
      json: w.json,
    });
  });
}

interface Drained {
  events: ChainEvent[];
  cursor: string | null;
  pages: number;
  emptyPagesWithNext: number;
  shortPagesWithNext: number;
}

async function drain(source: EventSource, eventType: string, cursor: string | null, stopAfter = Infinity): Promise<Drained> {
  const out: Drained = { events: [], cursor, pages: 0, emptyPagesWithNext: 0, shortPagesWithNext: 0 };
  for (;;) {
    const page = await source.listEvents({ eventType, cursor: out.cursor, limit: PAGE });
    out.pages++;
    out.events.push(...page.events);
    if (page.hasNextPage && page.events.length === 0) out.emptyPagesWithNext++;
    if (page.hasNextPage && page.events.length < PAGE) out.shortPagesWithNext++;
    out.cursor = page.nextCursor ?? out.cursor;
    if (!page.hasNextPage || out.events.length >= stopAfter) return out;
  }
}

it('the gRPC source asks the node only for the event fields it reads (no BCS contents)', async () => {
  const type = eventTypeOf(EVENT_KINDS.bet_result_event, chain.packageId);
  const page = await createEventSource({ transport: 'grpc', url: chain.grpcUrl }).listEvents({ eventType: type, cursor: null, limit: 5 });
  expect(page.events).toHaveLength(5);
  expect(chain.stats.byTransport.grpc.readMask?.sort()).toEqual(['checkpoint', 'event_index', 'event_type', 'json', 'sender', 'transaction_digest']);
});

it('the gRPC source asks for each transaction time once, also when two kinds read the same transactions at once', async () => {
  const source = createEventSource({ transport: 'grpc', url: chain.grpcUrl });
  const kinds = [EVENT_KINDS.bet_result_event, EVENT_KINDS.vip_exp_progress_event];
  const pages = await Promise.all(kinds.map((kind) => source.listEvents({ eventType: eventTypeOf(kind, chain.packageId), cursor: null, limit: 40 })));
  const digests = pages.map((page) => new Set(page.events.map((e) => e.txDigest)));
  const shared = [...digests[0]].filter((d) => digests[1].has(d)).length;
  expect(shared).toBeGreaterThan(0); // a bet emits its result and the XP it earned
  const before = chain.stats.byTransport.grpc.transactionLookups;
  const again = await source.listEvents({ eventType: eventTypeOf(kinds[0], chain.packageId), cursor: null, limit: 40 });
  expect(chain.stats.byTransport.grpc.transactionLookups).toBe(before);
  expect(again.events.map((e) => e.timestampMs)).toEqual(pages[0].events.map((e) => e.timestampMs));
  const fresh = createEventSource({ transport: 'grpc', url: chain.grpcUrl });
  const lookupsBefore = chain.stats.byTransport.grpc.transactionLookups;
  await Promise.all(kinds.map((kind) => fresh.listEvents({ eventType: eventTypeOf(kind, chain.packageId), cursor: null, limit: 40 })));
  expect(chain.stats.byTransport.grpc.transactionLookups - lookupsBefore).toBe(new Set([...digests[0], ...digests[1]]).size);
});

describe.each(TRANSPORTS)('indexer event source over %s', (transport) => {
  const source = () => createEventSource({ transport, url: transport === 'graphql' ? chain.graphqlUrl : chain.grpcUrl });

  it('pages through every kind with short and empty pages: no gap, no duplicate', async () => {
    let empty = 0;
    let short = 0;
    for (const kind of KIND_LIST) {
      const type = eventTypeOf(kind, chain.packageId);
      const want = chain.eventsOfType(type);
      expect(want.length, kind.key).toBeGreaterThan(10);
      const got = await drain(source(), type, null);
      expectSameEvents(got.events, want);
      for (const e of got.events) expect(() => kind.decode(e.json)).not.toThrow();
      empty += got.emptyPagesWithNext;
      short += got.shortPagesWithNext;
    }
    // The fixture's scan budgets must actually have produced the awkward pages.
    expect(empty).toBeGreaterThan(0);
    expect(short).toBeGreaterThan(empty);
  });

  it('resumes from a stored cursor mid-way with a fresh client', async () => {
    const type = eventTypeOf(EVENT_KINDS.bet_result_event, chain.packageId);
    const want = chain.eventsOfType(type);
    const first = await drain(source(), type, null, Math.floor(want.length / 2));
    expect(first.events.length).toBeLessThan(want.length);
    const rest = await drain(source(), type, first.cursor);
    expectSameEvents([...first.events, ...rest.events], want);
  });

  it('keeps paging through short and empty pages without waiting for the poll interval', async () => {
    const kind = EVENT_KINDS.daily_streak_reset_event; // rare: most scanned ranges hold none
    const want = chain.eventsOfType(eventTypeOf(kind, chain.packageId));
    const before = { ...chain.stats.byTransport[transport] };
    chain.setPaging(transport, { scanLimit: 40 }); // every request scans at most 40 ledger positions
    const seen: string[] = [];
    const controller = new AbortController();
    const started = Date.now();
    const done = followKind({
      source: source(),
      kind,
      packageId: chain.packageId,
      startCursor: null,
      pageSize: PAGE,
      pollIntervalMs: 60_000, // a follower that slept on a short page would time out
      signal: controller.signal,
      onBatch: async (batch) => {
        seen.push(...batch.events.map(id));
        if (seen.length === want.length) controller.abort();
      },
    });
    await done.finally(() => chain.setPaging(transport, { scanLimit: undefined }));
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(seen).toEqual(want.map(id));
    expect(chain.stats.byTransport[transport].emptyPagesWithNext).toBeGreaterThan(before.emptyPagesWithNext);
  });

  it('writes the pages of a backfill in batches of several pages, each stored with its last page cursor', async () => {
    const kind = EVENT_KINDS.bet_result_event;
    const want = chain.eventsOfType(eventTypeOf(kind, chain.packageId));
    const batches: { events: string[]; cursor: string | null; nextCursor: string }[] = [];
    const controller = new AbortController();
    let caughtUp = false;
    const done = followKind({
      source: source(),
      kind,
      packageId: chain.packageId,
      startCursor: null,
      pageSize: PAGE,
      pagesPerBatch: 4,
      pollIntervalMs: 60_000,
      signal: controller.signal,
      onCaughtUp: () => {
        caughtUp = true;
        controller.abort();
      },
      onBatch: async (batch) => void batches.push({ events: batch.events.map(id), cursor: batch.cursor, nextCursor: batch.nextCursor }),
    });
    const last = await done;
    expect(caughtUp).toBe(true);
    expect(batches.flatMap((b) => b.events)).toEqual(want.map(id));
    expect(Math.max(...batches.map((b) => b.events.length))).toBeGreaterThan(PAGE);
    expect(batches.every((b) => b.events.length <= 4 * PAGE)).toBe(true);
    // Each batch was read from the previous batch's cursor, and the last one is where following stopped.
    batches.forEach((b, i) => expect(b.cursor).toBe(i === 0 ? null : batches[i - 1].nextCursor));
    expect(last).toBe(batches.at(-1)!.nextCursor);
    // Resuming from a batch's cursor continues right after its last event.
    const mid = batches[Math.floor(batches.length / 2)];
    const rest = await drain(source(), eventTypeOf(kind, chain.packageId), mid.nextCursor);
    expect(rest.events.map(id)).toEqual(want.map(id).slice(want.map(id).indexOf(mid.events.at(-1)!) + 1));
  });

  it('follows a kind, sees appended events, retries transport failures', async () => {
    const kind = EVENT_KINDS.referral_reward_event;
    const type = eventTypeOf(kind, chain.packageId);
    const seen: DecodedEvent<unknown>[] = [];
    const cursors: string[] = [];
    let retries = 0;
    const controller = new AbortController();
    const waitFor = async (n: number) => {
      const deadline = Date.now() + 20_000;
      while (seen.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    };
    chain.failNext(3, transport);
    const done = followKind({
      source: source(),
      kind,
      packageId: chain.packageId,
      startCursor: null,
      pageSize: PAGE,
      pollIntervalMs: 30,
      signal: controller.signal,
      retry: { initialMs: 5, maxMs: 50 },
      onRetry: () => void retries++,
      onBatch: async (batch) => {
        seen.push(...batch.events);
        cursors.push(batch.nextCursor);
      },
    });
    await waitFor(chain.eventsOfType(type).length);
    expect(retries).toBeGreaterThanOrEqual(3);
    chain.append(400);
    const want = chain.eventsOfType(type);
    await waitFor(want.length);
    controller.abort();
    const last = await done;
    expect(last).toBe(cursors.at(-1));
    expect(seen.map(id)).toEqual(want.map(id));
    expect(seen.every((e) => typeof (e.data as { amount: unknown }).amount === 'bigint')).toBe(true);
  });
});
