import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.run(sql`ALTER TABLE \`media\` ADD \`source_url\` text;`)
  await db.run(sql`CREATE INDEX \`media_source_url_idx\` ON \`media\` (\`source_url\`);`)
  await db.run(sql`ALTER TABLE \`blog_webhook_deliveries\` ADD \`warnings\` text;`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.run(sql`DROP INDEX \`media_source_url_idx\`;`)
  await db.run(sql`ALTER TABLE \`media\` DROP COLUMN \`source_url\`;`)
  await db.run(sql`ALTER TABLE \`blog_webhook_deliveries\` DROP COLUMN \`warnings\`;`)
}
