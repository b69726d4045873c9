// Prisma CLI configuration. Run the CLI through `npm run prisma -- <args>` (scripts/prisma.ts),
// which keeps it offline. The datasource URL is only needed by commands that touch a database.
import { defineConfig } from 'prisma/config';

const url = process.env.DATABASE_URL;
const shadowDatabaseUrl = process.env.SHADOW_DATABASE_URL;

export default defineConfig({
  schema: 'schema/schema.prisma',
  migrations: { path: 'schema/migrations' },
  ...(url ? { datasource: { url, ...(shadowDatabaseUrl ? { shadowDatabaseUrl } : {}) } } : {}),
});
