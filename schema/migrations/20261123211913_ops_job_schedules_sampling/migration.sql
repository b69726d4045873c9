-- AlterTable
ALTER TABLE "ops_job_heartbeat" ADD COLUMN     "last_outcome" TEXT,
ADD COLUMN     "last_skip_reason" TEXT,
ADD COLUMN     "last_skipped_at" TIMESTAMPTZ(3),
ADD COLUMN     "last_success_at" TIMESTAMPTZ(3),
ADD COLUMN     "last_tick_at" TIMESTAMPTZ(3),
ADD COLUMN     "next_run_at" TIMESTAMPTZ(3),
ADD COLUMN     "schedule" TEXT;

-- AlterTable
ALTER TABLE "ops_job_run" ADD COLUMN     "sample_window" TIMESTAMPTZ(3);

-- CreateIndex
CREATE UNIQUE INDEX "ops_job_run_job_key_sample_window_key" ON "ops_job_run"("job_key", "sample_window");
