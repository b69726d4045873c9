import type { Config } from '../config';
import { describeDatabaseFailure } from './database-failure';

/**
 * The blog's PostgreSQL (BLOG_DATABASE_URL), tried once before the blog process starts: that
 * process would otherwise fail its migrations, be restarted and end in a crash loop half a
 * minute later. Only a failure to reach the server stops start-up here (a StartupProblem); any
 * other is left to the blog process, which reports it.
 */
export async function checkBlogDatabase(config: Config): Promise<void> {
  const url = config.blog.databaseUrl;
  if (!url || !/^postgres(ql)?:/.test(url)) return;
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    const problem = describeDatabaseFailure(err, 'BLOG_DATABASE_URL', url, 'unset BLOG_DATABASE_URL to keep the blog in SQLite (DATA_DIR/blog.db)');
    if (problem !== err) throw problem;
  } finally {
    await client.end().catch(() => {});
  }
}
