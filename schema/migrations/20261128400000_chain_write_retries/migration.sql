-- Chain writes that recover (issue 25): per-write backoff, dry-run gas budget, operator retry/cancel.
ALTER TABLE "chain_write"
  ADD COLUMN "gas_budget" DECIMAL(40,0),
  ADD COLUMN "next_attempt_at" TIMESTAMPTZ(3),
  ADD COLUMN "failures" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "queued_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

UPDATE "chain_write" SET "queued_at" = "created_at";

-- The statuses' new names: pending → queued, success → confirmed, failure → failed.
UPDATE "chain_write" SET "status" = CASE "status" WHEN 'pending' THEN 'queued' WHEN 'success' THEN 'confirmed' WHEN 'failure' THEN 'failed' ELSE "status" END;
UPDATE "chain_write" SET "failures" = 1 WHERE "status" = 'failed';
ALTER TABLE "chain_write" ALTER COLUMN "status" SET DEFAULT 'queued';
ALTER TABLE "chain_write" ADD CONSTRAINT "chain_write_status_check" CHECK ("status" IN ('queued', 'submitted', 'confirmed', 'failed', 'cancelled'));
