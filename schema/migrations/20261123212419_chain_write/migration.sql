-- CreateTable
CREATE TABLE "chain_write" (
    "id" BIGSERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "payload" JSONB NOT NULL,
    "digest" TEXT,
    "tx_bytes" TEXT,
    "signature" TEXT,
    "gas_used" DECIMAL(40,0),
    "gas_detail" JSONB,
    "effects_status" TEXT,
    "error" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "resolved_by_digest" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "submitted_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "chain_write_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "giveaway_created_event" (
    "id" BIGSERIAL NOT NULL,
    "tx_digest" TEXT NOT NULL,
    "event_seq" INTEGER NOT NULL,
    "checkpoint" BIGINT NOT NULL,
    "timestamp_ms" TIMESTAMPTZ(3) NOT NULL,
    "sender" TEXT NOT NULL,
    "giveaway_id" TEXT NOT NULL,
    "ends_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "giveaway_created_event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "chain_write_idempotency_key_key" ON "chain_write"("idempotency_key");

-- CreateIndex
CREATE UNIQUE INDEX "chain_write_digest_key" ON "chain_write"("digest");

-- CreateIndex
CREATE INDEX "chain_write_status_id_idx" ON "chain_write"("status", "id");

-- CreateIndex
CREATE INDEX "giveaway_created_event_ends_at_idx" ON "giveaway_created_event"("ends_at");

-- CreateIndex
CREATE UNIQUE INDEX "giveaway_created_event_tx_digest_event_seq_key" ON "giveaway_created_event"("tx_digest", "event_seq");

-- CreateIndex
CREATE INDEX "giveaway_created_event_giveaway_id_idx" ON "giveaway_created_event"("giveaway_id");
