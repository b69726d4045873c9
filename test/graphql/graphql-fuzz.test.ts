// Property-based fuzzing of every root query field: arguments of the declared GraphQL types (so
// they pass validation and coercion and reach the resolvers) with odd values — empty, huge,
// negative, non-ASCII, malformed addresses — with and without an access token. Every answer must
// be data or errors with a code, never INTERNAL.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import {
  buildSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLInputType,
} from 'graphql';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestApi } from '../helpers/api';
import { fuzzRuns, oddText, startFuzzTarget } from '../helpers/fuzz';

const schema = buildSchema(readFileSync(new URL('../../schema/schema.graphql', import.meta.url), 'utf8'));

let api: TestApi;
let token: string;
beforeAll(async () => {
  ({ api, token } = await startFuzzTarget());
}, 120_000);
afterAll(async () => {
  await api?.close();
});

/** A value of `type`: null only where the type allows it, so that values reach the resolvers. */
function valueOf(type: GraphQLInputType, depth = 0): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return presentValueOf(type.ofType, depth);
  return fc.option(presentValueOf(type, depth), { nil: null, freq: 5 });
}

function presentValueOf(type: GraphQLInputType, depth: number): fc.Arbitrary<unknown> {
  if (isListType(type)) return fc.array(valueOf(type.ofType, depth + 1), { maxLength: depth > 1 ? 2 : 25 });
  if (isEnumType(type)) return fc.constantFrom(...type.getValues().map((v) => v.name));
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields());
    return fc.record(Object.fromEntries(fields.map((f) => [f.name, valueOf(f.type, depth + 1)])), {
      requiredKeys: fields.filter((f) => isNonNullType(f.type)).map((f) => f.name),
    });
  }
  if (isScalarType(type)) {
    switch (type.name) {
      case 'Int':
        return fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.constantFrom(0, -1, 1, 2 ** 31 - 1, -(2 ** 31)));
      case 'Float':
        return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -1, 1e300, 5e-324));
      case 'Boolean':
        return fc.boolean();
      case 'DateTimeISO':
        return fc.oneof(fc.date({ min: new Date(0), max: new Date('9999-12-31') }).map((d) => d.toISOString()), oddText);
      default:
        return oddText;
    }
  }
  return fc.constant(null);
}

const rootFields = Object.values(schema.getQueryType()!.getFields());

it('answers every root query field with data or coded errors, never INTERNAL', async () => {
  expect(rootFields.length).toBeGreaterThan(20);
  let answered = 0;
  let total = 0;
  for (const field of rootFields) {
    const args: readonly GraphQLArgument[] = field.args;
    const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
    const header = args.length ? `(${args.map((a) => `$${a.name}: ${String(a.type)}`).join(', ')})` : '';
    const call = args.length ? `(${args.map((a) => `${a.name}: $${a.name}`).join(', ')})` : '';
    const query = `query Fuzz${header} { ${field.name}${call}${selection} }`;
    const variables = fc.record(Object.fromEntries(args.map((a) => [a.name, valueOf(a.type)])));
    await fc.assert(
      fc.asyncProperty(variables, fc.boolean(), async (vars, authorized) => {
        const res = await api.app.inject({
          method: 'POST',
          url: '/graphql',
          headers: { 'content-type': 'application/json', ...(authorized ? { authorization: `Bearer ${token}` } : {}) },
          payload: JSON.stringify({ query, variables: vars }),
        });
        const where = `${field.name} ${JSON.stringify(vars).slice(0, 300)} → ${res.statusCode} ${res.body.slice(0, 400)}`;
        expect(res.statusCode, where).toBeLessThan(500);
        const body = res.json() as { data?: Record<string, unknown> | null; errors?: Array<{ extensions?: { code?: string } }> };
        total++;
        if (body.data?.[field.name] != null) answered++;
        expect(body.data !== undefined || (body.errors?.length ?? 0) > 0, where).toBe(true);
        for (const error of body.errors ?? []) {
          expect(typeof error.extensions?.code, where).toBe('string');
          expect(error.extensions?.code, where).not.toBe('INTERNAL');
        }
      }),
      fuzzRuns(20),
    );
  }
  // The values are of the declared types, so the requests reach their resolvers and a good part answer.
  expect(answered / total, `${answered} of ${total} requests answered with data`).toBeGreaterThan(0.15);
}, 300_000);
