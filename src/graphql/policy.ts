import { createHash } from 'node:crypto';
import { GraphQLError, parse, specifiedRules, validate, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { LRUCache } from 'lru-cache';
import type { Logger } from '../observability/logger';
import type { Metrics } from '../observability/metrics';
import type { Services } from '../services';
import { contextBuilder } from './context';
import { checkDocumentSource, PARSE_OPTIONS } from './document-caps';
import { createErrorFormatter, codedError } from './errors';
import { queryLimitRules, type QueryLimits } from './limits';
import { operationRecorder } from './metrics';
import { createJitExecutor } from './executor';
import { checkOperation, noIntrospectionRule, resolveOperation, storableLiteralsRule, type Transport } from './operation-checks';

export interface GraphqlPolicyOptions {
  schema: GraphQLSchema;
  limits: QueryLimits;
  introspection: boolean;
  metrics: Metrics;
  logger: Logger;
  services: Services;
}

export interface OperationRequest {
  query: unknown;
  operationName?: string | null;
  variables?: unknown;
  transport: Transport;
}

export type PreparedOperation =
  | { document: DocumentNode; operation: OperationDefinitionNode; /** The executor's plan key: Apollo's query hash, so both transports share plans. */ documentKey: string }
  | { errors: GraphQLError[]; operation?: OperationDefinitionNode };

/** Characters of screened-and-passed documents remembered per process (so a passing document is parsed once). */
const SCREENED_SOURCES_MAX_CHARS = 4 * 1024 * 1024;

/** Gives graphql-js's own errors (syntax, validation) the code Apollo gives them over HTTP. */
const withCode = (error: GraphQLError, code: 'GRAPHQL_PARSE_FAILED' | 'GRAPHQL_VALIDATION_FAILED') =>
  error.extensions?.code ? error : new GraphQLError(error.message, { nodes: error.nodes, source: error.source, positions: error.positions, originalError: error, extensions: { code } });

/**
 * The one GraphQL policy both transports run: the same document caps, validation rules (limits
 * first, then graphql's rules, storable literals and, when introspection is off, the
 * introspection block), operation checks, error formatter, context and metrics. Over HTTP the
 * handler calls `screen` and Apollo runs the rest through its options and hooks (./apollo.ts);
 * the websocket gateway calls `prepare`.
 */
export function createGraphqlPolicy(opts: GraphqlPolicyOptions) {
  const { schema } = opts;
  /** Linear-time rules; graphql's own (some super-linear) rules only see documents passing them. */
  const limitRules = queryLimitRules(opts.limits);
  /** Rules run after limitRules, beside graphql's specifiedRules. */
  const documentRules = [storableLiteralsRule, ...(opts.introspection ? [] : [noIntrospectionRule])];

  const validateDocument = (document: DocumentNode): readonly GraphQLError[] => {
    const overLimit = validate(schema, document, limitRules);
    if (overLimit.length) return overLimit;
    return validate(schema, document, [...specifiedRules, ...documentRules]).map((e) => withCode(e, 'GRAPHQL_VALIDATION_FAILED'));
  };

  /** Parses a source within the document caps; the errors say why not. */
  const parseWithinCaps = (source: string): DocumentNode | GraphQLError => {
    const tooLarge = checkDocumentSource(source);
    if (tooLarge) return tooLarge;
    try {
      return parse(source, PARSE_OPTIONS);
    } catch (err) {
      if (err instanceof GraphQLError) return withCode(err, 'GRAPHQL_PARSE_FAILED');
      throw err;
    }
  };

  /**
   * The bounded first stage (document caps, then the linear limit rules): the errors of a
   * source refused as too complex, else null (syntax errors are left to the next stage).
   */
  const screened = new LRUCache<string, true>({ maxSize: SCREENED_SOURCES_MAX_CHARS, sizeCalculation: (_v, source) => Math.max(1, source.length) });
  const screen = (source: string): GraphQLError[] | null => {
    // Frontends send the same few documents over and over: one that passed is not parsed again.
    if (screened.has(source)) return null;
    const refused = screenSource(source);
    if (!refused) screened.set(source, true);
    return refused;
  };
  const screenSource = (source: string): GraphQLError[] | null => {
    const document = parseWithinCaps(source);
    if (document instanceof GraphQLError) return document.extensions.code === 'QUERY_TOO_COMPLEX' ? [document] : null;
    const overLimit = validate(schema, document, limitRules);
    return overLimit.length ? [...overLimit] : null;
  };

  /**
   * Valid documents by source, shared (never mutated) by every operation sending that source: the
   * websocket gateway neither parses nor validates a known document again, and subscribers of one
   * document share one broadcast execution (src/gateway/broadcast-results.ts keys on the document).
   */
  const validated = new LRUCache<string, { document: DocumentNode; documentKey: string }>({ maxSize: SCREENED_SOURCES_MAX_CHARS, sizeCalculation: (_v, source) => Math.max(1, source.length) });
  /** Source → checked, parsed, validated operation, for transports without their own pipeline. */
  const prepare = (request: OperationRequest): PreparedOperation => {
    if (typeof request.query !== 'string' || !request.query) return { errors: [codedError('BAD_REQUEST', 'The operation must contain a non-empty `query`')] };
    let known = validated.get(request.query);
    if (!known) {
      const parsed = parseWithinCaps(request.query);
      if (parsed instanceof GraphQLError) return { errors: [parsed] };
      const invalid = validateDocument(parsed);
      if (invalid.length) return { errors: [...invalid] };
      known = { document: parsed, documentKey: createHash('sha256').update(request.query).digest('hex') };
      validated.set(request.query, known);
    }
    const { document, documentKey } = known;
    const operation = resolveOperation(document, request.operationName);
    if (operation instanceof GraphQLError) return { errors: [operation] };
    const refused = checkOperation(schema, operation, request.variables, request.transport);
    return refused ? { errors: [refused], operation } : { document, operation, documentKey };
  };

  return {
    schema,
    executor: createJitExecutor(schema, { onPlan: (outcome) => opts.metrics.graphqlPlans.inc({ outcome }) }),
    parseOptions: PARSE_OPTIONS,
    documentRules,
    screen,
    prepare,
    checkOperation: (operation: OperationDefinitionNode, variables: unknown, transport: Transport) => checkOperation(schema, operation, variables, transport),
    formatError: createErrorFormatter({ hideSchemaDetails: !opts.introspection, logger: opts.logger }),
    recordOperation: operationRecorder(opts.metrics),
    context: contextBuilder(opts.services),
  };
}

export type GraphqlPolicy = ReturnType<typeof createGraphqlPolicy>;
