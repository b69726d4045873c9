// Our cache-control plugin (src/graphql/cache-policy.ts) against Apollo's own: on one schema with
// static hints, both servers must give every document the same Cache-Control header, and ours
// must leave the schema's resolvers unwrapped.
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginCacheControl } from '@apollo/server/plugin/cacheControl';
import { buildSchema, type GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { cacheControl, cachePolicyPlugin, operationCachePolicies } from '../../src/graphql/cache-policy';

const SDL = `
directive @cacheControl(maxAge: Int, scope: CacheControlScope, inheritMaxAge: Boolean) on FIELD_DEFINITION | OBJECT | INTERFACE | UNION
enum CacheControlScope { PUBLIC PRIVATE }
type Query {
  board: [Entry!]! ${cacheControl({ maxAge: 10, scope: 'PUBLIC' })}
  mine: Entry ${cacheControl({ maxAge: 20, scope: 'PRIVATE' })}
  plain: Entry
  count: Int ${cacheControl({ maxAge: 5 })}
  unhintedScalar: Int
  item: Item ${cacheControl({ maxAge: 30 })}
  typed: Typed
}
type Entry {
  rank: Int!
  profile: Profile
  bets: [Bet!]! ${cacheControl({ maxAge: 3 })}
  inherited: Profile @cacheControl(inheritMaxAge: true)
}
type Profile { name: String }
type Bet { stake: Int profile: Profile @cacheControl(maxAge: 7) }
type Typed @cacheControl(maxAge: 40, scope: PRIVATE) { value: Int }
union Item = Bet | Profile
`;

const profile = { name: 'p' };
const bet = { stake: 1, profile, __typename: 'Bet' };
const entry = { rank: 1, profile, bets: [bet, bet], inherited: profile };
const root = { board: [entry, entry], mine: entry, plain: entry, count: 1, unhintedScalar: 2, item: bet, typed: { value: 1 } };

const DOCUMENTS = [
  '{ board { rank } }',
  '{ board { rank profile { name } } }',
  '{ board { rank bets { stake } } }',
  '{ board { bets { profile { name } } } }',
  '{ board { inherited { name } } }',
  '{ mine { rank } }',
  '{ board { rank } mine { rank } }',
  '{ plain { rank } }',
  '{ count }',
  '{ unhintedScalar }',
  '{ __typename }',
  '{ count board { rank } }',
  '{ item { ... on Bet { stake } } }',
  '{ item { ... on Bet { profile { name } } ... on Profile { name } } }',
  '{ typed { value } }',
  '{ ...F } fragment F on Query { board { rank bets { stake } } }',
  'query Q { board { ...E } } fragment E on Entry { rank profile { name } }',
  '{ __schema { queryType { name } } }',
];

async function headersOf(schema: GraphQLSchema, plugins: ConstructorParameters<typeof ApolloServer>[0]['plugins']) {
  const server = new ApolloServer({ schema, plugins, introspection: true, rootValue: root });
  await server.start();
  const headers: Record<string, string | undefined> = {};
  for (const query of DOCUMENTS) {
    const response = await server.executeOperation({ query }, { contextValue: {} });
    headers[query] = response.http.headers.get('cache-control');
  }
  await server.stop();
  return headers;
}

describe('cache policy from @cacheControl hints, once per document', () => {
  it("gives every document the Cache-Control header Apollo's per-field plugin gives it", async () => {
    const apollos = await headersOf(buildSchema(SDL), [ApolloServerPluginCacheControl({ defaultMaxAge: 0 })]);
    const ourSchema = buildSchema(SDL);
    const ours = await headersOf(ourSchema, [ApolloServerPluginCacheControlDisabled(), cachePolicyPlugin(operationCachePolicies(ourSchema, { defaultMaxAge: 0 }))]);
    expect(ours).toEqual(apollos);
    // The documents cover every outcome: public, private, lowest max-age, and uncacheable.
    expect(ours['{ board { rank } }']).toBe('max-age=10, public');
    expect(ours['{ board { rank bets { stake } } }']).toBe('max-age=3, public');
    expect(ours['{ board { rank } mine { rank } }']).toBe('max-age=10, private');
    expect(ours['{ board { rank profile { name } } }']).toBe('no-store');
    expect(ours['{ typed { value } }']).toBe('max-age=40, private');
    expect(ours['{ __schema { queryType { name } } }']).toBe('no-store');
  });

  it("leaves the schema's resolvers as they were (Apollo's plugin wraps every field)", async () => {
    const plain = buildSchema(SDL);
    await headersOf(plain, [ApolloServerPluginCacheControlDisabled(), cachePolicyPlugin(operationCachePolicies(plain))]);
    expect(plain.getQueryType()!.getFields().board!.resolve).toBeUndefined();
    const wrapped = buildSchema(SDL);
    await headersOf(wrapped, [ApolloServerPluginCacheControl()]);
    expect(wrapped.getQueryType()!.getFields().board!.resolve).toBeTypeOf('function');
  });
});
