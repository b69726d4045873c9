/**
 * The broadcast delivery's ordering rule, on a small schema: shared results go to the sink at
 * once, results with errors go through graphql-ws's iterator, and while graphql-ws holds one (or
 * has a backlog) later shared results queue behind it, so the subscriber sees events in order.
 */
import { GraphQLInt, GraphQLObjectType, GraphQLSchema, parse, type ExecutionResult } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createBroadcastResults } from '../../src/gateway/broadcast-results';
import { BROADCAST_EXTENSION } from '../../src/graphql/broadcast';
import { createBus, defineChannel } from '../../src/store';
import { createMemoryStore } from '../../src/store';
import { testLogger } from '../helpers/db';

interface Tick {
  n: number;
}

/** `tick { n boom }`: `boom` fails on ticks divisible by 3; the source is whatever `source()` returns. */
function schemaWith(source: () => AsyncIterator<Tick>) {
  const tick = new GraphQLObjectType({
    name: 'Tick',
    fields: {
      n: { type: GraphQLInt },
      boom: {
        type: GraphQLInt,
        resolve: (t: Tick) => {
          if (t.n % 3 === 0) throw new Error(`boom ${t.n}`);
          return t.n;
        },
      },
    },
  });
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: { ok: { type: GraphQLInt } } }),
    subscription: new GraphQLObjectType({
      name: 'Subscription',
      fields: {
        tick: {
          type: tick,
          extensions: { [BROADCAST_EXTENSION]: true },
          subscribe: () => ({ [Symbol.asyncIterator]: source }),
          resolve: (t: Tick) => t,
        },
      },
    }),
  });
}

type Seen = Array<{ via: 'sink' | 'iterator'; n: number | undefined; error?: string }>;

async function run(source: () => AsyncIterator<Tick>, publish: (n: number) => Promise<void> | void, until: (seen: Seen) => boolean) {
  const broadcast = createBroadcastResults();
  const args = { schema: schemaWith(source), document: parse('subscription { tick { n boom } }') };
  const seen: Seen = [];
  broadcast.direct(args, (json) => seen.push({ via: 'sink', n: (JSON.parse(json.toString()) as { data: { tick: Tick } }).data.tick.n }));
  const iterator = (await broadcast.subscribe(args)) as AsyncIterableIterator<ExecutionResult<{ tick: Tick | null }>>;
  // graphql-ws's side: one result at a time, the next asked for only after the last one was "sent"
  const consumed = (async () => {
    for await (const result of iterator) {
      seen.push({ via: 'iterator', n: (result.data?.tick as Tick | null)?.n, ...(result.errors ? { error: result.errors[0]!.message } : {}) });
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  for (let n = 1; n <= 7; n++) await publish(n);
  for (let i = 0; i < 400 && !until(seen); i++) await new Promise((r) => setTimeout(r, 5));
  await iterator.return!();
  await consumed;
  return seen;
}

const inOrder = (seen: Seen) => seen.map((s) => s.n);

describe('broadcast results: sink and iterator keep event order', () => {
  it('with a bus stream (events handed over synchronously)', async () => {
    const store = createMemoryStore({ logger: testLogger });
    const bus = createBus(store, { logger: testLogger });
    const ticks = defineChannel<Tick>('ticks');
    const stream = bus.stream(ticks);
    await stream.ready;
    const seen = await run(
      () => stream,
      (n) => bus.publish(ticks, { n }),
      (s) => s.length === 7,
    );
    expect(inOrder(seen)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // 3 and 6 fail: graphql-ws sends those (with their error); 4 and 5 queue behind 3 while it is sent
    expect(seen.filter((s) => s.error).map((s) => [s.n, s.error])).toEqual([
      [3, 'boom 3'],
      [6, 'boom 6'],
    ]);
    expect(seen.slice(0, 2).every((s) => s.via === 'sink')).toBe(true);
    expect(seen[2]!.via).toBe('iterator');
    await store.close();
  });

  it('with any other async iterator (pulled)', async () => {
    const events: Tick[] = [];
    let wake: (() => void) | undefined;
    const source = (): AsyncIterator<Tick> => ({
      async next() {
        while (events.length === 0) await new Promise<void>((r) => (wake = r));
        return { done: false, value: events.shift()! };
      },
      async return() {
        return { done: true, value: undefined };
      },
    });
    const seen = await run(
      source,
      (n) => {
        events.push({ n });
        wake?.();
      },
      (s) => s.length === 7,
    );
    expect(inOrder(seen)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(seen.filter((s) => s.error).map((s) => s.error)).toEqual(['boom 3', 'boom 6']);
  });
});

describe('broadcast results: asynchronous executions (a type-graphql resolver with arguments is asynchronous)', () => {
  it('are executed once per event for every subscriber and delivered in event order, also when a later one settles first', async () => {
    const store = createMemoryStore({ logger: testLogger });
    const bus = createBus(store, { logger: testLogger });
    const ticks = defineChannel<Tick>('slow-ticks');
    const streams = [bus.stream(ticks), bus.stream(ticks)];
    await Promise.all(streams.map((s) => s.ready));
    let next = 0;
    const schema = new GraphQLSchema({
      query: new GraphQLObjectType({ name: 'Query', fields: { ok: { type: GraphQLInt } } }),
      subscription: new GraphQLObjectType({
        name: 'Subscription',
        fields: {
          tick: {
            type: new GraphQLObjectType({
              name: 'SlowTick',
              fields: {
                n: { type: GraphQLInt },
                // odd ticks take longer, so tick 2 settles before tick 1; ticks 3 and 6 reject
                slow: {
                  type: GraphQLInt,
                  resolve: (t: Tick) =>
                    new Promise((resolve, reject) => setTimeout(() => (t.n % 3 === 0 ? reject(new Error(`slow boom ${t.n}`)) : resolve(t.n)), t.n % 2 ? 30 : 1)),
                },
              },
            }),
            extensions: { [BROADCAST_EXTENSION]: true },
            subscribe: () => ({ [Symbol.asyncIterator]: () => streams[next++]! }),
            resolve: (t: Tick) => t,
          },
        },
      }),
    });
    let executions = 0;
    const broadcast = createBroadcastResults({ onExecuted: () => executions++ });
    const document = parse('subscription { tick { n slow } }');
    const subscribers = [0, 1].map(() => {
      const args = { schema, document };
      const seen: Seen = [];
      broadcast.direct(args, (json) => seen.push({ via: 'sink', n: (JSON.parse(json.toString()) as { data: { tick: Tick } }).data.tick.n }));
      return { args, seen };
    });
    const iterators = await Promise.all(subscribers.map((s) => broadcast.subscribe(s.args) as Promise<AsyncIterableIterator<ExecutionResult<{ tick: Tick | null }>>>));
    const consumed = iterators.map(async (iterator, i) => {
      for await (const result of iterator) subscribers[i]!.seen.push({ via: 'iterator', n: (result.data?.tick as Tick | null)?.n, ...(result.errors ? { error: result.errors[0]!.message } : {}) });
    });
    for (let n = 1; n <= 7; n++) await bus.publish(ticks, { n });
    for (let i = 0; i < 400 && !subscribers.every((s) => s.seen.length === 7); i++) await new Promise((r) => setTimeout(r, 5));
    for (const { seen } of subscribers) {
      expect(inOrder(seen)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(seen.filter((s) => s.error).map((s) => s.error)).toEqual(['slow boom 3', 'slow boom 6']);
    }
    expect(executions).toBe(7);
    await Promise.all(iterators.map((it) => it.return!()));
    await Promise.all(consumed);
    await store.close();
  });
});
