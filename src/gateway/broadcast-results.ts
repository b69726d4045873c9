import {
  createSourceEventStream,
  execute,
  getOperationAST,
  subscribe as executeSubscription,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLSchema,
} from 'graphql';

import { BROADCAST_EXTENSION } from '../graphql/broadcast';

type Result = ExecutionResult;
type SubscribeResult = AsyncIterableIterator<Result> | Result;

export interface BroadcastResults {
  /**
   * graphql-ws's `subscribe`. Broadcast operations execute once per event and operation in this
   * process; when their arguments were registered with `direct`, each event's shared JSON is
   * written straight to that subscriber's sink, and graphql-ws only sees the results it must
   * format itself (those with errors, and any result queued behind one, so order is kept).
   */
  subscribe(args: ExecutionArgs): Promise<SubscribeResult>;
  /** Routes the shared results of the operation these arguments start to `sink` (it writes the subscriber's `next` frame). */
  direct(args: ExecutionArgs, sink: (payloadJson: string) => void): void;
}

export function createBroadcastResults(opts: { onExecuted?: () => void } = {}): BroadcastResults {
  const eligible = new WeakMap<DocumentNode, Map<string | undefined, boolean>>();
  const documentIds = new WeakMap<DocumentNode, number>();
  const json = new WeakMap<Result, string>();
  /** Per event: results by operation key, as promises so concurrent subscribers share one execution. */
  const results = new WeakMap<object, Map<string, Promise<Result>>>();
  const sinks = new WeakMap<ExecutionArgs, (payloadJson: string) => void>();
  let nextDocumentId = 0;

  function isBroadcast(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): boolean {
    let byName = eligible.get(document);
    if (!byName) eligible.set(document, (byName = new Map()));
    const name = operationName ?? undefined;
    let verdict = byName.get(name);
    if (verdict === undefined) {
      const operation = getOperationAST(document, name);
      const fields = schema.getSubscriptionType()?.getFields() ?? {};
      verdict =
        operation?.operation === 'subscription' &&
        operation.selectionSet.selections.every((s) => s.kind === 'Field' && s.name.value !== '__typename' && fields[s.name.value]?.extensions?.[BROADCAST_EXTENSION] === true);
      byName.set(name, verdict);
    }
    return verdict;
  }

  function operationKey(args: ExecutionArgs): string {
    let id = documentIds.get(args.document);
    if (id === undefined) documentIds.set(args.document, (id = nextDocumentId++));
    return `${id}\u0000${args.operationName ?? ''}\u0000${JSON.stringify(args.variableValues ?? {})}`;
  }

  function resultFor(event: unknown, key: string, args: ExecutionArgs): Promise<Result> {
    if (event === null || typeof event !== 'object') return Promise.resolve(execute({ ...args, rootValue: event }));
    let byKey = results.get(event);
    if (!byKey) results.set(event, (byKey = new Map()));
    let result = byKey.get(key);
    if (!result) {
      opts.onExecuted?.();
      result = Promise.resolve(execute({ ...args, rootValue: event })).then((r) => {
        if (!r.errors?.length) json.set(r, JSON.stringify(r));
        return r;
      });
      byKey.set(key, result);
    }
    return result;
  }

  return {
    async subscribe(args) {
      if (!isBroadcast(args.schema, args.document, args.operationName)) return executeSubscription(args);
      const source = await createSourceEventStream(args);
      if (!(Symbol.asyncIterator in source)) return source;
      const key = operationKey(args);
      const events = source[Symbol.asyncIterator]();
      const sink = sinks.get(args);
      return sink ? pumped(events, (event) => resultFor(event, key, args), (r) => json.get(r), sink) : mapped(events, (event) => resultFor(event, key, args));
    },
    direct: (args, sink) => void sinks.set(args, sink),
  };
}

/** Each event's result handed to graphql-ws (no sink: graphql-ws serializes every frame). */
function mapped(events: AsyncIterator<unknown>, resultOf: (event: unknown) => Promise<Result>): AsyncIterableIterator<Result> {
  // An explicit iterator, not an async generator: `return()` must end a subscription that is waiting for its next event.
  const iterator: AsyncIterableIterator<Result> = {
    [Symbol.asyncIterator]: () => iterator,
    async next() {
      const step = await events.next();
      return step.done ? { done: true, value: undefined } : { done: false, value: await resultOf(step.value) };
    },
    async return() {
      await events.return?.();
      return { done: true, value: undefined };
    },
    async throw(err?: unknown) {
      await events.return?.();
      throw err;
    },
  };
  return iterator;
}

/**
 * Pumps the events itself: a shared result goes to `sink` at once; graphql-ws's iterator only
 * yields the rest. While graphql-ws holds a yielded result (it is still sending it) or has
 * results queued, shared ones queue too, so frames leave in event order.
 */
function pumped(
  events: AsyncIterator<unknown>,
  resultOf: (event: unknown) => Promise<Result>,
  sharedJson: (result: Result) => string | undefined,
  sink: (payloadJson: string) => void,
): AsyncIterableIterator<Result> {
  const queue: Result[] = [];
  let waiter: ((step: IteratorResult<Result>) => void) | undefined;
  let rejecter: ((err: unknown) => void) | undefined;
  let handedOut = false;
  let ended = false;
  let failure: { err: unknown } | undefined;

  const settle = () => {
    const resolve = waiter;
    const reject = rejecter;
    if (!resolve || !reject) return;
    if (queue.length) {
      waiter = rejecter = undefined;
      handedOut = true;
      resolve({ done: false, value: queue.shift()! });
    } else if (failure) {
      waiter = rejecter = undefined;
      reject(failure.err);
    } else if (ended) {
      waiter = rejecter = undefined;
      resolve({ done: true, value: undefined });
    }
  };

  void (async () => {
    try {
      for (;;) {
        const step = await events.next();
        if (step.done || ended) break;
        const result = await resultOf(step.value);
        if (ended) break;
        const shared = sharedJson(result);
        if (shared !== undefined && !handedOut && queue.length === 0) sink(shared);
        else {
          queue.push(result);
          settle();
        }
      }
    } catch (err) {
      if (!ended) failure = { err };
    } finally {
      ended = true;
      settle();
    }
  })();

  async function stop(): Promise<IteratorResult<Result>> {
    ended = true;
    queue.length = 0;
    settle();
    await events.return?.();
    return { done: true, value: undefined };
  }

  const iterator: AsyncIterableIterator<Result> = {
    [Symbol.asyncIterator]: () => iterator,
    next() {
      handedOut = false;
      return new Promise<IteratorResult<Result>>((resolve, reject) => {
        waiter = resolve;
        rejecter = reject;
        settle();
      });
    },
    return: stop,
    async throw(err?: unknown) {
      await stop();
      throw err;
    },
  };
  return iterator;
}
