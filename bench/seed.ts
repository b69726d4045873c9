// The bench's own PostgreSQL database (platform_bench beside DATABASE_URL's), migrated like the API's
// and seeded with plain SQL: 100,000 players per leaderboard, 1,000,000 bet events, 100,000
// profiles, today's quest progress, and the growth boards. Each data set is recorded in
// bench_seed with its size (and its week or day where it depends on the date), so a later run
// reuses what is already there and seeding is paid once per machine. The blog CMS's posts live in
// their own database (platform_bench_blog), migrated by Payload and seeded the same way.
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import pino from 'pino';
import { normalizeStructTag } from '@mysten/sui/utils';
import { createDb } from '../src/db/client';
import { utcWeekStart } from '../src/services/leaderboards/service';
import { DEFAULT_CATALOGUE } from '../src/services/quests/catalogue';
import { periodStartOf } from '../src/services/quests/periods';
import { seedCatalogue } from '../src/services/quests/seed';

export const PLAYERS = 100_000;
export const BET_EVENTS = 1_000_000;
export const SUI = normalizeStructTag('0x2::sui::SUI');
export const player = (i: number) => `0x${i.toString(16).padStart(64, '0')}`;
export const growthCoin = (rows: number) => `0x${'0'.repeat(63)}b::bench_rank_${rows}::COIN`;

/** DATABASE_URL with the database name replaced by `name` (`override`, when set, wins). */
function siblingDatabaseUrl(databaseUrl: string, name: string, override: string | undefined): string {
  if (override) return override;
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The bench database beside DATABASE_URL's (BENCH_DATABASE_URL wins when set). */
export const benchDatabaseUrl = (databaseUrl: string): string => siblingDatabaseUrl(databaseUrl, 'platform_bench', process.env.BENCH_DATABASE_URL);

/** The blog CMS's bench database beside it (BENCH_BLOG_DATABASE_URL wins when set). */
export const benchBlogDatabaseUrl = (databaseUrl: string): string => siblingDatabaseUrl(databaseUrl, 'platform_bench_blog', process.env.BENCH_BLOG_DATABASE_URL);

/** Published posts in the blog's bench database (and a few drafts, which no list shows). */
export const BLOG_POSTS = 500;
const BLOG_DRAFTS = 25;
/** The blog's public URL in the bench (every server builds post URLs from it). */
export const BENCH_BLOG_URL = 'https://bench.example/blog';

/** The environment a reference server reads the blog's CMS with. */
export const blogEnv = (blogDatabaseUrl: string) => ({ BLOG_DATABASE_URL: blogDatabaseUrl, BLOG_URL: BENCH_BLOG_URL, PAYLOAD_SECRET: 'bench-payload-secret-'.padEnd(40, 'x') });

async function ensureDatabase(databaseUrl: string, benchUrl: string): Promise<void> {
  const name = decodeURIComponent(new URL(benchUrl).pathname.slice(1));
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await admin.end();
  }
}

interface DataSet {
  name: string;
  /** Changes when the data set must be rebuilt (size, the current week or day). */
  version: string;
  seed(db: pg.Pool): Promise<void>;
}

/** Scores spread so that about two players share each one (the address tie-break is exercised). */
const score = (rows: number, unit: string) => `((i::bigint * 7919) % (${rows}::bigint / 2 + 1)) * ${unit}`;

