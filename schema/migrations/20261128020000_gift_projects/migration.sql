-- CreateTable
CREATE TABLE "gift_project" (
    "name" TEXT NOT NULL,
    "title" TEXT,
    "created_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "gift_project_pkey" PRIMARY KEY ("name")
);

-- Projects written by SQL before operators had an API become rows.
INSERT INTO "gift_project" ("name")
SELECT project FROM "gift_delivery_schedule" UNION SELECT project FROM "get_stashed_gift"
ON CONFLICT DO NOTHING;
