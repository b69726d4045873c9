import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { payload } from '../../../../../../lib/payload'
import { site } from '../../../../../../lib/site'

type Ctx = { params: Promise<{ path: string[] }> }

/** Serves an uploaded image by filename from `${DATA_DIR}/media`, with its image content type. */
export async function GET(_req: Request, { params }: Ctx): Promise<Response> {
  const segments = (await params).path.map((s) => decodeURIComponent(s))
  const filename = segments.join('/')
  if (!filename || segments.some((s) => s === '..' || s === '.' || s.includes('\\'))) {
    return new Response('Not found', { status: 404 })
  }
  const p = await payload()
  const res = await p.find({ collection: 'media', where: { filename: { equals: filename } }, limit: 1, depth: 0 })
  const doc = res.docs[0]
  if (!doc?.filename || !doc.mimeType?.startsWith('image/')) return new Response('Not found', { status: 404 })
  const dir = path.join(site().dataDir, 'media')
  const file = path.resolve(dir, doc.filename)
  if (!file.startsWith(dir + path.sep)) return new Response('Not found', { status: 404 })
  try {
    const body = await readFile(file)
    return new Response(new Uint8Array(body), {
      headers: { 'content-type': doc.mimeType, 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' },
    })
  } catch {
    return new Response('Not found', { status: 404 })
  }
}
