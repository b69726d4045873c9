import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { execute, GraphQLError, printSchema, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { LRUCache } from 'lru-cache';

/** Compiled plans kept per process (a plan is a few KiB of generated code). */
const DEFAULT_PLAN_CACHE_SIZE = 1000;

interface ExecuteArgs {
  /** Identifies the document (Apollo's query hash) together with the operation name. */
  documentKey: string;
  document: DocumentNode;
  operationName: string | null | undefined;
  variables: Record<string, unknown> | undefined;
  contextValue: unknown;
  /** A subscription's event (its fields resolve on it); undefined for queries and mutations. */
  rootValue?: unknown;
}

export type PlanOutcome = 'compiled' | 'fallback';

/** graphql-jit refused the document: graphql-js runs it instead. */
const FALLBACK = Symbol('fallback');

/**
 * Runs operations through plans compiled by graphql-jit, cached in an LRU by document hash and
 * operation; a document graphql-jit cannot compile is executed by graphql-js, and the choice is
 * remembered. Validation happens before (Apollo, or the websocket policy), as for `execute`.
 * HTTP (through Apollo) and graphql-ws (queries, mutations and each subscription event) share it.
 */
export function createJitExecutor(schema: GraphQLSchema, opts: { maxPlans?: number; onPlan?: (outcome: PlanOutcome) => void } = {}) {
  const plans = new LRUCache<string, CompiledQuery | typeof FALLBACK>({ max: opts.maxPlans ?? DEFAULT_PLAN_CACHE_SIZE });
  const stats = { compiled: 0, fallbacks: 0 };
  function planFor(args: ExecuteArgs): CompiledQuery | typeof FALLBACK {
    const key = `${args.documentKey}\u0000${args.operationName ?? ''}`;
    let plan = plans.get(key);
    if (plan === undefined) {
      const compiled = compileQuery(schema, args.document, args.operationName ?? undefined);
      plan = isCompiledQuery(compiled) ? compiled : FALLBACK;
      if (plan === FALLBACK) stats.fallbacks++;
      else stats.compiled++;
      opts.onPlan?.(plan === FALLBACK ? 'fallback' : 'compiled');
      plans.set(key, plan);
    }
    return plan;
  }
  const standard = (args: ExecuteArgs) =>
    execute({ schema, document: args.document, operationName: args.operationName, variableValues: args.variables, contextValue: args.contextValue, rootValue: args.rootValue });
  const finish = (result: ExecutionResult, args: ExecuteArgs): ExecutionResult | Promise<ExecutionResult> => {
    if (!result.errors?.length) return result;
    // A request error (bad variables: no `data` at all) is rare; graphql-js reports it with the
    // nodes our error codes are read from. Nothing has executed yet, so running it again is safe.
    if (!('data' in result)) return standard(args);
    return { ...result, errors: result.errors.map(asGraphqlJsError) };
  };
  /**
   * Synchronous when the plan's resolvers are: a subscription event shared by many subscribers
   * needs no promise each. No named closure per call (tsx's keepNames names each one through
   * `Object.defineProperty`).
   */
  function run(args: ExecuteArgs): ExecutionResult | Promise<ExecutionResult> {
    const plan = planFor(args);
    if (plan === FALLBACK) return standard(args);
    const result = plan.query(args.rootValue, args.contextValue, args.variables);
    return isPromise(result) ? result.then((r) => finish(r, args)) : finish(result, args);
  }
  return {
    stats,
    run,
    async execute(args: ExecuteArgs): Promise<ExecutionResult> {
      return run(args);
    },
  };
}

const isPromise = <T>(value: T | Promise<T>): value is Promise<T> => typeof (value as { then?: unknown } | null)?.then === 'function';

/** graphql-jit's errors are look-alikes without `extensions`; Apollo and our formatter expect graphql-js's class. */
function asGraphqlJsError(error: GraphQLError): GraphQLError {
  if (error instanceof GraphQLError && error.extensions) return error;
  const converted = new GraphQLError(error.message, { path: error.path, originalError: error.originalError ?? undefined });
  if (error.locations) Object.defineProperty(converted, 'locations', { value: error.locations, enumerable: true });
  return converted;
}

export type JitExecutor = ReturnType<typeof createJitExecutor>;

/**
 * Apollo Server's documented executor seam (the gateway interface) with one fixed schema: Apollo
 * keeps parsing, validation, plugins and error formatting, and hands execution to graphql-jit.
 */
export function jitGateway(schema: GraphQLSchema, executor: JitExecutor): GatewayInterface {
  const run: GatewayExecutor = async (rc) =>
    executor.execute({
      documentKey: rc.queryHash,
      document: rc.document,
      operationName: rc.operationName,
      variables: rc.request.variables,
      contextValue: rc.context,
    }) as ReturnType<GatewayExecutor>;
  return {
    async load() {
      return { executor: run };
    },
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: printSchema(schema) });
      return () => undefined;
    },
    async stop() {},
  };
}
