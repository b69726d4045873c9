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
  /** graphql-ws's `subscribe`: broadcast operations execute once per event and operation in this process. */
  subscribe(args: ExecutionArgs): Promise<SubscribeResult>;
  /** The JSON of a shared result (computed once), or undefined for a result of one subscriber. */
  serialized(result: Result): string | undefined;
}

/**
 * A room broadcast to 10,000 subscribers must not run 10,000 executions and serializations:
 * subscribers of the same document, operation and variables get the same result object for the
 * same event (the fan-out hands every local listener one frozen event), executed and serialized
 * once; `createFrameSplicer` then wraps that JSON in each subscriber's own `next` frame.
 * Operations selecting any field not marked broadcast keep graphql-js's per-subscriber path.
 */
export function createBroadcastResults(opts: { onExecuted?: () => void } = {}): BroadcastResults {
  const eligible = new WeakMap<DocumentNode, Map<string | undefined, boolean>>();
  const documentIds = new WeakMap<DocumentNode, number>();
  const json = new WeakMap<Result, string>();
  /** Per event: results by operation key, as promises so concurrent subscribers share one execution. */
  const results = new WeakMap<object, Map<string, Promise<Result>>>();
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
      // An explicit iterator, not an async generator: `return()` must end a subscription that is waiting for its next event.
      const mapped: AsyncIterableIterator<Result> = {
        [Symbol.asyncIterator]: () => mapped,
        async next() {
          const step = await events.next();
          return step.done ? { done: true, value: undefined } : { done: false, value: await resultFor(step.value, key, args) };
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
      return mapped;
    },
    serialized: (result) => json.get(result),
  };
}

const REF_KEY = 'broadcastRef';
const REF_MARK = `"${REF_KEY}":`;

/**
 * One connection's side of the splice: graphql-ws serializes `{ id, type, payload }` itself, so
 * `onNext` hands it a tiny placeholder payload and `send` swaps the placeholder for the shared
 * JSON. A placeholder can only be a key written by `hold` (user text is escaped inside strings),
 * and an unknown reference is sent as it is.
 */
export function createFrameSplicer() {
  let seq = 0;
  const held = new Map<number, string>();
  return {
    hold(serialized: string): ExecutionResult {
      const ref = ++seq;
      held.set(ref, serialized);
      return { extensions: { [REF_KEY]: ref } };
    },
    frame(data: string): string {
      if (held.size === 0 || !data.includes(REF_MARK)) return data;
      const message = JSON.parse(data) as { id?: unknown; type?: unknown; payload?: { extensions?: Record<string, unknown> } };
      const ref = message.payload?.extensions?.[REF_KEY];
      const serialized = typeof ref === 'number' ? held.get(ref) : undefined;
      if (serialized === undefined || message.type !== 'next' || typeof message.id !== 'string') return data;
      held.delete(ref as number);
      return `{"id":${JSON.stringify(message.id)},"type":"next","payload":${serialized}}`;
    },
  };
}
