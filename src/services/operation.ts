import type { z } from 'zod';
import type { Access } from '../edge/authorize';
import type { Caller } from '../edge/caller';
import type { ErrorCode } from '../errors';
import type { CacheHintName } from './cache-hints';
import type { OperationLimit, OperationLimits } from './operation-limits';

/**
 * One operation of a domain, said once: its name, input and output (the domain's zod models),
 * who may call it, what it may refuse with, and its handler. The REST routes, their OpenAPI
 * entries and the GraphQL fields are read from these declarations (src/http/rest/operations.ts,
 * src/resolvers/operations.ts); nothing about the operation is spelled again in a transport.
 */
export interface OperationDeclaration<Svc, Params extends z.ZodRawShape, Input extends z.ZodType | undefined, Output extends z.ZodType> {
  /** A verb phrase for people: the OpenAPI summary and the GraphQL description. */
  summary: string;
  /** More for people where the summary is not enough: the OpenAPI description. */
  description?: string;
  /** `query` reads, `mutation` writes (GraphQL's kinds; REST reads with GET). */
  kind: 'query' | 'mutation';
  /** `public`: anyone; `wallet`: a verified access token; `operator`: an operator wallet or OPERATOR_TOKEN. */
  access: 'public' | Access;
  /** Scalar identifiers: REST path parameters, GraphQL arguments (each a zod string or int model). */
  params?: Params;
  /** The body (REST) or `input` argument (GraphQL), judged by the service's own parse. */
  input?: Input;
  /** The answer's model (REST 200 body, GraphQL field type). */
  output: Output;
  /** What it refuses with beyond the access refusals and the transport's own (VALIDATION_FAILED, NOT_FOUND, …). */
  errors?: readonly ErrorCode[];
  /** Its own rate limits beyond the edge's (src/services/operation-limits.ts): one line each, charged on every transport. */
  limits?: readonly OperationLimit[];
  /** Where REST serves it (path parameters spelled `:name`, one per entry of `params`); absent: not on REST. */
  rest?: {
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
    path: string;
    operationId: string;
    tag: string;
    /** REST answers `{ [envelope]: output }` (a list under a name) where GraphQL answers the output itself. */
    envelope?: string;
    /** The input comes as the query string (a GET), not as a body. */
    query?: boolean;
    /** The success status where it is not 200 (201: created). */
    status?: 201;
    /** Headers of every answer (e.g. `cache-control: no-store` for a read that hands something out). */
    headers?: Readonly<Record<string, string>>;
  };
  /** Its Socket.IO event and the acknowledgement's key for the output (`{ ok: true, [reply]: output }`; absent: the output's own fields). */
  socket?: { event: string; reply?: string };
  /**
   * Its GraphQL field; the argument names where they differ from the params' names; `spread`: the
   * input's fields are arguments of their own instead of one `input` object. Absent: not on GraphQL.
   */
  graphql?: {
    field: string;
    args?: { [K in keyof Params]?: string };
    spread?: boolean;
    /** How long the answer may be cached (src/services/cache-hints.ts); absent: not cacheable (max-age 0). */
    cache?: CacheHintName;
    /** Where GraphQL answers in another shape than REST (JSON values as text): its model and the mapping. */
    output?: { model: z.ZodType; from(answer: never): unknown };
  };
  handle(
    services: Svc,
    call: OperationCall<z.output<z.ZodObject<Params>>, Input extends z.ZodType ? unknown : undefined>,
  ): Promise<Answer<z.input<Output>>> | Answer<z.input<Output>>;
}

/** A handler's answer: the output model's shape, where a date-time string may be a Date (every transport writes it as ISO 8601). */
type Answer<T> = T extends string ? T | Date : T extends readonly (infer U)[] ? Answer<U>[] : T extends object ? { [K in keyof T]: Answer<T[K]> } : T;

/** What a handler receives, whatever the transport. */
export interface OperationCall<P, I> {
  params: P;
  /** As sent (plain JSON; absent fields absent): the service parses it with the declared model. */
  input: I;
  caller: Caller;
  requestId: string;
  ip: string;
  transport: 'http' | 'websocket';
  /** Aborted when the request ends unanswered. */
  signal?: AbortSignal;
}

/** Any declaration, as the transports iterate them. */
export type AnyOperation<Svc = never> = OperationDeclaration<Svc, z.ZodRawShape, z.ZodType | undefined, z.ZodType>;

/**
 * The declaring function of a domain whose handlers receive `Svc` (what the domain creates):
 * `const operation = operationsOver<{ quests: QuestService }>()`, then `operation({ … })` with
 * its models inferred.
 */
export function operationsOver<Svc>() {
  return <const Params extends z.ZodRawShape = Record<never, never>, Input extends z.ZodType | undefined = undefined, Output extends z.ZodType = z.ZodType>(
    declaration: OperationDeclaration<Svc, Params, Input, Output>,
  ): OperationDeclaration<Svc, Params, Input, Output> => declaration;
}

/** A domain's operations over the services they call (the transports hand over the whole `Services`). */
export interface OperationSet<Svc> {
  readonly domain: string;
  readonly operations: readonly AnyOperation<Svc>[];
  /**
   * Named models served as shared REST schemas (OpenAPI components, `$ref`'d wherever a reply holds
   * them), under their model name or the `id` given.
   */
  readonly components?: readonly (z.ZodType | { model: z.ZodType; id: string })[];
}

/** The operation's name where one is needed whatever the transport (limit keys, logs): its GraphQL field, else its REST operationId. */
export const operationName = (op: AnyOperation<never>): string => op.graphql?.field ?? op.rest?.operationId ?? op.summary;

/** Runs a declared operation for any transport: its own limits charged first (once, whatever the transport), then its handler. */
export async function runOperation<Svc>(op: AnyOperation<Svc>, services: Svc & { limits: OperationLimits }, call: OperationCall<unknown, unknown>): Promise<unknown> {
  if (op.limits) await services.limits.charge(operationName(op), op.limits, { ip: call.ip, wallet: call.caller.auth?.wallet ?? null });
  return op.handle(services, call as never);
}
