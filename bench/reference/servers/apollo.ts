// Plain Apollo Server 5 on Fastify (@as-integrations/fastify) with graphql-jit, Apollo's defaults
// (its cache-control plugin, CSRF prevention, landing page; no response cache): the hand-written
// SDL and resolvers on `pg` of the Mercurius reference (bench/reference/handwritten.ts), no cache,
// per-item fields through DataLoader. graphql-jit runs through Apollo's executor seam (the gateway
// interface), plans kept per document hash: how Apollo is run with graphql-jit.
import { ApolloServer } from '@apollo/server';
import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import fastifyApollo, { fastifyApolloDrainPlugin } from '@as-integrations/fastify';
import DataLoader from 'dataloader';
import Fastify from 'fastify';
import { buildSchema, printSchema, type GraphQLFieldResolver, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import pg from 'pg';
import { HANDWRITTEN_SDL, handwritten, handwrittenBlog, handwrittenQueryResolvers, type BetRow, type Entry, type Profile } from '../handwritten';
import { announce } from './common';

const pool = new pg.Pool({ connectionString: process.env.BENCH_DATABASE_URL, max: 10, options: '-c jit=off' });
const sql = handwritten(pool);
const blogPool = new pg.Pool({ connectionString: process.env.BLOG_DATABASE_URL, max: 10, options: '-c jit=off' });
const blog = handwrittenBlog(blogPool);

interface Context {
  profiles: DataLoader<string, Profile | null>;
  recentBets: DataLoader<string, BetRow[]>;
}

const context = async (): Promise<Context> => ({
  profiles: new DataLoader(async (players) => {
    const found = await sql.profilesOf([...players]);
    return players.map((p) => found.get(p) ?? null);
  }),
  // The scenarios ask one limit per operation (as Mercurius's loader assumes too).
  recentBets: new DataLoader(async (keys) => {
    const [limit] = keys[0].split(' ', 1);
    const players = keys.map((k) => k.slice(limit.length + 1));
    const found = await sql.recentBetsOf(players, Number(limit));
    return players.map((p) => found.get(p) ?? []);
  }),
});

const schema = buildSchema(HANDWRITTEN_SDL);
const resolve = (typeName: string, fields: Record<string, GraphQLFieldResolver<never, Context, never>>) => {
  const type = schema.getType(typeName) as GraphQLObjectType;
  for (const [name, fn] of Object.entries(fields)) type.getFields()[name].resolve = fn as GraphQLFieldResolver<unknown, unknown>;
};
resolve('Query', handwrittenQueryResolvers(sql, blog));
resolve('LeaderboardEntry', {
  recentBets: (entry: Entry, args: { limit: number }, ctx) => ctx.recentBets.load(`${args.limit} ${entry.player}`),
  profile: (entry: Entry, _args, ctx) => ctx.profiles.load(entry.player),
});
resolve('BetActivity', { profile: (bet: BetRow, _args, ctx) => ctx.profiles.load(bet.player) });

/** graphql-jit behind Apollo's executor seam: one compiled plan per document hash and operation. */
function jitGateway(apiSchema: GraphQLSchema): GatewayInterface {
  const plans = new Map<string, CompiledQuery>();
  const executor: GatewayExecutor = async (rc) => {
    const key = `${rc.queryHash} ${rc.operationName ?? ''}`;
    let plan = plans.get(key);
    if (!plan) {
      const compiled = compileQuery(apiSchema, rc.document, rc.operationName ?? undefined);
      if (!isCompiledQuery(compiled)) return compiled as Awaited<ReturnType<GatewayExecutor>>;
      plans.set(key, (plan = compiled));
    }
    return (await plan.query(undefined, rc.context, rc.request.variables)) as Awaited<ReturnType<GatewayExecutor>>;
  };
  return {
    load: async () => ({ executor }),
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema, coreSupergraphSdl: printSchema(apiSchema) });
      return () => undefined;
    },
    async stop() {},
  };
}

const app = Fastify();
const apollo = new ApolloServer<Context>({ gateway: jitGateway(schema), plugins: [fastifyApolloDrainPlugin(app)] });
await apollo.start();
await app.register(fastifyApollo(apollo), { context });
await announce(app, async () => {
  await app.close();
  await apollo.stop();
  await pool.end();
  await blogPool.end();
});
