-- Quests as data (issue 25): quest definitions move from code into `quest`; campaigns gain an on/off switch and a version.
-- Existing deployments get their default quests on the next start (missing default quests are seeded, src/services/quests/seed.ts).

-- AlterTable
ALTER TABLE "campaign" ADD COLUMN     "enabled" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 1;

-- CreateTable
CREATE TABLE "quest" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "campaign_slug" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "xp_reward" INTEGER NOT NULL,
    "time_period" TEXT NOT NULL,
    "modes" TEXT[],
    "evaluator_kind" TEXT NOT NULL,
    "evaluator_params" JSONB NOT NULL DEFAULT '{}',
    "target" DECIMAL(40,0) NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "start_at" TIMESTAMPTZ(3),
    "end_at" TIMESTAMPTZ(3),
    "performance_daily" BOOLEAN NOT NULL DEFAULT false,
    "position" INTEGER NOT NULL DEFAULT 0,
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "quest_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "quest_campaign_slug_key_key" ON "quest"("campaign_slug", "key");

-- AddForeignKey
ALTER TABLE "quest" ADD CONSTRAINT "quest_campaign_slug_fkey" FOREIGN KEY ("campaign_slug") REFERENCES "campaign"("slug") ON DELETE CASCADE ON UPDATE CASCADE;
