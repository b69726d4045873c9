import {
  createSourceEventStream,
  execute as executeWithGraphqlJs,
  getOperationAST,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLSchema,
} from 'graphql';

import { BROADCAST_EXTENSION } from '../graphql/broadcast';

type Result = ExecutionResult;
type SubscribeResult = AsyncIterableIterator<Result> | Result;
/** Executes the operation's selection on one event (the transport's executor: graphql-jit plans in the gateway). */
export type EventExecutor = (args: ExecutionArgs, event: unknown) => Result | Promise<Result>;

export interface BroadcastResults {
  /**
   * graphql-ws's `subscribe`. Broadcast operations execute once per event and operation in this
   * process; when their arguments were registered with `direct`, each event's shared JSON is
   * written straight to that subscriber's sink, and graphql-ws only sees the results it must
   * format itself (those with errors, and any result queued behind one, so order is kept).
   */
  subscribe(args: ExecutionArgs): Promise<SubscribeResult>;
  /** Routes the shared results of the operation these arguments start to `sink` (it writes the subscriber's `next` frame; the payload is the result's JSON in UTF-8). */
  direct(args: ExecutionArgs, sink: (payloadJson: Buffer) => void): void;
}

/**
 * A room broadcast to 10,000 subscribers must not run 10,000 executions and serializations:
 * subscribers of the same document, operation and variables get the same result object for the
 * same event (the bus hands every local listener one frozen event), executed, serialized and
 * encoded to UTF-8 once, and each subscriber's frame is that JSON in its own `next` envelope, written by its sink.
 * Operations selecting any field not marked broadcast are executed per subscriber and event.
 * The source stream comes from graphql-js (`createSourceEventStream`); each event is executed
 * by `execute` (graphql-js's by default).
 */
export function createBroadcastResults(opts: { onExecuted?: () => void; execute?: EventExecutor } = {}): BroadcastResults {
  const execute: EventExecutor = opts.execute ?? ((args, event) => executeWithGraphqlJs({ ...args, rootValue: event }));
  const eligible = new WeakMap<DocumentNode, Map<string | undefined, boolean>>();
  const documentIds = new WeakMap<DocumentNode, number>();
  const json = new WeakMap<Result, Buffer>();
  /** Per event: results by operation key (a shared execution while an asynchronous one runs, so subscribers share it). */
  const results = new WeakMap<object, Map<string, Result | SharedExecution>>();
  const sinks = new WeakMap<ExecutionArgs, (payloadJson: Buffer) => void>();
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

  /** The event's result for this operation: executed once per event and key, synchronously when execution is. */
  function resultFor(event: unknown, key: string, args: ExecutionArgs): Result | Promise<Result> | SharedExecution {
    if (event === null || typeof event !== 'object') return execute(args, event);
    let byKey = results.get(event);
    if (!byKey) results.set(event, (byKey = new Map()));
    let result = byKey.get(key);
    if (!result) {
      opts.onExecuted?.();
      const shareable = (r: Result) => {
        if (!r.errors?.length) json.set(r, Buffer.from(JSON.stringify(r)));
        return r;
      };
      const executed = execute(args, event);
      result = isPromise(executed) ? new SharedExecution(executed.then(shareable)) : shareable(executed);
      byKey.set(key, result);
    }
    return result;
  }

  return {
    async subscribe(args) {
      const source = await createSourceEventStream(args);
      if (!(Symbol.asyncIterator in source)) return source;
      const events = source[Symbol.asyncIterator]();
      if (!isBroadcast(args.schema, args.document, args.operationName)) return mapped(events, (event) => execute(args, event));
      const key = operationKey(args);
      const sink = sinks.get(args);
      return sink ? pumped(events, (event) => resultFor(event, key, args), (r) => json.get(r), sink) : mapped(events, (event) => settledOf(resultFor(event, key, args)));
    },
    direct: (args, sink) => void sinks.set(args, sink),
  };
}

type Outcome = { result: Result } | { err: unknown };

/**
 * An asynchronous execution shared by every subscriber of one operation and event (a resolver
 * with arguments is asynchronous under type-graphql): when it settles, the subscribers waiting
 * for it are called back in one loop, where a promise each would cost every delivery its own
 * reactions and microtasks.
 */
class SharedExecution {
  readonly promise: Promise<Result>;
  private outcome: Outcome | undefined;
  private waiting: Array<(outcome: Outcome) => void> = [];

  constructor(promise: Promise<Result>) {
    this.promise = promise;
    promise.then(
      (result) => this.settle({ result }),
      (err: unknown) => this.settle({ err }),
    );
  }

