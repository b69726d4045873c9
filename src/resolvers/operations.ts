import { Arg, Ctx, Mutation, Query, Resolver } from "type-graphql";
import type { z } from "zod";
import { Authorized } from "../graphql/authorized";
import type { GraphqlContext } from "../graphql/context";
import { graphqlTypeOf } from "../graphql/zod-types";
import type { Services } from "../services";
import type { AnyOperation, OperationSet } from "../services/operation";

/** GraphQL input objects as plain JSON: absent fields left out (an explicit null stays null), as a REST body carries them. */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, plain(v)]),
  );
}

type Resolve = (this: { services: Services }, ...args: unknown[]) => unknown;

/** One field of the resolver class: its arguments in order (the params, then `input`), the context last. */
function addField(
  target: { prototype: object },
  op: AnyOperation<Services>,
): void {
  const field = op.graphql.field;
  const params = Object.entries(op.params ?? {}) as Array<[string, z.ZodType]>;
  const argNames = params.map(([key]) => op.graphql.args?.[key] ?? key);
  const resolve: Resolve = async function (
    this: { services: Services },
    ...args: unknown[]
  ) {
    const ctx = args[args.length - 1] as GraphqlContext;
    const call = {
      params: Object.fromEntries(params.map(([key], i) => [key, args[i]])),
      input: op.input ? plain(args[params.length]) : undefined,
      caller: ctx,
      requestId: ctx.requestId,
      ip: ctx.ip,
      signal: ctx.signal,
    };
    return op.handle(this.services as never, call as never);
  };
  Object.defineProperty(resolve, "name", { value: field });
  const descriptor = {
    value: resolve,
    writable: true,
    configurable: true,
    enumerable: false,
  };
  Object.defineProperty(target.prototype, field, descriptor);

  params.forEach(([, model], i) => {
    const { type, nullable, description } = graphqlTypeOf(model, "input");
    Arg(argNames[i]!, type, { nullable, description })(
      target.prototype,
      field,
      i,
    );
  });
  if (op.input) {
    const { type, nullable } = graphqlTypeOf(op.input, "input");
    Arg("input", type, { nullable })(target.prototype, field, params.length);
  }
  Ctx()(target.prototype, field, params.length + (op.input ? 1 : 0));
  const output = graphqlTypeOf(op.output, "output");
  const description =
    op.access === "operator" ? `${op.summary} (operator only)` : op.summary;
  const options = { name: field, description, nullable: output.nullable };
  (op.kind === "query"
    ? Query(output.type, options)
    : Mutation(output.type, options))(target.prototype, field, descriptor);
  if (op.access !== "public")
    Authorized(op.access)(target.prototype, field, descriptor);
}

/**
 * A domain's declared operations as one type-graphql resolver class (constructed with the
 * services, like every resolver): each declaration a Query or Mutation field.
 */
export function resolverOf(
  set: OperationSet<never>,
): new (services: Services) => object {
  const name = `${set.domain.replace(/(^|-)(\w)/g, (_m, _d, c: string) => c.toUpperCase())}OperationsResolver`;
  const cls = {
    [name]: class {
      constructor(readonly services: Services) {}
    },
  }[name]!;
  for (const op of set.operations) addField(cls, op as AnyOperation<Services>);
  Resolver()(cls);
  return cls;
}
