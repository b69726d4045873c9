import { slugify } from '../collections/BlogPosts/slugify'
import { WEBHOOK_FAILURES, type ArticleDelivery, type DeliveryFailure, type WebhookFailureCode } from './types'

export const MAX_HTML_BYTES = 900_000

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)
// Control characters (other than tab and line breaks), U+FFFE/U+FFFF and lone surrogates cannot be stored in XML
// (feeds, sitemaps) and are never meant as text: they are removed from every text field at the boundary.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NOT_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
const text = (v: unknown): string | undefined => {
  if (typeof v !== 'string') return undefined
  const t = v.replace(NOT_TEXT, '').trim()
  return t || undefined
}

export function eventOf(body: unknown): string | undefined {
  return isObj(body) ? text(body.event) ?? text(body.type) : undefined
}

export function deliveryIdOf(body: Obj): string | undefined {
  const id = text(body.delivery_id) ?? text(body.deliveryId)
  return id && /^[A-Za-z0-9._:-]{1,128}$/.test(id) ? id : undefined
}

/** Shortens to under 160 characters at a word boundary. */
export function seoFrom(s: string): string {
  const flat = s.replace(/\s+/g, ' ').trim()
  if (flat.length < 160) return flat
  const cut = flat.slice(0, 156)
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 100)).replace(/[\s,.;:]+$/, '')}…`
}

const fail = (code: WebhookFailureCode, message: string, details?: DeliveryFailure['details']): DeliveryFailure => ({
  ok: false,
  status: WEBHOOK_FAILURES[code],
  code,
  message,
  ...(details ? { details } : {}),
})

/** Validates an `article.published` body. Returns the article or a 4xx failure; writes nothing. */
export function parseArticleDelivery(body: Obj): ArticleDelivery | DeliveryFailure {
  const deliveryId = deliveryIdOf(body)
  if (!deliveryId) return fail('MISSING_DELIVERY_ID', 'delivery_id is required (1-128 characters of A-Z a-z 0-9 . _ : -).')
  const a = body.article
  if (!isObj(a)) return fail('INVALID_ARTICLE', 'article must be an object.', [{ field: 'article', message: 'required' }])
  const details: { field: string; message: string }[] = []
  const title = text(a.title)
  const rawHtml = typeof a.html === 'string' ? a.html : typeof a.content_html === 'string' ? a.content_html : undefined
  const html = rawHtml?.replace(NOT_TEXT, '')
  const excerpt = text(a.excerpt) ?? text(a.description)
  const author = text(a.author) ?? (isObj(a.author) ? text(a.author.name) : undefined)
  if (!title) details.push({ field: 'article.title', message: 'required' })
  if (!html?.trim()) details.push({ field: 'article.html', message: 'required' })
  else if (Buffer.byteLength(html) > MAX_HTML_BYTES) return fail('PAYLOAD_TOO_LARGE', `article.html exceeds ${MAX_HTML_BYTES} bytes.`)
  if (!excerpt) details.push({ field: 'article.excerpt', message: 'excerpt or description is required' })
  if (!author) details.push({ field: 'article.author', message: 'required' })
  const rawSlug = text(a.slug)?.toLowerCase() ?? (title ? slugify(title) : '')
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(rawSlug) || rawSlug.length > 60)
    details.push({ field: 'article.slug', message: 'lowercase words joined by hyphens, at most 60 characters' })
  const tags = a.tags === undefined ? [] : Array.isArray(a.tags) ? a.tags.map(text).filter((t): t is string => Boolean(t)) : null
  if (tags === null) details.push({ field: 'article.tags', message: 'must be an array of strings' })
  const publishedAt = text(a.published_at)
  if (publishedAt && Number.isNaN(Date.parse(publishedAt))) details.push({ field: 'article.published_at', message: 'must be an ISO 8601 date' })
  const imageUrl = text(a.image_url)
  if (imageUrl && !/^https?:\/\/\S+$/.test(imageUrl)) details.push({ field: 'article.image_url', message: 'must be an http(s) URL' })
  const links = Array.isArray(a.internal_links) ? a.internal_links.filter(isObj) : []
  const claims = Array.isArray(a.claim_ledger) ? a.claim_ledger.filter(isObj) : []
  if (details.length > 0) return fail('INVALID_ARTICLE', 'The article is invalid.', details)
  return {
    deliveryId,
    slug: rawSlug,
    title: title as string,
    excerpt: excerpt as string,
    seoDescription: seoFrom(text(a.seo_description) ?? (excerpt as string)),
    html: html as string,
    tags: (tags ?? []).slice(0, 20),
    author: author as string,
    publishedAt: publishedAt ? new Date(publishedAt).toISOString() : undefined,
    imageUrl,
    searchIntent: text(a.search_intent),
    primaryAudience: text(a.primary_audience),
    platformAngle: text(a.platform_angle),
    internalLinks: links
      .map((l) => ({ url: text(l.url) ?? '', label: text(l.label) ?? text(l.url) ?? '' }))
      .filter((l) => l.url),
    claimLedger: claims
      .map((c) => ({ claim: text(c.claim) ?? '', source: text(c.source) ?? '', kind: text(c.kind) ?? '', checkedAt: text(c.checked_at) ?? '' }))
      .filter((c) => c.claim),
  }
}

export { fail }
