// Writes blog/app/(payload)/admin/importMap.js from the Payload config (the admin's client components).
import { generateImportMap } from 'payload'
import config from '../cms/payload.config'

await generateImportMap(await config, { log: true, force: true })
