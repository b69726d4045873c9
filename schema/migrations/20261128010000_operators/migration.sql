-- CreateTable
CREATE TABLE "operator_grant" (
    "wallet_address" TEXT NOT NULL,
    "granted_by" TEXT NOT NULL,
    "granted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_by" TEXT,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "operator_grant_pkey" PRIMARY KEY ("wallet_address")
);

-- CreateTable
CREATE TABLE "operator_audit" (
    "id" BIGSERIAL NOT NULL,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "before" JSONB,
    "after" JSONB,
    "request_id" TEXT,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "operator_audit_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "operator_audit_at_idx" ON "operator_audit"("at");

-- The audit log is append-only: rows are never changed or removed.
CREATE FUNCTION operator_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'operator_audit is append-only';
END;
$$;
CREATE TRIGGER operator_audit_no_change BEFORE UPDATE OR DELETE ON "operator_audit"
  FOR EACH ROW EXECUTE FUNCTION operator_audit_append_only();
