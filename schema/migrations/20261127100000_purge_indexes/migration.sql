-- CreateIndex
CREATE INDEX "chat_message_created_at_idx" ON "chat_message"("created_at");

-- CreateIndex
CREATE INDEX "price_snapshot_fetched_at_idx" ON "price_snapshot"("fetched_at");

-- CreateIndex
CREATE INDEX "refresh_token_expires_at_idx" ON "refresh_token"("expires_at");
