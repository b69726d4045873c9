-- CreateTable
CREATE TABLE "chat_message" (
    "id" BIGSERIAL NOT NULL,
    "room" TEXT NOT NULL,
    "author" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chat_message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "chat_reaction" (
    "message_id" BIGINT NOT NULL,
    "wallet" TEXT NOT NULL,
    "emoji" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chat_reaction_pkey" PRIMARY KEY ("message_id","wallet","emoji")
);

-- CreateIndex
CREATE INDEX "chat_message_room_id_idx" ON "chat_message"("room", "id" DESC);

-- AddForeignKey
ALTER TABLE "chat_reaction" ADD CONSTRAINT "chat_reaction_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "chat_message"("id") ON DELETE CASCADE ON UPDATE CASCADE;
