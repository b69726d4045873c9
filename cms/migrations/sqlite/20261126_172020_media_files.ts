import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'
import { legacyMediaFiles, type LegacyMediaRow } from '../../media/legacy-files'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.run(sql`CREATE TABLE \`media_files\` (
  	\`filename\` text PRIMARY KEY NOT NULL,
  	\`mime_type\` text NOT NULL,
  	\`etag\` text NOT NULL,
  	\`data\` blob NOT NULL
  );
  `)
  // Existing files move in (copied: the files stay until an operator removes DATA_DIR/media).
  const rows = await db.all<LegacyMediaRow>(sql`SELECT filename, mime_type FROM media`)
  for await (const f of legacyMediaFiles(rows, (m) => payload.logger.warn(m))) {
    await db.run(sql`INSERT INTO media_files (filename, mime_type, etag, data) VALUES (${f.filename}, ${f.mimeType}, ${f.etag}, ${f.data}) ON CONFLICT (filename) DO NOTHING`)
  }
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.run(sql`DROP TABLE \`media_files\`;`)
}
