import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { parse, subscribe, type ExecutionResult } from 'graphql';
import { Arg, buildSchema, Field, ObjectType, Query, Resolver, Root, Subscription } from 'type-graphql';
import { afterEach, describe, expect, it } from 'vitest';
import { createBus, createSharedStore, type SharedStore } from '../../src/store';
import { captureLogger } from '../helpers/store';

/**
 * The store's PubSub as type-graphql's `pubSub`: a subscription resolved through graphql's
 * own `subscribe`, fed by a publisher on another store (another replica, with Redis).
 */
const redisUrl = process.env.SHARED_STORE_URL;

@ObjectType()
class Message {
  @Field(() => String)
  room!: string;

  @Field(() => String)
  text!: string;
}

@Resolver()
class MessageResolver {
  @Query(() => String)
  ping(): string {
    return 'pong';
  }

  @Subscription(() => Message, {
    topics: 'MESSAGE',
    topicId: ({ args }) => (args as { room: string }).room,
    filter: ({ payload }) => (payload as Message).text !== 'hidden',
  })
  message(@Root() payload: Message, @Arg('room', () => String) _room: string): Message {
    return payload;
  }
}

const opened: SharedStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const variants = [
  { name: 'memory', available: true, url: undefined },
  { name: 'redis', available: Boolean(redisUrl), url: redisUrl },
];

for (const variant of variants) {
  describe.skipIf(!variant.available)(`type-graphql subscriptions over the ${variant.name} store`, () => {
    it('delivers events published on another replica and unsubscribes when the client leaves', async () => {
      const { logger } = captureLogger();
      const keyPrefix = `test:${randomUUID()}:`;
      const make = async () => {
        const store = await createSharedStore({ cacheStore: variant.url ? 'redis' : undefined, url: variant.url, keyPrefix, logger });
        opened.push(store);
        return store;
      };
      const subscriberSide = await make();
      const publisherSide = variant.url ? await make() : subscriberSide;

      let active = 0;
      const counted: SharedStore = new Proxy(subscriberSide, {
        get(target, prop) {
          if (prop === 'subscribe') {
            return async (channel: string, fn: (m: string) => void) => {
              const off = await target.subscribe(channel, fn);
              active += 1;
              return async () => {
                active -= 1;
                await off();
              };
            };
          }
          const value = Reflect.get(target, prop, target) as unknown;
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });

      const schema = await buildSchema({
        resolvers: [MessageResolver],
        pubSub: createBus(counted, { logger }).pubSub,
        validate: false,
        // type-graphql's metadata is per process: with the app's @Authorized resolvers loaded by an
        // earlier file in this worker, any schema build must name a checker.
        authChecker: () => true,
      });
      const result = await subscribe({
        schema,
        document: parse('subscription { message(room: "r1") { room text } }'),
      });
      if (!(Symbol.asyncIterator in result)) throw new Error(`subscribe failed: ${JSON.stringify(result)}`);
      const events = result as AsyncGenerator<ExecutionResult>;
      const first = events.next(); // starts the source stream

      const publisher = createBus(publisherSide, { logger }).pubSub;
      await waitUntil(() => active === 1);
      await publisher.publish('MESSAGE', 'r2', { room: 'r2', text: 'other room' });
      await publisher.publish('MESSAGE', 'r1', { room: 'r1', text: 'hidden' });
      await publisher.publish('MESSAGE', 'r1', { room: 'r1', text: 'hello' });

      expect((await first).value).toEqual({ data: { message: { room: 'r1', text: 'hello' } } });
      await events.return(undefined);
      await waitUntil(() => active === 0);
    });
  });
}

async function waitUntil(check: () => boolean, ms = 3_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}
