import { slugify } from '../collections/BlogPosts/slugify'
import { isObj, strictFields } from './strict'
import { WEBHOOK_FAILURES, type ArticleDelivery, type DeliveryFailure, type WebhookFailureCode } from './types'

export const MAX_HTML_BYTES = 900_000

type Obj = Record<string, unknown>
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
  const top = strictFields(text)
  const rawDeliveryId = top.string(body.delivery_id, 'delivery_id') ?? top.string(body.deliveryId, 'deliveryId')
  const deliveryId = rawDeliveryId && /^[A-Za-z0-9._:-]{1,128}$/.test(rawDeliveryId) ? rawDeliveryId : undefined
  if (!deliveryId) return fail('MISSING_DELIVERY_ID', 'delivery_id is required (1-128 characters of A-Z a-z 0-9 . _ : -).', top.issues.length ? top.issues : undefined)
  const a = body.article
  if (!isObj(a)) return fail('INVALID_ARTICLE', 'article must be an object.', [{ field: 'article', message: a === undefined || a === null ? 'required' : 'must be an object' }])
  const f = strictFields(text)
  const details = f.issues
  const title = f.string(a.title, 'article.title')
  const html = (f.rawString(a.html, 'article.html') ?? f.rawString(a.content_html, 'article.content_html'))?.replace(NOT_TEXT, '')
  const excerpt = f.string(a.excerpt, 'article.excerpt') ?? f.string(a.description, 'article.description')
  const author = f.stringOrNamed(a.author, 'article.author', 'name')
  const slugGiven = f.string(a.slug, 'article.slug')
  const seoDescription = f.string(a.seo_description, 'article.seo_description')
  const tags = f.array(a.tags, 'article.tags', f.string) ?? []
  const publishedAt = f.string(a.published_at, 'article.published_at')
  const imageUrl = f.string(a.image_url, 'article.image_url')
  const searchIntent = f.string(a.search_intent, 'article.search_intent')
  const primaryAudience = f.string(a.primary_audience, 'article.primary_audience')
  const platformAngle = f.string(a.platform_angle, 'article.platform_angle')
  const links = f.array(a.internal_links, 'article.internal_links', (el, field) => {
    const l = f.object(el, field)
    return l && { url: f.string(l.url, `${field}.url`), label: f.string(l.label, `${field}.label`) }
  }) ?? []
  const claims = f.array(a.claim_ledger, 'article.claim_ledger', (el, field) => {
    const c = f.object(el, field)
    return c && { claim: f.string(c.claim, `${field}.claim`), source: f.string(c.source, `${field}.source`), kind: f.string(c.kind, `${field}.kind`), checkedAt: f.string(c.checked_at, `${field}.checked_at`) }
  }) ?? []
  const typed = new Set(details.map((d) => d.field))
  const missing = (field: string, message = 'required') => {
    if (!typed.has(field)) details.push({ field, message })
  }
  if (!title) missing('article.title')
  if (!html?.trim()) {
    if (!typed.has('article.content_html')) missing('article.html')
  } else if (Buffer.byteLength(html) > MAX_HTML_BYTES) return fail('PAYLOAD_TOO_LARGE', `article.html exceeds ${MAX_HTML_BYTES} bytes.`)
  if (!excerpt && !typed.has('article.description')) missing('article.excerpt', 'excerpt or description is required')
  if (!author && !typed.has('article.author.name')) missing('article.author')
  const rawSlug = slugGiven?.toLowerCase() ?? (title ? slugify(title) : '')
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(rawSlug) || rawSlug.length > 60) missing('article.slug', 'lowercase words joined by hyphens, at most 60 characters')
  if (publishedAt && Number.isNaN(Date.parse(publishedAt))) details.push({ field: 'article.published_at', message: 'must be an ISO 8601 date' })
  if (imageUrl && !/^https?:\/\/\S+$/.test(imageUrl)) details.push({ field: 'article.image_url', message: 'must be an http(s) URL' })
  if (details.length > 0) return fail('INVALID_ARTICLE', 'The article is invalid.', details)
  return {
    deliveryId,
    slug: rawSlug,
    title: title as string,
    excerpt: excerpt as string,
    seoDescription: seoFrom(seoDescription ?? (excerpt as string)),
    html: html as string,
    tags: tags.slice(0, 20),
    author: author as string,
    publishedAt: publishedAt ? new Date(publishedAt).toISOString() : undefined,
    imageUrl,
    searchIntent,
    primaryAudience,
    platformAngle,
    internalLinks: links.flatMap((l) => (l.url ? [{ url: l.url, label: l.label ?? l.url }] : [])),
    claimLedger: claims.flatMap((c) => (c.claim ? [{ claim: c.claim, source: c.source ?? '', kind: c.kind ?? '', checkedAt: c.checkedAt ?? '' }] : [])),
  }
}

export { fail }