  /** Calls `callback` with the outcome: at once when settled, else in the settling loop. */
  whenSettled(callback: (outcome: Outcome) => void): void {
    if (this.outcome) callback(this.outcome);
    else this.waiting.push(callback);
  }

  private settle(outcome: Outcome): void {
    this.outcome = outcome;
    const waiting = this.waiting;
    this.waiting = [];
    // Each callback handles its own errors (pumped's `settled`).
    for (const callback of waiting) callback(outcome);
  }
}

const settledOf = (value: Result | Promise<Result> | SharedExecution): Result | Promise<Result> => (value instanceof SharedExecution ? value.promise : value);

/** Each event's result handed to graphql-ws (no sink: graphql-ws serializes every frame). */
function mapped(events: AsyncIterator<unknown>, resultOf: (event: unknown) => Result | Promise<Result>): AsyncIterableIterator<Result> {
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

/** A source that can hand events over synchronously (the bus's BusStream). */
interface AttachableSource {
  attach(consumer: (event: unknown) => void): void;
}
const isAttachable = (events: AsyncIterator<unknown>): events is AsyncIterator<unknown> & AttachableSource =>
  typeof (events as Partial<AttachableSource>).attach === 'function';
const isPromise = <T>(value: T | Promise<T>): value is Promise<T> => typeof (value as { then?: unknown } | null)?.then === 'function';

/**
 * Delivers the events itself: a shared result goes to `sink` at once; graphql-ws's iterator only
 * yields the rest. While graphql-ws holds a yielded result (it is still sending it) or has
 * results queued, shared ones queue too, so frames leave in event order. While an asynchronous
 * execution is awaited, later events wait behind it (a later one may settle first). A bus stream
 * hands events over synchronously and a shared execution calls its subscribers back in one loop
 * (no promise per subscriber and event); any other source is pulled.
 */
function pumped(
  events: AsyncIterator<unknown>,
  resultOf: (event: unknown) => Result | Promise<Result> | SharedExecution,
  sharedJson: (result: Result) => Buffer | undefined,
  sink: (payloadJson: Buffer) => void,
): AsyncIterableIterator<Result> {
  const queue: Result[] = [];
  let waiter: ((step: IteratorResult<Result>) => void) | undefined;
  let rejecter: ((err: unknown) => void) | undefined;
  let handedOut = false;
  let ended = false;
  let failure: { err: unknown } | undefined;
  /** Set while an asynchronous execution is awaited: later events wait in `behind`, in order. */
  let awaiting = false;
  const behind: unknown[] = [];
  /** A pulled source's loop, parked while an execution is awaited. */
  let parked: (() => void) | undefined;
  const unpark = () => {
    const resume = parked;
    parked = undefined;
    resume?.();
  };

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
  const fail = (err: unknown) => {
    if (!ended) failure = { err };
    ended = true;
    settle();
  };
  const deliver = (result: Result) => {
    if (ended) return;
    const shared = sharedJson(result);
    if (shared !== undefined && !handedOut && queue.length === 0) return sink(shared);
    queue.push(result);
    settle();
  };
  /** The awaited execution settled: its result goes out, then the events that waited behind it, in order. */
  const settled = (outcome: Outcome) => {
    awaiting = false;
    try {
      if ('err' in outcome) fail(outcome.err);
      else deliver(outcome.result);
    } catch (err) {
      fail(err);
    }
    while (!awaiting && !ended && behind.length > 0) accept(behind.shift());
    if (!awaiting) unpark();
  };
  const accept = (event: unknown) => {
    if (ended) return;
    if (awaiting) return void behind.push(event);
    let result: Result | Promise<Result> | SharedExecution;
    try {
      result = resultOf(event);
    } catch (err) {
      return fail(err);
    }
    if (result instanceof SharedExecution) {
      awaiting = true;
      result.whenSettled(settled);
    } else if (isPromise(result)) {
      awaiting = true;
      result.then(
        (r) => settled({ result: r }),
        (err: unknown) => settled({ err }),
      );
    } else deliver(result);
  };

  if (isAttachable(events)) events.attach(accept);
  else
    void (async () => {
      try {
        for (;;) {
          const step = await events.next();
          if (step.done || ended) break;
          accept(step.value);
          // A pulled source waits for an asynchronous execution before asking for the next event.
          if (awaiting) await new Promise<void>((resolve) => (parked = resolve));
        }
        ended = true;
        settle();
      } catch (err) {
        fail(err);
      }
    })();

  async function stop(): Promise<IteratorResult<Result>> {
    ended = true;
    queue.length = 0;
    behind.length = 0;
    settle();
    unpark();
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
