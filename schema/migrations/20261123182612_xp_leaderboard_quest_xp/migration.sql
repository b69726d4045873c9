-- AlterTable
ALTER TABLE "xp_leaderboard" ADD COLUMN     "chain_xp" DECIMAL(40,0) NOT NULL DEFAULT 0,
ADD COLUMN     "quest_xp" DECIMAL(40,0) NOT NULL DEFAULT 0;

-- Hand-written: rows written before quest claims existed hold chain XP only.
UPDATE "xp_leaderboard" SET "chain_xp" = "total_xp" WHERE "chain_xp" <> "total_xp";
