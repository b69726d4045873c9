-- AlterTable
ALTER TABLE "chat_message" ADD COLUMN     "deleted_at" TIMESTAMPTZ(3),
ADD COLUMN     "deleted_by" TEXT;

-- CreateTable
CREATE TABLE "chat_ban" (
    "wallet" TEXT NOT NULL,
    "until" TIMESTAMPTZ(3),
    "reason" TEXT NOT NULL,
    "banned_by" TEXT NOT NULL,
    "banned_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lifted_by" TEXT,
    "lifted_at" TIMESTAMPTZ(3),

    CONSTRAINT "chat_ban_pkey" PRIMARY KEY ("wallet")
);

-- CreateTable
CREATE TABLE "chat_report" (
    "id" BIGSERIAL NOT NULL,
    "message_id" BIGINT NOT NULL,
    "reporter" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolved_by" TEXT,
    "resolved_at" TIMESTAMPTZ(3),
    "note" TEXT,

    CONSTRAINT "chat_report_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "chat_report_status_id_idx" ON "chat_report"("status", "id");

-- CreateIndex
CREATE UNIQUE INDEX "chat_report_message_id_reporter_key" ON "chat_report"("message_id", "reporter");

-- AddForeignKey
ALTER TABLE "chat_report" ADD CONSTRAINT "chat_report_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "chat_message"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A report is open, dismissed by an operator, or resolved by the message's removal.
ALTER TABLE "chat_report" ADD CONSTRAINT "chat_report_status_check" CHECK ("status" IN ('open', 'dismissed', 'removed'));
