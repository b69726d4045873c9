-- DropIndex
DROP INDEX "bet_leaderboard_coin_type_total_wagered_idx";

-- DropIndex
DROP INDEX "referral_leaderboard_coin_type_total_rewards_idx";

-- DropIndex
DROP INDEX "weekly_bet_leaderboard_week_start_coin_type_total_wagered_idx";

-- DropIndex
DROP INDEX "xp_leaderboard_total_xp_idx";

-- CreateIndex
CREATE INDEX "bet_leaderboard_coin_type_total_wagered_player_idx" ON "bet_leaderboard"("coin_type", "total_wagered" DESC, "player");

-- CreateIndex
CREATE INDEX "referral_leaderboard_coin_type_total_rewards_referrer_idx" ON "referral_leaderboard"("coin_type", "total_rewards" DESC, "referrer");

-- CreateIndex
CREATE INDEX "weekly_bet_leaderboard_week_start_coin_type_total_wagered_p_idx" ON "weekly_bet_leaderboard"("week_start", "coin_type", "total_wagered" DESC, "player");

-- CreateIndex
CREATE INDEX "xp_leaderboard_total_xp_player_idx" ON "xp_leaderboard"("total_xp" DESC, "player");
