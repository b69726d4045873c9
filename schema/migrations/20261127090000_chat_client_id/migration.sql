-- AlterTable
ALTER TABLE "chat_message" ADD COLUMN     "client_id" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "chat_message_author_client_id_key" ON "chat_message"("author", "client_id");
