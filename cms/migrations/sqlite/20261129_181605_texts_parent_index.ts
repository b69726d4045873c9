import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

// A post's tags are read by parent_id (a list page's posts, one post). Payload's own index on the
// texts table leads with "order", which such a read cannot use: every read scanned every post's tags.
// Written by hand: the schema snapshot is the previous one's (Payload's config is unchanged).
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.run(sql`CREATE INDEX IF NOT EXISTS \`blog_posts_texts_parent_idx\` ON \`blog_posts_texts\` (\`parent_id\`);`)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.run(sql`DROP INDEX IF EXISTS \`blog_posts_texts_parent_idx\`;`)
}
