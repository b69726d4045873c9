import { JSDOM } from 'jsdom'
import { ValidationError, type Payload, type PayloadRequest } from 'payload'
import { fetchImage, type FetchedImage, type ImageFetchLimits, type ImageFetchResult } from './fetch-image'

/** More inline images than this in one article are dropped with a warning. */
export const MAX_IMAGES_PER_ARTICLE = 20
const PLACEHOLDER = 'partner-image-'

interface MarkedImage {
  placeholder: string
  src: string
  alt: string
}

/**
 * Marks every `<img>` of partner HTML as an upload node of the media collection with a
 * placeholder id (so the Lexical conversion makes upload nodes, not "pending" ones that
 * fail validation). `linkUploads` later swaps each placeholder for the stored media id.
 */
export function markImages(html: string): { html: string; images: MarkedImage[] } {
  if (!/<img\b/i.test(html)) return { html, images: [] }
  const dom = new JSDOM(`<body>${html}</body>`)
  const images: MarkedImage[] = []
  for (const img of dom.window.document.querySelectorAll('img')) {
    const placeholder = `${PLACEHOLDER}${images.length}`
    images.push({ placeholder, src: (img.getAttribute('src') ?? '').trim(), alt: (img.getAttribute('alt') ?? '').trim() })
    for (const attr of [...img.attributes]) img.removeAttribute(attr.name)
    img.setAttribute('data-lexical-upload-id', placeholder)
    img.setAttribute('data-lexical-upload-relation-to', 'media')
  }
  return { html: dom.window.document.body.innerHTML, images }
}

/** Fetches each distinct URL once, a few at a time. */
export async function fetchImages(urls: readonly string[], limits: ImageFetchLimits): Promise<Map<string, ImageFetchResult>> {
  const distinct = [...new Set(urls)]
  const out = new Map<string, ImageFetchResult>()
  const next = async (): Promise<void> => {
    for (let url = distinct.shift(); url !== undefined; url = distinct.shift()) out.set(url, await fetchImage(url, limits))
  }
  await Promise.all([next(), next(), next(), next()])
  return out
}

export interface StoredImages {
  /** Media id per source URL. */
  ids: Map<string, number | string>
  /** One line per image the media collection refused. */
  warnings: string[]
}

/**
 * Creates one media row (its bytes in the database) per fetched image inside the delivery's transaction. An image
 * the collection refuses (Payload checks the bytes' type again) is left out with a warning.
 */
export async function storeImages(
  payload: Payload,
  req: PayloadRequest,
  images: ReadonlyMap<string, FetchedImage>,
  naming: { slug: string; alt: (url: string) => string },
): Promise<StoredImages> {
  const stored: StoredImages = { ids: new Map(), warnings: [] }
  let n = 0
  for (const [url, image] of images) {
    try {
      const doc = await payload.create({
        collection: 'media',
        data: { alt: naming.alt(url).slice(0, 200), sourceUrl: url },
        file: { data: image.data, mimetype: image.mimeType, name: `${naming.slug}-${++n}.${image.ext}`, size: image.data.length },
        req,
      })
      stored.ids.set(url, doc.id)
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err
      stored.warnings.push(`image ${url} dropped: the media collection refused it (${err.message})`)
    }
  }
  return stored
}

type LexicalNode = { type?: string; value?: unknown; relationTo?: string; children?: LexicalNode[] }

/** Points each placeholder upload node at its media id; nodes whose image was not stored are removed. */
export function linkUploads(content: unknown, idOf: (placeholder: string) => number | string | undefined): void {
  const walk = (node: LexicalNode): void => {
    if (!Array.isArray(node.children)) return
    node.children = node.children.filter((child) => {
      if (child.type === 'upload' && typeof child.value === 'string' && child.value.startsWith(PLACEHOLDER)) {
        const id = idOf(child.value)
        if (id === undefined) return false
        child.value = id
      }
      walk(child)
      return true
    })
  }
  if (content && typeof content === 'object' && 'root' in content) walk((content as { root: LexicalNode }).root)
}
