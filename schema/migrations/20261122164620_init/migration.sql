-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "social_provider" AS ENUM ('chat_platform', 'messaging_platform', 'social_network');

-- CreateTable
CREATE TABLE "campaign" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "slug" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "name" TEXT,
    "start_at" TIMESTAMPTZ(3) NOT NULL,
    "end_at" TIMESTAMPTZ(3) NOT NULL,
    "manages_claims" BOOLEAN NOT NULL DEFAULT false,
    "title" TEXT,
    "description" TEXT,
    "copy_text" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "campaign_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "quest_claim" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "quest_key" TEXT NOT NULL,
    "campaign_slug" TEXT NOT NULL,
    "player_address" TEXT NOT NULL,
    "time_period" TEXT NOT NULL,
    "period_start" TIMESTAMPTZ(3) NOT NULL,
    "xp_reward" INTEGER NOT NULL,
    "tx_hash" TEXT,
    "claimed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "quest_claim_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "quest_progress" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "quest_key" TEXT NOT NULL,
    "campaign_slug" TEXT NOT NULL,
    "player_address" TEXT NOT NULL,
    "time_period" TEXT NOT NULL,
    "period_start" TIMESTAMPTZ(3) NOT NULL,
    "progress" DECIMAL(40,0) NOT NULL DEFAULT 0,
    "target" DECIMAL(40,0) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "quest_progress_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "zklogin_account" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "address" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "audience" TEXT NOT NULL,
    "salt" TEXT NOT NULL,
    "email" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_login_at" TIMESTAMPTZ(3),

    CONSTRAINT "zklogin_account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "profile" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "wallet_address" TEXT NOT NULL,
    "display_name" TEXT,
    "avatar_url" TEXT,
    "bio" TEXT,
    "email" TEXT,
    "email_verified_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "profile_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "social_link" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "profile_id" UUID NOT NULL,
    "provider" "social_provider" NOT NULL,
    "external_id" TEXT NOT NULL,
    "username" TEXT,
    "linked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "social_link_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "email_verification_token" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "profile_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "consumed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "email_verification_token_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "login_challenge" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "address" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "consumed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "login_challenge_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "refresh_token" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "subject" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "family_id" UUID NOT NULL,
    "replaced_by_id" UUID,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "user_agent" TEXT,
    "ip" TEXT,

    CONSTRAINT "refresh_token_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "get_stashed_gift" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "project" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "delivered_at" TIMESTAMPTZ(3),
    "delivered_to_ip" TEXT,
    "delivered_to_address" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "get_stashed_gift_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "gift_delivery_limit" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "scope" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "daily_limit" INTEGER NOT NULL,
    "delivered_count" INTEGER NOT NULL DEFAULT 0,
    "reset_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "gift_delivery_limit_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "gift_delivery_schedule" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "project" TEXT NOT NULL,
    "starts_at" TIMESTAMPTZ(3) NOT NULL,
    "ends_at" TIMESTAMPTZ(3) NOT NULL,
    "daily_quota" INTEGER NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "gift_delivery_schedule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bet_result_event" (
    "id" BIGSERIAL NOT NULL,
    "tx_digest" TEXT NOT NULL,
    "event_seq" INTEGER NOT NULL,
    "checkpoint" BIGINT NOT NULL,
    "timestamp_ms" TIMESTAMPTZ(3) NOT NULL,
    "sender" TEXT NOT NULL,
    "player" TEXT NOT NULL,
    "game_id" TEXT NOT NULL,
    "coin_type" TEXT NOT NULL,
    "stake" DECIMAL(40,0) NOT NULL,
    "payout" DECIMAL(40,0) NOT NULL,
    "won" BOOLEAN NOT NULL,

    CONSTRAINT "bet_result_event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vip_exp_progress_event" (
    "id" BIGSERIAL NOT NULL,
    "tx_digest" TEXT NOT NULL,
    "event_seq" INTEGER NOT NULL,
    "checkpoint" BIGINT NOT NULL,
    "timestamp_ms" TIMESTAMPTZ(3) NOT NULL,
    "sender" TEXT NOT NULL,
    "player" TEXT NOT NULL,
    "exp_gained" DECIMAL(40,0) NOT NULL,
    "total_exp" DECIMAL(40,0) NOT NULL,
    "vip_level" INTEGER NOT NULL,

    CONSTRAINT "vip_exp_progress_event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "daily_streak_claimed_event" (
    "id" BIGSERIAL NOT NULL,
    "tx_digest" TEXT NOT NULL,
    "event_seq" INTEGER NOT NULL,
    "checkpoint" BIGINT NOT NULL,
    "timestamp_ms" TIMESTAMPTZ(3) NOT NULL,
    "sender" TEXT NOT NULL,
    "player" TEXT NOT NULL,
    "streak_day" INTEGER NOT NULL,
    "reward" DECIMAL(40,0) NOT NULL,

    CONSTRAINT "daily_streak_claimed_event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "daily_streak_reset_event" (
    "id" BIGSERIAL NOT NULL,
    "tx_digest" TEXT NOT NULL,
    "event_seq" INTEGER NOT NULL,
    "checkpoint" BIGINT NOT NULL,
    "timestamp_ms" TIMESTAMPTZ(3) NOT NULL,
    "sender" TEXT NOT NULL,
    "player" TEXT NOT NULL,
    "previous_streak" INTEGER NOT NULL,

    CONSTRAINT "daily_streak_reset_event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "referral_reward_event" (
    "id" BIGSERIAL NOT NULL,
    "tx_digest" TEXT NOT NULL,
    "event_seq" INTEGER NOT NULL,
    "checkpoint" BIGINT NOT NULL,
    "timestamp_ms" TIMESTAMPTZ(3) NOT NULL,
    "sender" TEXT NOT NULL,
    "referrer" TEXT NOT NULL,
    "referee" TEXT NOT NULL,
    "coin_type" TEXT NOT NULL,
    "amount" DECIMAL(40,0) NOT NULL,

    CONSTRAINT "referral_reward_event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "house_liquidity_event" (
    "id" BIGSERIAL NOT NULL,
    "tx_digest" TEXT NOT NULL,
    "event_seq" INTEGER NOT NULL,
    "checkpoint" BIGINT NOT NULL,
    "timestamp_ms" TIMESTAMPTZ(3) NOT NULL,
    "sender" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "coin_type" TEXT NOT NULL,
    "amount" DECIMAL(40,0) NOT NULL,
    "house_balance" DECIMAL(40,0) NOT NULL,

    CONSTRAINT "house_liquidity_event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "secondary_house_liquidity_event" (
    "id" BIGSERIAL NOT NULL,
    "tx_digest" TEXT NOT NULL,
    "event_seq" INTEGER NOT NULL,
    "checkpoint" BIGINT NOT NULL,
    "timestamp_ms" TIMESTAMPTZ(3) NOT NULL,
    "sender" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "coin_type" TEXT NOT NULL,
    "amount" DECIMAL(40,0) NOT NULL,
    "house_balance" DECIMAL(40,0) NOT NULL,

    CONSTRAINT "secondary_house_liquidity_event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "cursor" (
    "event_kind" TEXT NOT NULL,
    "transport" TEXT NOT NULL,
    "cursor" TEXT,
    "last_tx_digest" TEXT,
    "last_event_seq" INTEGER,
    "last_checkpoint" BIGINT,
    "events_indexed" BIGINT NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "cursor_pkey" PRIMARY KEY ("event_kind")
);

-- CreateTable
CREATE TABLE "referral_leaderboard" (
    "referrer" TEXT NOT NULL,
    "coin_type" TEXT NOT NULL,
    "total_rewards" DECIMAL(40,0) NOT NULL DEFAULT 0,
    "referral_count" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "referral_leaderboard_pkey" PRIMARY KEY ("referrer","coin_type")
);

-- CreateTable
CREATE TABLE "bet_leaderboard" (
    "player" TEXT NOT NULL,
    "coin_type" TEXT NOT NULL,
    "total_wagered" DECIMAL(40,0) NOT NULL DEFAULT 0,
    "total_payout" DECIMAL(40,0) NOT NULL DEFAULT 0,
    "bet_count" INTEGER NOT NULL DEFAULT 0,
    "win_count" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bet_leaderboard_pkey" PRIMARY KEY ("player","coin_type")
);

-- CreateTable
CREATE TABLE "weekly_bet_leaderboard" (
    "week_start" DATE NOT NULL,
    "player" TEXT NOT NULL,
    "coin_type" TEXT NOT NULL,
    "total_wagered" DECIMAL(40,0) NOT NULL DEFAULT 0,
    "total_payout" DECIMAL(40,0) NOT NULL DEFAULT 0,
    "bet_count" INTEGER NOT NULL DEFAULT 0,
    "win_count" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "weekly_bet_leaderboard_pkey" PRIMARY KEY ("week_start","player","coin_type")
);

-- CreateTable
CREATE TABLE "xp_leaderboard" (
    "player" TEXT NOT NULL,
    "total_xp" DECIMAL(40,0) NOT NULL DEFAULT 0,
    "vip_level" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "xp_leaderboard_pkey" PRIMARY KEY ("player")
);

-- CreateTable
CREATE TABLE "ops_job_heartbeat" (
    "job_key" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "last_started_at" TIMESTAMPTZ(3),
    "last_finished_at" TIMESTAMPTZ(3),
    "last_duration_ms" INTEGER,
    "last_error" TEXT,
    "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ops_job_heartbeat_pkey" PRIMARY KEY ("job_key")
);

-- CreateTable
CREATE TABLE "ops_job_run" (
    "id" BIGSERIAL NOT NULL,
    "job_key" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "detail" JSONB,
    "sampled" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "ops_job_run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "price_snapshot" (
    "id" BIGSERIAL NOT NULL,
    "asset" TEXT NOT NULL,
    "usd_price" DECIMAL(38,18) NOT NULL,
    "source" TEXT NOT NULL,
    "fetched_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "price_snapshot_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "campaign_slug_key" ON "campaign"("slug");

-- CreateIndex
CREATE INDEX "quest_claim_player_address_claimed_at_idx" ON "quest_claim"("player_address", "claimed_at" DESC);

-- CreateIndex
CREATE INDEX "quest_claim_campaign_slug_quest_key_idx" ON "quest_claim"("campaign_slug", "quest_key");

-- CreateIndex
CREATE UNIQUE INDEX "quest_claim_unique_period" ON "quest_claim"("quest_key", "campaign_slug", "player_address", "time_period", "period_start");

-- CreateIndex
CREATE INDEX "quest_progress_player_address_idx" ON "quest_progress"("player_address");

-- CreateIndex
CREATE UNIQUE INDEX "quest_progress_unique_period" ON "quest_progress"("quest_key", "campaign_slug", "player_address", "time_period", "period_start");

-- CreateIndex
CREATE UNIQUE INDEX "zklogin_account_address_key" ON "zklogin_account"("address");

-- CreateIndex
CREATE UNIQUE INDEX "zklogin_account_issuer_subject_audience_key" ON "zklogin_account"("issuer", "subject", "audience");

-- CreateIndex
CREATE UNIQUE INDEX "profile_wallet_address_key" ON "profile"("wallet_address");

-- CreateIndex
CREATE UNIQUE INDEX "profile_email_key" ON "profile"("email");

-- CreateIndex
CREATE UNIQUE INDEX "social_link_profile_id_provider_key" ON "social_link"("profile_id", "provider");

-- CreateIndex
CREATE UNIQUE INDEX "social_link_provider_external_id_key" ON "social_link"("provider", "external_id");

-- CreateIndex
CREATE UNIQUE INDEX "email_verification_token_token_hash_key" ON "email_verification_token"("token_hash");

-- CreateIndex
CREATE INDEX "email_verification_token_profile_id_idx" ON "email_verification_token"("profile_id");

-- CreateIndex
CREATE UNIQUE INDEX "login_challenge_nonce_key" ON "login_challenge"("nonce");

-- CreateIndex
CREATE INDEX "login_challenge_address_idx" ON "login_challenge"("address");

-- CreateIndex
CREATE INDEX "login_challenge_expires_at_idx" ON "login_challenge"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "refresh_token_token_hash_key" ON "refresh_token"("token_hash");

-- CreateIndex
CREATE INDEX "refresh_token_family_id_idx" ON "refresh_token"("family_id");

-- CreateIndex
CREATE INDEX "refresh_token_subject_idx" ON "refresh_token"("subject");

-- CreateIndex
CREATE UNIQUE INDEX "get_stashed_gift_url_key" ON "get_stashed_gift"("url");

-- CreateIndex
CREATE INDEX "get_stashed_gift_project_delivered_at_idx" ON "get_stashed_gift"("project", "delivered_at");

-- CreateIndex
CREATE UNIQUE INDEX "gift_delivery_limit_scope_key_key" ON "gift_delivery_limit"("scope", "key");

-- CreateIndex
CREATE INDEX "gift_delivery_schedule_project_starts_at_idx" ON "gift_delivery_schedule"("project", "starts_at");

-- CreateIndex
CREATE INDEX "bet_result_event_player_timestamp_ms_idx" ON "bet_result_event"("player", "timestamp_ms");

-- CreateIndex
CREATE INDEX "bet_result_event_timestamp_ms_idx" ON "bet_result_event"("timestamp_ms");

-- CreateIndex
CREATE UNIQUE INDEX "bet_result_event_tx_digest_event_seq_key" ON "bet_result_event"("tx_digest", "event_seq");

-- CreateIndex
CREATE INDEX "vip_exp_progress_event_player_timestamp_ms_idx" ON "vip_exp_progress_event"("player", "timestamp_ms");

-- CreateIndex
CREATE UNIQUE INDEX "vip_exp_progress_event_tx_digest_event_seq_key" ON "vip_exp_progress_event"("tx_digest", "event_seq");

-- CreateIndex
CREATE INDEX "daily_streak_claimed_event_player_timestamp_ms_idx" ON "daily_streak_claimed_event"("player", "timestamp_ms");

-- CreateIndex
CREATE UNIQUE INDEX "daily_streak_claimed_event_tx_digest_event_seq_key" ON "daily_streak_claimed_event"("tx_digest", "event_seq");

-- CreateIndex
CREATE INDEX "daily_streak_reset_event_player_timestamp_ms_idx" ON "daily_streak_reset_event"("player", "timestamp_ms");

-- CreateIndex
CREATE UNIQUE INDEX "daily_streak_reset_event_tx_digest_event_seq_key" ON "daily_streak_reset_event"("tx_digest", "event_seq");

-- CreateIndex
CREATE INDEX "referral_reward_event_referrer_timestamp_ms_idx" ON "referral_reward_event"("referrer", "timestamp_ms");

-- CreateIndex
CREATE UNIQUE INDEX "referral_reward_event_tx_digest_event_seq_key" ON "referral_reward_event"("tx_digest", "event_seq");

-- CreateIndex
CREATE INDEX "house_liquidity_event_provider_timestamp_ms_idx" ON "house_liquidity_event"("provider", "timestamp_ms");

-- CreateIndex
CREATE UNIQUE INDEX "house_liquidity_event_tx_digest_event_seq_key" ON "house_liquidity_event"("tx_digest", "event_seq");

-- CreateIndex
CREATE INDEX "secondary_house_liquidity_event_provider_timestamp_ms_idx" ON "secondary_house_liquidity_event"("provider", "timestamp_ms");

-- CreateIndex
CREATE UNIQUE INDEX "secondary_house_liquidity_event_tx_digest_event_seq_key" ON "secondary_house_liquidity_event"("tx_digest", "event_seq");

-- CreateIndex
CREATE INDEX "referral_leaderboard_coin_type_total_rewards_idx" ON "referral_leaderboard"("coin_type", "total_rewards" DESC);

-- CreateIndex
CREATE INDEX "bet_leaderboard_coin_type_total_wagered_idx" ON "bet_leaderboard"("coin_type", "total_wagered" DESC);

-- CreateIndex
CREATE INDEX "weekly_bet_leaderboard_week_start_coin_type_total_wagered_idx" ON "weekly_bet_leaderboard"("week_start", "coin_type", "total_wagered" DESC);

-- CreateIndex
CREATE INDEX "xp_leaderboard_total_xp_idx" ON "xp_leaderboard"("total_xp" DESC);

-- CreateIndex
CREATE INDEX "ops_job_run_job_key_started_at_idx" ON "ops_job_run"("job_key", "started_at");

-- CreateIndex
CREATE INDEX "ops_job_run_started_at_idx" ON "ops_job_run"("started_at");

-- CreateIndex
CREATE INDEX "price_snapshot_asset_fetched_at_idx" ON "price_snapshot"("asset", "fetched_at" DESC);

-- AddForeignKey
ALTER TABLE "social_link" ADD CONSTRAINT "social_link_profile_id_fkey" FOREIGN KEY ("profile_id") REFERENCES "profile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "email_verification_token" ADD CONSTRAINT "email_verification_token_profile_id_fkey" FOREIGN KEY ("profile_id") REFERENCES "profile"("id") ON DELETE CASCADE ON UPDATE CASCADE;
