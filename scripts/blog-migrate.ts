// Applies the blog's Payload migrations (cms/migrations/sqlite or cms/migrations/postgres,
// chosen by BLOG_DATABASE_URL). Used instead of the `payload migrate` CLI, whose tsx loader
// exits silently now and then on Node 20. Exits explicitly: outside production Payload can
// leave handles open after destroy().
import { getPayload } from 'payload'
import { closeBlogPayload, migrateBlog } from '../cms/lifecycle'
import config from '../cms/payload.config'

const payload = await getPayload({ config })
let code = 0
try {
  await migrateBlog(payload)
} catch (err) {
  console.error(err)
  code = 1
} finally {
  await closeBlogPayload(payload)
}
process.exit(code)
