-- CreateTable
CREATE TABLE "welcome_wheel_spin" (
    "wallet_address" TEXT NOT NULL,
    "segment" INTEGER NOT NULL,
    "reward" INTEGER NOT NULL,
    "payout_status" TEXT NOT NULL DEFAULT 'pending',
    "payout_tx_digest" TEXT,
    "spun_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "paid_at" TIMESTAMPTZ(3),

    CONSTRAINT "welcome_wheel_spin_pkey" PRIMARY KEY ("wallet_address")
);

-- CreateIndex
CREATE INDEX "welcome_wheel_spin_payout_status_spun_at_idx" ON "welcome_wheel_spin"("payout_status", "spun_at");

-- Not expressible in schema.prisma: the payout states and a non-negative reward.
ALTER TABLE "welcome_wheel_spin" ADD CONSTRAINT "welcome_wheel_spin_payout_status_check" CHECK ("payout_status" IN ('pending', 'paid', 'failed'));
ALTER TABLE "welcome_wheel_spin" ADD CONSTRAINT "welcome_wheel_spin_reward_check" CHECK ("reward" >= 0);
