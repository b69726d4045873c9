-- CreateTable
CREATE TABLE "leaderboard_rank_bucket" (
    "board" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "bucket" DECIMAL(40,0) NOT NULL,
    "n" BIGINT NOT NULL,

    CONSTRAINT "leaderboard_rank_bucket_pkey" PRIMARY KEY ("board","scope","bucket")
);

-- Hand-written below (Prisma does not model functions or triggers).
-- A score's bucket is its first three significant digits: [bucket, bucket + unit).
CREATE FUNCTION leaderboard_rank_unit(score numeric) RETURNS numeric
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT ('1' || repeat('0', greatest(length(trunc(score)::text) - 3, 0)))::numeric $$;

CREATE FUNCTION leaderboard_rank_bucket(score numeric) RETURNS numeric
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT div(score, leaderboard_rank_unit(score)) * leaderboard_rank_unit(score) $$;

-- Statement triggers (one aggregated upsert per statement, buckets locked in key order so two
-- writers cannot deadlock). Arguments: board name, scope expression, score column.
CREATE FUNCTION leaderboard_rank_buckets_sync() RETURNS trigger
  LANGUAGE plpgsql
  AS $fn$
DECLARE
  parts text[] := '{}';
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM leaderboard_rank_bucket WHERE board = TG_ARGV[0];
    RETURN NULL;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    parts := parts || format('SELECT %s AS scope, leaderboard_rank_bucket(%I) AS bucket, 1 AS d FROM new_rows', TG_ARGV[1], TG_ARGV[2]);
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    parts := parts || format('SELECT %s AS scope, leaderboard_rank_bucket(%I) AS bucket, -1 AS d FROM old_rows', TG_ARGV[1], TG_ARGV[2]);
  END IF;
  EXECUTE format(
    'INSERT INTO leaderboard_rank_bucket AS b (board, scope, bucket, n)
       SELECT %L, scope, bucket, sum(d) FROM (%s) AS changes GROUP BY scope, bucket HAVING sum(d) <> 0 ORDER BY scope, bucket
     ON CONFLICT (board, scope, bucket) DO UPDATE SET n = b.n + EXCLUDED.n',
    TG_ARGV[0], array_to_string(parts, ' UNION ALL '));
  RETURN NULL;
END
$fn$;

CREATE TRIGGER rank_buckets_insert AFTER INSERT ON xp_leaderboard REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION leaderboard_rank_buckets_sync('xp', '''''', 'total_xp');
CREATE TRIGGER rank_buckets_update AFTER UPDATE ON xp_leaderboard REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION leaderboard_rank_buckets_sync('xp', '''''', 'total_xp');
CREATE TRIGGER rank_buckets_delete AFTER DELETE ON xp_leaderboard REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION leaderboard_rank_buckets_sync('xp', '''''', 'total_xp');
CREATE TRIGGER rank_buckets_truncate AFTER TRUNCATE ON xp_leaderboard
  FOR EACH STATEMENT EXECUTE FUNCTION leaderboard_rank_buckets_sync('xp');

CREATE TRIGGER rank_buckets_insert AFTER INSERT ON bet_leaderboard REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION leaderboard_rank_buckets_sync('bet', 'coin_type', 'total_wagered');
CREATE TRIGGER rank_buckets_update AFTER UPDATE ON bet_leaderboard REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION leaderboard_rank_buckets_sync('bet', 'coin_type', 'total_wagered');
CREATE TRIGGER rank_buckets_delete AFTER DELETE ON bet_leaderboard REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION leaderboard_rank_buckets_sync('bet', 'coin_type', 'total_wagered');
CREATE TRIGGER rank_buckets_truncate AFTER TRUNCATE ON bet_leaderboard
  FOR EACH STATEMENT EXECUTE FUNCTION leaderboard_rank_buckets_sync('bet');

CREATE TRIGGER rank_buckets_insert AFTER INSERT ON weekly_bet_leaderboard REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION leaderboard_rank_buckets_sync('weekly_bet', 'to_char(week_start, ''YYYY-MM-DD'') || '' '' || coin_type', 'total_wagered');
CREATE TRIGGER rank_buckets_update AFTER UPDATE ON weekly_bet_leaderboard REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION leaderboard_rank_buckets_sync('weekly_bet', 'to_char(week_start, ''YYYY-MM-DD'') || '' '' || coin_type', 'total_wagered');
CREATE TRIGGER rank_buckets_delete AFTER DELETE ON weekly_bet_leaderboard REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION leaderboard_rank_buckets_sync('weekly_bet', 'to_char(week_start, ''YYYY-MM-DD'') || '' '' || coin_type', 'total_wagered');
CREATE TRIGGER rank_buckets_truncate AFTER TRUNCATE ON weekly_bet_leaderboard
  FOR EACH STATEMENT EXECUTE FUNCTION leaderboard_rank_buckets_sync('weekly_bet');

CREATE TRIGGER rank_buckets_insert AFTER INSERT ON referral_leaderboard REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION leaderboard_rank_buckets_sync('referral', 'coin_type', 'total_rewards');
CREATE TRIGGER rank_buckets_update AFTER UPDATE ON referral_leaderboard REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION leaderboard_rank_buckets_sync('referral', 'coin_type', 'total_rewards');
CREATE TRIGGER rank_buckets_delete AFTER DELETE ON referral_leaderboard REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION leaderboard_rank_buckets_sync('referral', 'coin_type', 'total_rewards');
CREATE TRIGGER rank_buckets_truncate AFTER TRUNCATE ON referral_leaderboard
  FOR EACH STATEMENT EXECUTE FUNCTION leaderboard_rank_buckets_sync('referral');

-- Boards that already hold rows.
INSERT INTO leaderboard_rank_bucket (board, scope, bucket, n)
  SELECT 'xp', '', leaderboard_rank_bucket(total_xp), count(*) FROM xp_leaderboard GROUP BY 3
  UNION ALL SELECT 'bet', coin_type, leaderboard_rank_bucket(total_wagered), count(*) FROM bet_leaderboard GROUP BY 2, 3
  UNION ALL SELECT 'weekly_bet', to_char(week_start, 'YYYY-MM-DD') || ' ' || coin_type, leaderboard_rank_bucket(total_wagered), count(*) FROM weekly_bet_leaderboard GROUP BY 2, 3
  UNION ALL SELECT 'referral', coin_type, leaderboard_rank_bucket(total_rewards), count(*) FROM referral_leaderboard GROUP BY 2, 3;