function dataSets(growthSizes: number[]): DataSet[] {
  const now = new Date();
  const week = utcWeekStart(now).toISOString().slice(0, 10);
  const day = now.toISOString().slice(0, 10);
  return [
    {
      name: 'xp',
      version: `${PLAYERS}`,
      seed: async (db) => {
        await db.query('TRUNCATE xp_leaderboard');
        await db.query(
          `INSERT INTO xp_leaderboard (player, total_xp, vip_level, chain_xp, quest_xp)
           SELECT '0x' || lpad(to_hex(i), 64, '0'), ${score(PLAYERS, '1000')}, i % 10, ${score(PLAYERS, '1000')}, 0 FROM generate_series(1, $1::int) AS i`,
          [PLAYERS],
        );
      },
    },
    {
      name: 'bet',
      version: `${PLAYERS}`,
      seed: async (db) => {
        await db.query('DELETE FROM bet_leaderboard WHERE coin_type = $1', [SUI]);
        await db.query(
          `INSERT INTO bet_leaderboard (player, coin_type, total_wagered, total_payout, bet_count, win_count)
           SELECT '0x' || lpad(to_hex(i), 64, '0'), $1, ${score(PLAYERS, '1000000000')}, 0, 1 + i % 50, i % 7 FROM generate_series(1, $2::int) AS i`,
          [SUI, PLAYERS],
        );
      },
    },
    {
      name: 'weekly_bet',
      version: `${PLAYERS} ${week}`,
      seed: async (db) => {
        await db.query('TRUNCATE weekly_bet_leaderboard');
        await db.query(
          `INSERT INTO weekly_bet_leaderboard (week_start, player, coin_type, total_wagered, total_payout, bet_count, win_count)
           SELECT $1::date, '0x' || lpad(to_hex(i), 64, '0'), $2, ${score(PLAYERS, '1000000')}, 0, 1 + i % 20, i % 5 FROM generate_series(1, $3::int) AS i`,
          [week, SUI, PLAYERS],
        );
      },
    },
    {
      name: 'referral',
      version: `${PLAYERS}`,
      seed: async (db) => {
        await db.query('TRUNCATE referral_leaderboard');
        await db.query(
          `INSERT INTO referral_leaderboard (referrer, coin_type, total_rewards, referral_count)
           SELECT '0x' || lpad(to_hex(i), 64, '0'), $1, ${score(PLAYERS, '10000')}, 1 + i % 30 FROM generate_series(1, $2::int) AS i`,
          [SUI, PLAYERS],
        );
      },
    },
    {
      name: 'bet_events',
      version: `${BET_EVENTS} over ${PLAYERS}`,
      seed: async (db) => {
        await db.query('TRUNCATE bet_result_event');
        // One bet a second, newest now; players take turns, so each has BET_EVENTS / PLAYERS bets.
        await db.query(
          `INSERT INTO bet_result_event (tx_digest, event_seq, checkpoint, timestamp_ms, sender, player, game_id, coin_type, stake, payout, won)
           SELECT 'bench' || i, 0, i, now() - make_interval(secs => $1::int - i), p, p, 'coinflip', $2,
                  (1 + i % 100)::numeric * 1000000000, CASE WHEN i % 3 = 0 THEN (1 + i % 100)::numeric * 2000000000 ELSE 0 END, i % 3 = 0
             FROM generate_series(1, $1::int) AS i, LATERAL (SELECT '0x' || lpad(to_hex(1 + i % $3::int), 64, '0') AS p) AS who`,
          [BET_EVENTS, SUI, PLAYERS],
        );
      },
    },
    {
      name: 'profiles',
      version: `${PLAYERS}`,
      seed: async (db) => {
        await db.query('DELETE FROM profile');
        await db.query(
          `INSERT INTO profile (wallet_address, display_name, avatar_url)
           SELECT '0x' || lpad(to_hex(i), 64, '0'), 'player ' || i, 'https://cdn.example/avatars/' || i || '.png' FROM generate_series(1, $1::int) AS i`,
          [PLAYERS],
        );
      },
    },
    {
      name: 'quest_progress',
      version: `${PLAYERS} ${day}`,
      // today's `daily-bet` done by every player (the 20-check batch reads these rows)
      seed: async (db) => {
        await db.query('DELETE FROM quest_progress');
        await db.query(
          `INSERT INTO quest_progress (quest_key, campaign_slug, player_address, time_period, period_start, progress, target, completed_at)
           SELECT 'daily-bet', 'platform', '0x' || lpad(to_hex(i), 64, '0'), 'daily', $1::timestamptz, 1, 1, now() FROM generate_series(1, $2::int) AS i`,
          [periodStartOf('daily', now).toISOString(), PLAYERS],
        );
      },
    },
    ...growthSizes.map<DataSet>((rows) => ({
      name: `growth ${rows}`,
      version: `${rows}`,
      seed: async (db) => {
        const coin = growthCoin(rows);
        await db.query('DELETE FROM bet_leaderboard WHERE coin_type = $1', [coin]);
        await db.query(
          `INSERT INTO bet_leaderboard (player, coin_type, total_wagered, total_payout, bet_count, win_count)
           SELECT '0x' || lpad(to_hex(i), 64, '0'), $1, ${score(rows, '1000000000')}, 0, 1 + i % 50, i % 7 FROM generate_series(1, $2::int) AS i`,
          [coin, rows],
        );
      },
    })),
  ];
}

/**
 * The blog CMS's bench database: created if needed, migrated by Payload (in its own process, as
 * the blog process does), then seeded with plain SQL into Payload's tables: BLOG_POSTS published
 * posts with three tags each (one a day back from today) and BLOG_DRAFTS drafts. Returns its URL.
 */
