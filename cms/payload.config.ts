import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { postgresAdapter } from '@payloadcms/db-postgres'
import { sqliteAdapter } from '@payloadcms/db-sqlite'
import { lexicalEditor } from '@payloadcms/richtext-lexical'
import { buildConfig, type Config } from 'payload'
import sharp from 'sharp'
import { BlogPosts } from './collections/BlogPosts/index'
import { Media } from './collections/Media'
import { Users } from './collections/Users'
import { WebhookDeliveries } from './collections/WebhookDeliveries'
import { postgresMediaFiles, sqliteMediaFiles } from './media/media-files-table'
import { smtpEmailAdapter, unsentEmailAdapter } from './email/smtp-adapter'
import { readBlogSettings, resolvePayloadSecret } from './settings'

const dirname = path.dirname(fileURLToPath(import.meta.url))
const settings = readBlogSettings()
/** BLOG_DB_PUSH=true lets Payload push schema changes itself (local schema work only). */
const push = settings.dbPush

function database(): Config['db'] {
  if (settings.databaseUrl) {
    return postgresAdapter({
      pool: { connectionString: settings.databaseUrl },
      migrationDir: path.join(dirname, 'migrations/postgres'),
      afterSchemaInit: [postgresMediaFiles],
      push,
    })
  }
  mkdirSync(settings.dataDir, { recursive: true })
  return sqliteAdapter({
    client: { url: `file:${path.join(settings.dataDir, 'blog.db')}` },
    // The blog process, its migration step and scripts may share the file: a write waits up to 5 s
    // for another's lock instead of failing at once with SQLITE_BUSY (the adapter's default is 0).
    busyTimeout: 5_000,
    // Real transactions, so a partner delivery's claim and post commit together (off by default in db-sqlite).
    transactionOptions: {},
    migrationDir: path.join(dirname, 'migrations/sqlite'),
    afterSchemaInit: [sqliteMediaFiles],
    push,
  })
}

export default buildConfig({
  secret: resolvePayloadSecret(),
  serverURL: '',
  admin: {
    user: Users.slug,
    meta: { titleSuffix: ' | Blog CMS' },
    // Payload's default avatar is a gravatar.com image: the admin calls no outside host.
    avatar: 'default',
    importMap: {
      baseDir: dirname,
      importMapFile: path.resolve(dirname, '../blog/app/(payload)/admin/importMap.js'),
    },
  },
  collections: [BlogPosts, Media, Users, WebhookDeliveries],
  editor: lexicalEditor(),
  email: settings.smtp ? smtpEmailAdapter(settings.smtp) : unsentEmailAdapter,
  db: database(),
  sharp,
  graphQL: { disable: true },
  telemetry: false,
  // Off a terminal (the platform relays the blog's output into its own log), pino's JSON lines, not colours.
  ...(process.stdout.isTTY ? {} : { logger: { options: {}, destination: process.stdout } }),
  typescript: { outputFile: path.resolve(dirname, 'payload-types.ts'), autoGenerate: false },
})
