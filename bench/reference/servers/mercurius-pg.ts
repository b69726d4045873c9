// Mercurius with graphql-jit (jit: 1) and hand-written resolvers on `pg` (bench/reference/handwritten.ts);
// per-item fields of the nested scenario through Mercurius's own loaders.
import Fastify from 'fastify';
import mercurius, { type MercuriusLoaders } from 'mercurius';
import pg from 'pg';
import { HANDWRITTEN_SDL, handwritten, handwrittenBlog, handwrittenQueryResolvers, type BetRow, type Entry } from '../handwritten';
import { announce } from './common';

const pool = new pg.Pool({ connectionString: process.env.BENCH_DATABASE_URL, max: 10, options: '-c jit=off' });
const sql = handwritten(pool);
const blogPool = new pg.Pool({ connectionString: process.env.BLOG_DATABASE_URL, max: 10, options: '-c jit=off' });
const blog = handwrittenBlog(blogPool);

const profiles = async (queries: Array<{ obj: { player: string } }>) => {
  const found = await sql.profilesOf([...new Set(queries.map((q) => q.obj.player))]);
  return queries.map((q) => found.get(q.obj.player) ?? null);
};
const loaders: MercuriusLoaders = {
  LeaderboardEntry: {
    async recentBets(queries: Array<{ obj: Entry; params: { limit: number } }>) {
      const found = await sql.recentBetsOf([...new Set(queries.map((q) => q.obj.player))], queries[0].params.limit);
      return queries.map((q) => found.get(q.obj.player) ?? []);
    },
    profile: profiles,
  },
  BetActivity: { profile: profiles as (queries: Array<{ obj: BetRow }>) => Promise<unknown[]> },
};

const app = Fastify();
await app.register(mercurius, { schema: HANDWRITTEN_SDL, resolvers: { Query: handwrittenQueryResolvers(sql, blog) }, loaders, jit: 1 });
await announce(app, async () => {
  await app.close();
  await pool.end();
  await blogPool.end();
});
