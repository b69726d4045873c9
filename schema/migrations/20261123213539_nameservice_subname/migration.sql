-- CreateTable
CREATE TABLE "nameservice_subname" (
    "wallet_address" TEXT NOT NULL,
    "parent_domain" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "chain_write_key" TEXT NOT NULL,
    "claimed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "nameservice_subname_pkey" PRIMARY KEY ("wallet_address")
);

-- CreateIndex
CREATE UNIQUE INDEX "nameservice_subname_chain_write_key_key" ON "nameservice_subname"("chain_write_key");

-- CreateIndex
CREATE UNIQUE INDEX "nameservice_subname_parent_domain_label_key" ON "nameservice_subname"("parent_domain", "label");
