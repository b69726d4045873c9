import type { ApolloServerPlugin } from '@apollo/server';
import {
  DirectiveLocation,
  GraphQLBoolean,
  GraphQLDirective,
  GraphQLEnumType,
  GraphQLInt,
  Kind,
  getDirectiveValues,
  getNamedType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { CacheHint } from '../services/cache-hints';

export type { CacheHint };

interface Annotation {
  maxAge?: number;
  scope?: 'PUBLIC' | 'PRIVATE';
  inheritMaxAge?: boolean;
}

const CacheControlScope = new GraphQLEnumType({ name: 'CacheControlScope', values: { PUBLIC: {}, PRIVATE: {} } });

/** Apollo's `@cacheControl` directive (same name, arguments and meaning), declared in our schema. */
export const cacheControlDirective = new GraphQLDirective({
  name: 'cacheControl',
  description: 'How long (seconds) and for whom (PUBLIC, or PRIVATE: per wallet) an answer containing this field or type may be cached',
  locations: [DirectiveLocation.FIELD_DEFINITION, DirectiveLocation.OBJECT, DirectiveLocation.INTERFACE, DirectiveLocation.UNION],
  args: { maxAge: { type: GraphQLInt }, scope: { type: CacheControlScope }, inheritMaxAge: { type: GraphQLBoolean } },
});

/** The SDL for type-graphql's `@Directive(...)`: `@Directive(cacheControl(CACHE_HINTS.prices))`. */
export const cacheControl = (hint: CacheHint): string => `@cacheControl(maxAge: ${hint.maxAge}${hint.scope ? `, scope: ${hint.scope}` : ''})`;

/** For a type only ever reached below a hinted field: it takes that field's max-age instead of making the answer uncacheable. */
export const INHERIT_CACHE_CONTROL = '@cacheControl(inheritMaxAge: true)';

const annotationOf = (node: { astNode?: unknown } | undefined): Annotation =>
  (node?.astNode ? (getDirectiveValues(cacheControlDirective, node.astNode as never) as Annotation | undefined) : undefined) ?? {};

/** Apollo's CachePolicy.replace: what the hint sets wins. */
function replace(into: Annotation, hint: Annotation): void {
  if (hint.maxAge !== undefined) into.maxAge = hint.maxAge;
  if (hint.scope) into.scope = hint.scope;
}

/** Apollo's CachePolicy.restrict: the lower max-age, and PRIVATE over PUBLIC. */
function restrict(into: Annotation, hint: Annotation): void {
  if (hint.maxAge !== undefined && (into.maxAge === undefined || hint.maxAge < into.maxAge)) into.maxAge = hint.maxAge;
  if (hint.scope === 'PRIVATE') into.scope = 'PRIVATE';
}

/**
 * The cache policy of one operation from the `@cacheControl` hints of the fields and types it
 * selects, by Apollo's rules: a root field, or a field returning an object, interface or union,
 * without a hint (and not `inheritMaxAge`) has `defaultMaxAge`; scalar fields inherit; the answer
 * gets the lowest max-age and PRIVATE if any part is. Computed from the document alone, so a
 * field skipped at run time (`@skip`, a null parent, another union member) still counts: never
 * more cacheable than Apollo's per-field computation, and equal for our schema, whose hints are
 * static.
 */
export function operationCacheHint(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, defaultMaxAge = 0): Annotation {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const overall: Annotation = {};
  const visit = (parentType: GraphQLNamedType | undefined | null, selectionSet: SelectionSetNode, atRoot: boolean, spreading: ReadonlySet<string>): void => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value === '__typename') continue;
        const field: GraphQLField<unknown, unknown> | undefined = isObjectType(parentType) || isInterfaceType(parentType) ? parentType.getFields()[selection.name.value] : undefined;
        // Introspection (`__schema`, `__type`) and anything unknown: never cacheable.
        if (!field) {
          restrict(overall, { maxAge: 0 });
          continue;
        }
        const target = getNamedType(field.type);
        const composite = isCompositeType(target);
        const hint: Annotation = {};
        let inherits = false;
        if (composite) {
          const typeHint = annotationOf(target);
          replace(hint, typeHint);
          inherits = Boolean(typeHint.inheritMaxAge);
        }
        const fieldHint = annotationOf(field);
        if (fieldHint.inheritMaxAge && hint.maxAge === undefined) {
          inherits = true;
          if (fieldHint.scope) hint.scope = fieldHint.scope;
        } else replace(hint, fieldHint);
        if (hint.maxAge === undefined && ((composite && !inherits) || atRoot)) hint.maxAge = defaultMaxAge;
        restrict(overall, hint);
        if (composite && selection.selectionSet) visit(target, selection.selectionSet, false, spreading);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        visit(selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parentType, selection.selectionSet, atRoot, spreading);
      } else {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        if (!fragment || spreading.has(name)) continue;
        visit(schema.getType(fragment.typeCondition.name.value), fragment.selectionSet, atRoot, new Set([...spreading, name]));
      }
    }
  };
  visit(schema.getRootType(operation.operation) as GraphQLCompositeType | undefined, operation.selectionSet, true, new Set());
  return overall;
}

/** operationCacheHint, remembered per parsed operation (Apollo's document store keeps one per document). */
export function operationCachePolicies(schema: GraphQLSchema, opts: { defaultMaxAge?: number } = {}) {
  const byOperation = new WeakMap<OperationDefinitionNode, Annotation>();
  return (document: DocumentNode, operation: OperationDefinitionNode): Annotation => {
    let hint = byOperation.get(operation);
    if (!hint) byOperation.set(operation, (hint = operationCacheHint(schema, document, operation, opts.defaultMaxAge)));
    return hint;
  };
}

/** Whether an operation's answer may be cached at all (a positive max-age from its hints). */
export const cacheableHint = (hint: Annotation): boolean => (hint.maxAge ?? 0) > 0;

/**
 * Our cache-control plugin, in place of Apollo's (`ApolloServerPluginCacheControlDisabled`
 * beside it): the same `@cacheControl` hints, the same overall policy for the response cache
 * and the same `Cache-Control` header, but computed once per document (`operationCachePolicies`) instead of through a `willResolveField` hook
 * on every field of every row. That hook makes Apollo wrap every resolver of the schema, which
 * also takes from graphql-jit its inline property reads (docs/performance.md).
 */
export function cachePolicyPlugin<TContext extends object>(policyOf: ReturnType<typeof operationCachePolicies>): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation(rc) {
          if (rc.operation && rc.document) rc.overallCachePolicy.restrict(policyOf(rc.document, rc.operation));
        },
        async willSendResponse(rc) {
          const { http, body } = rc.response;
          if (http.headers.get('cache-control') === 'no-store') return;
          const cacheable = rc.overallCachePolicy.policyIfCacheable();
          const clean = body.kind === 'single' && !body.singleResult.errors;
          http.headers.set('cache-control', cacheable && clean ? `max-age=${cacheable.maxAge}, ${cacheable.scope.toLowerCase()}` : 'no-store');
        },
      };
    },
  };
}