export async function prepareBlogDatabase(databaseUrl: string, opts: { log: (line: string) => void }): Promise<string> {
  const url = benchBlogDatabaseUrl(databaseUrl);
  await ensureDatabase(databaseUrl, url);
  const migrate = spawnSync(process.execPath, ['--import', 'tsx', 'bench/blog-migrate.ts'], { env: { ...process.env, ...blogEnv(url) }, encoding: 'utf8' });
  if (migrate.status !== 0) throw new Error(`blog migrations failed (exit ${migrate.status}): ${migrate.stderr}`);
  const db = new pg.Pool({ connectionString: url, max: 1 });
  try {
    await db.query('CREATE TABLE IF NOT EXISTS bench_seed (name text PRIMARY KEY, version text NOT NULL, seeded_at timestamptz NOT NULL DEFAULT now())');
    const version = `${BLOG_POSTS}+${BLOG_DRAFTS}`;
    const { rows } = await db.query<{ version: string }>("SELECT version FROM bench_seed WHERE name = 'blog_posts'");
    if (rows[0]?.version === version) return url;
    const started = performance.now();
    await db.query('BEGIN');
    await db.query('TRUNCATE blog_posts, blog_posts_texts, _blog_posts_v RESTART IDENTITY CASCADE');
    await db.query(
      `INSERT INTO blog_posts (title, excerpt, seo_description, slug, status, _status, author, published_at, created_at, updated_at, content)
       SELECT 'Bench post ' || i, 'What post ' || i || ' is about, in one or two sentences for the list page.',
              'Search description of post ' || i, 'bench-post-' || i,
              s::enum_blog_posts_status, s::enum_blog_posts_status, 'Author ' || (i % 7),
              CASE WHEN s = 'published' THEN date_trunc('day', now()) - (i || ' days')::interval + interval '9 hours' END,
              date_trunc('day', now()) - (i || ' days')::interval, date_trunc('day', now()) - (i || ' days')::interval,
              '{"root":{"type":"root","children":[],"direction":null,"format":"","indent":0,"version":1}}'::jsonb
         FROM generate_series(1, $1::int + $2::int) AS i, LATERAL (SELECT CASE WHEN i > $1::int THEN 'draft' ELSE 'published' END AS s) AS st`,
      [BLOG_POSTS, BLOG_DRAFTS],
    );
    await db.query(
      `INSERT INTO blog_posts_texts ("order", parent_id, path, text)
       SELECT t, p.id, 'tags', (ARRAY['strategy', 'news', 'guides', 'events', 'community'])[1 + (p.id + t) % 5] FROM blog_posts p, generate_series(1, 3) AS t`,
    );
    await db.query("INSERT INTO bench_seed (name, version) VALUES ('blog_posts', $1) ON CONFLICT (name) DO UPDATE SET version = EXCLUDED.version, seeded_at = now()", [version]);
    await db.query('COMMIT');
    await db.query('VACUUM ANALYZE blog_posts, blog_posts_texts');
    opts.log(`seeded blog_posts (${version}) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } catch (err) {
    await db.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await db.end();
  }
  return url;
}

/**
 * Creates (if needed), migrates and seeds the bench database; returns its URL. `log` receives
 * one line per data set seeded now.
 */
export async function prepareBenchDatabase(databaseUrl: string, opts: { growthSizes: number[]; log: (line: string) => void }): Promise<string> {
  const url = benchDatabaseUrl(databaseUrl);
  await ensureDatabase(databaseUrl, url);
  const migrated = await createDb({ databaseUrl: url, dataDir: '/nonexistent', logger: pino({ level: 'warn' }) });
  try {
    // The quest catalogue's campaigns and quests, as the API's first boot would create them (the reference servers read them too).
    await seedCatalogue(migrated, DEFAULT_CATALOGUE);
  } finally {
    await migrated.close();
  }
  const db = new pg.Pool({ connectionString: url, max: 1, options: '-c jit=off' });
  try {
    await db.query('CREATE TABLE IF NOT EXISTS bench_seed (name text PRIMARY KEY, version text NOT NULL, seeded_at timestamptz NOT NULL DEFAULT now())');
    let changed = false;
    for (const set of dataSets(opts.growthSizes)) {
      const { rows } = await db.query<{ version: string }>('SELECT version FROM bench_seed WHERE name = $1', [set.name]);
      if (rows[0]?.version === set.version) continue;
      const started = performance.now();
      await set.seed(db);
      await db.query('INSERT INTO bench_seed (name, version) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET version = EXCLUDED.version, seeded_at = now()', [set.name, set.version]);
      opts.log(`seeded ${set.name} (${set.version}) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      changed = true;
    }
    // Index-only scans need the visibility map; on a live board autovacuum keeps it current.
    if (changed) await db.query('VACUUM ANALYZE');
  } finally {
    await db.end();
  }
  return url;
}
