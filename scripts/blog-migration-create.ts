// Writes a new blog migration (and its schema snapshot) from the Payload config for the adapter
// the environment selects: `BLOG_DATABASE_URL` set → cms/migrations/postgres, else cms/migrations/sqlite.
// Compares with the newest committed snapshot, so no database is opened. Used instead of the
// `payload migrate:create` CLI (flaky here, see docs/decisions.md). Usage: tsx scripts/blog-migration-create.ts <name>
import { getPayload } from 'payload'
import config from '../cms/payload.config'

const name = process.argv[2]
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error('usage: blog-migration-create <name of lowercase words joined by _>')
  process.exit(64)
}
const payload = await getPayload({ config, disableDBConnect: true, disableOnInit: true })
await payload.db.createMigration({ migrationName: name, payload, forceAcceptWarning: true })
process.exit(0)
