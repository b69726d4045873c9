-- CreateTable
CREATE TABLE "login_day" (
    "wallet_address" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "login_day_pkey" PRIMARY KEY ("wallet_address","day")
);
