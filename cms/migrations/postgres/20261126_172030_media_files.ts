import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-postgres'
import { legacyMediaFiles, type LegacyMediaRow } from '../../media/legacy-files'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
   CREATE TABLE "media_files" (
  	"filename" varchar PRIMARY KEY NOT NULL,
  	"mime_type" varchar NOT NULL,
  	"etag" varchar NOT NULL,
  	"data" "bytea" NOT NULL
  );`)
  // Existing files move in (copied: the files stay until an operator removes DATA_DIR/media).
  const { rows } = await db.execute(sql`SELECT filename, mime_type FROM media`)
  for await (const f of legacyMediaFiles(rows as unknown as LegacyMediaRow[], (m) => payload.logger.warn(m))) {
    await db.execute(sql`INSERT INTO media_files (filename, mime_type, etag, data) VALUES (${f.filename}, ${f.mimeType}, ${f.etag}, ${f.data}) ON CONFLICT (filename) DO NOTHING`)
  }
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
   DROP TABLE "media_files" CASCADE;`)
}
