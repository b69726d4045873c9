// Writes cms/payload-types.ts (the collections' TypeScript types) from the Payload config.
// Used instead of the `payload generate:types` CLI, which exits silently now and then here.
import { generateTypes } from 'payload/node'
import config from '../cms/payload.config'

await generateTypes(await config, { log: true })
process.exit(0)
