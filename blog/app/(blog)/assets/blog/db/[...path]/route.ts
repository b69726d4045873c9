import { readMediaFile } from '../../../../../../../cms/media/media-files'
import { payload } from '../../../../../../lib/payload'

type Ctx = { params: Promise<{ path: string[] }> }

/** The bytes under a filename never change (a new upload gets a new name), so caches may keep them for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable'

/** Serves an uploaded image by filename from the blog database, with its image content type. */
export async function GET(req: Request, { params }: Ctx): Promise<Response> {
  const filename = (await params).path.map((s) => decodeURIComponent(s)).join('/')
  if (!filename) return new Response('Not found', { status: 404 })
  const file = await readMediaFile(await payload(), filename)
  if (!file?.mimeType.startsWith('image/')) return new Response('Not found', { status: 404 })
  const etag = `"${file.etag}"`
  const headers = { etag, 'cache-control': IMMUTABLE, 'x-content-type-options': 'nosniff' }
  const asked = req.headers.get('if-none-match')
  if (asked && asked.split(',').some((t) => t.trim() === etag || t.trim() === '*')) return new Response(null, { status: 304, headers })
  return new Response(new Uint8Array(file.data), { headers: { ...headers, 'content-type': file.mimeType, 'content-length': String(file.data.length) } })
}
