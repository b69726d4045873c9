// Applies the blog's Payload migrations (cms/migrations/sqlite or cms/migrations/postgres,
// chosen by BLOG_DATABASE_URL). Used instead of the `payload migrate` CLI, whose tsx loader
// exits silently now and then on Node 20.
import { getPayload } from 'payload'
import config from '../cms/payload.config'

const payload = await getPayload({ config })
try {
  await payload.db.migrate()
} finally {
  await payload.destroy()
}
