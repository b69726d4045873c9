import { Arg, Ctx, Directive, Mutation, Query, Resolver } from 'type-graphql';
import type { z } from 'zod';
import { Authorized } from '../graphql/authorized';
import { cacheControl } from '../graphql/cache-policy';
import { CACHE_HINTS } from '../services/cache-hints';
import type { GraphqlContext } from '../graphql/context';
import { fieldModels, graphqlTypeOf } from '../graphql/zod-types';
import type { Services } from '../services';
import { modelNames } from '../services/model-names';
import { runOperation, type AnyOperation, type OperationSet } from '../services/operation';

/** GraphQL input objects as plain JSON: absent fields left out (an explicit null stays null), as a REST body carries them. */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, plain(v)]),
  );
}

/** An input object's fields without the null ones (left out, as a REST body would leave them). */
const withoutNulls = (value: unknown): unknown =>
  value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null)) : value;

type Resolve = (this: { services: Services }, ...args: unknown[]) => unknown;

/**
 * One field of the resolver class. Its arguments, in order: the params (renamed where the
 * declaration says), then the input (one `input` object, or its fields when `spread`), the context last.
 */
function addField(target: { prototype: object }, op: AnyOperation<Services>, graphql: NonNullable<AnyOperation['graphql']>): void {
  const field = graphql.field;
  const params = Object.entries(op.params ?? {}) as Array<[string, z.ZodType]>;
  const spread = op.input && graphql.spread ? fieldModels(op.input) : undefined;
  const inputArgs: Array<[string, z.ZodType]> = spread ?? (op.input ? [['input', op.input]] : []);

  const fieldsOptional = op.input ? modelNames.get(op.input)?.fieldsOptional === true : false;
  const inputOf = (args: unknown[]): unknown => {
    if (!op.input) return undefined;
    if (!spread) return fieldsOptional ? withoutNulls(plain(args[params.length])) : plain(args[params.length]);
    // spread arguments left out or null are absent from the input, as a REST body would leave them out
    return withoutNulls(plain(Object.fromEntries(spread.map(([key], i) => [key, args[params.length + i]]))));
  };
  const resolve: Resolve = async function (this: { services: Services }, ...args: unknown[]) {
    const ctx = args[args.length - 1] as GraphqlContext;
    const call = {
      params: Object.fromEntries(params.map(([key], i) => [key, args[i]])),
      input: inputOf(args),
      caller: ctx,
      requestId: ctx.requestId,
      ip: ctx.ip,
      transport: ctx.transport === 'ws' ? ('websocket' as const) : ('http' as const),
      signal: ctx.signal,
    };
    const answer = await runOperation(op, this.services, call);
    return graphql.output ? graphql.output.from(answer as never) : answer;
  };
  Object.defineProperty(resolve, 'name', { value: field });
  const descriptor = { value: resolve, writable: true, configurable: true, enumerable: false };
  Object.defineProperty(target.prototype, field, descriptor);

  const args: Array<[string, z.ZodType]> = [...params.map(([key, model]): [string, z.ZodType] => [graphql.args?.[key] ?? key, model]), ...inputArgs];
  args.forEach(([name, model], i) => {
    const { type, nullable, description } = graphqlTypeOf(model, 'input');
    Arg(name, type, { nullable, description: name === 'input' ? undefined : description })(target.prototype, field, i);
  });
  Ctx()(target.prototype, field, args.length);

  const output = graphqlTypeOf(graphql.output?.model ?? op.output, 'output');
  const options = { name: field, description: op.access === 'operator' ? `${op.summary} (operator only)` : op.summary, nullable: output.nullable };
  (op.kind === 'query' ? Query(output.type, options) : Mutation(output.type, options))(target.prototype, field, descriptor);
  if (op.access !== 'public') Authorized(op.access)(target.prototype, field, descriptor);
  if (graphql.cache) Directive(cacheControl(CACHE_HINTS[graphql.cache]))(target.prototype, field, descriptor);
}

/**
 * A domain's declared operations as one type-graphql resolver class (constructed with the
 * services, like every resolver): each declaration a Query or Mutation field.
 */
export function resolverOf(set: OperationSet<never>): new (services: Services) => object {
  const name = `${set.domain.replace(/(^|-)(\w)/g, (_m, _d, c: string) => c.toUpperCase())}OperationsResolver`;
  const cls = {
    [name]: class {
      constructor(readonly services: Services) {}
    },
  }[name]!;
  for (const op of set.operations as readonly AnyOperation<Services>[]) if (op.graphql) addField(cls, op, op.graphql);
  Resolver()(cls);
  return cls;
}
