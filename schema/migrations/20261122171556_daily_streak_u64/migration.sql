-- AlterTable
ALTER TABLE "daily_streak_claimed_event" ALTER COLUMN "streak_day" SET DATA TYPE DECIMAL(20,0);

-- AlterTable
ALTER TABLE "daily_streak_reset_event" ALTER COLUMN "previous_streak" SET DATA TYPE DECIMAL(20,0);
