import { convertHTMLToLexical, editorConfigFactory } from '@payloadcms/richtext-lexical'
import { JSDOM } from 'jsdom'
import { ValidationError, commitTransaction, createLocalReq, initTransaction, killTransaction, type Payload } from 'payload'
import { otherPublishedIntros } from './collections/BlogPosts/intros'
import { lexicalPlainText } from './collections/BlogPosts/hooks/plainText'
import { blocking, checkEditorial, editorDecides, warnings } from './editorial/index'
import { readBlogSettings, type BlogSettings } from './settings'
import { fetchImages, linkUploads, markImages, MAX_IMAGES_PER_ARTICLE, storeImages, type StoredImages } from './media/partner-images'
import type { FetchedImage } from './media/fetch-image'
import { deliveryIdOf, eventOf, fail, parseArticleDelivery } from './webhook/parse'
import { holdForEditor, refusedByGate } from './webhook/gate'
import { partnerPostData } from './webhook/post-data'
import { refreshBlog } from './webhook/refresh'
import type { ArticleDelivery, DeliveryFailure, DeliveryOutcome, DeliverySuccess } from './webhook/types'

export type { ArticleDelivery, DeliveryFailure, DeliveryOutcome, DeliverySuccess, RefreshOutcome } from './webhook/types'

export interface PublishingOptions {
  /** Defaults to the environment (readBlogSettings()). */
  settings?: BlogSettings
  /** Used for the revalidation and CI dispatch calls. */
  fetch?: typeof fetch
  now?: Date
}

type EditorConfig = Awaited<ReturnType<typeof editorConfigFactory.default>>
const editorConfigs = new WeakMap<Payload, Promise<EditorConfig>>()

function editorConfigOf(payload: Payload): Promise<EditorConfig> {
  let cfg = editorConfigs.get(payload)
  if (!cfg) {
    cfg = editorConfigFactory.default({ config: payload.config })
    editorConfigs.set(payload, cfg)
  }
  return cfg
}

/** Deliveries are written one at a time per process (SQLite has one writer); across processes the unique deliveryId decides. */
let tail: Promise<unknown> = Promise.resolve()
function serialized<T>(fn: () => Promise<T>): Promise<T> {
  const run = tail.then(fn, fn)
  tail = run.catch(() => undefined)
  return run
}

/**
 * Copies of one delivery id are handled one after another in this process, so a copy that
 * arrives while the first is fetching its images waits, then finds the committed claim
 * (`duplicate`) without fetching anything.
 */
const inFlight = new Map<string, Promise<unknown>>()
async function onePerDelivery<T>(deliveryId: string, fn: () => Promise<T>): Promise<T> {
  for (let running = inFlight.get(deliveryId); running; running = inFlight.get(deliveryId)) await running.catch(() => undefined)
  const run = fn()
  inFlight.set(deliveryId, run)
  try {
    return await run
  } finally {
    inFlight.delete(deliveryId)
  }
}

/** The article's images after fetching: what can be stored, and a warning per image dropped. */
interface ArticleImages {
  fetched: Map<string, FetchedImage>
  /** Source URL per upload placeholder in the content. */
  inline: Map<string, string>
  hero: string | undefined
  /** The partner's alt text per source URL (the title when it gave none). */
  alts: Map<string, string>
  warnings: string[]
}

async function collectImages(a: ArticleDelivery, marked: ReturnType<typeof markImages>['images'], settings: BlogSettings): Promise<ArticleImages> {
  const warnings: string[] = []
  const inline = new Map<string, string>()
  const alts = new Map<string, string>()
  marked.forEach((img, i) => {
    if (img.src && img.alt && !alts.has(img.src)) alts.set(img.src, img.alt)
    if (i >= MAX_IMAGES_PER_ARTICLE) warnings.push(`image ${img.src || '(no src)'} dropped: more than ${MAX_IMAGES_PER_ARTICLE} images`)
    else if (!img.src) warnings.push('image (no src) dropped: the <img> has no src')
    else inline.set(img.placeholder, img.src)
  })
  const results = await fetchImages([...(a.imageUrl ? [a.imageUrl] : []), ...inline.values()], settings.media)
  const fetched = new Map<string, FetchedImage>()
  for (const [url, r] of results) {
    if (r.ok) fetched.set(url, r.image)
    else warnings.push(`image ${url} dropped: it ${r.reason}`)
  }
  return { fetched, inline, hero: a.imageUrl && fetched.has(a.imageUrl) ? a.imageUrl : undefined, alts, warnings }
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * Handles one content-partner webhook body (already authenticated by the caller).
 * `webhook.test` writes nothing; `article.published` upserts a published post by slug,
 * records the delivery id once, then refreshes the blog. Never throws for bad input:
 * failures come back with a stable `code` and the HTTP `status` to send.
 */
export async function handleContentPartnerDelivery(
  payload: Payload,
  body: unknown,
  options: PublishingOptions = {},
): Promise<DeliveryOutcome> {
  if (!isObj(body)) return fail('INVALID_BODY', 'The body must be a JSON object.')
  const event = eventOf(body)
  if (event === 'webhook.test') {
    return { ok: true, status: 200, code: 'webhook_test', event, ...(deliveryIdOf(body) ? { deliveryId: deliveryIdOf(body) } : {}) }
  }
  if (event !== 'article.published') {
    const mistyped = (['event', 'type'] as const).filter((k) => body[k] !== undefined && body[k] !== null && typeof body[k] !== 'string')
    const details = mistyped.map((field) => ({ field, message: 'must be a string' }))
    return fail('UNKNOWN_EVENT', `Unsupported event "${event ?? ''}"; expected webhook.test or article.published.`, details.length ? details : undefined)
  }
  const article = parseArticleDelivery(body)
  if ('ok' in article) return article
  const settings = options.settings ?? readBlogSettings()
  try {
    // Copies of a delivery wait for the first one here, then answer `duplicate` without converting or fetching anything.
    const result = await onePerDelivery(article.deliveryId, async () => {
      if (await deliveryExists(payload, article.deliveryId)) return duplicateOf(article)
      const marked = markImages(article.html)
      const content = convertHTMLToLexical({ editorConfig: await editorConfigOf(payload), html: marked.html, JSDOM })
      const otherIntros = await otherPublishedIntros(payload, { slug: article.slug })
      const issues = checkEditorial({ ...article, bodyText: lexicalPlainText(content) }, { source: 'contentpartner', now: options.now, otherIntros })
      const errors = blocking(issues)
      if (editorDecides(errors)) return serialized(() => holdForEditor(payload, article, content, errors))
      if (errors.length > 0) return refusedByGate(errors)
      const images = await collectImages(article, marked.images, settings)
      const written = await serialized(() => writeArticle(payload, article, content, images))
      return written.ok ? { ...written, warnings: [...(written.warnings ?? []), ...warnings(issues).map((w) => `${w.field}: ${w.message}`)] } : written
    })
    if (!result.ok || result.code === 'duplicate') return result
    return { ...result, refresh: await refreshBlog(settings, article.slug, options.fetch, payload.logger) }
  } catch (err) {
    payload.logger.error({ err, deliveryId: article.deliveryId }, 'contentpartner delivery failed')
    return fail('INTERNAL', 'The article could not be stored.')
  }
}

const duplicateOf = (a: ArticleDelivery): DeliverySuccess => ({
  ok: true,
  status: 200,
  code: 'duplicate',
  event: 'article.published',
  deliveryId: a.deliveryId,
  slug: a.slug,
})

async function deliveryExists(payload: Payload, deliveryId: string): Promise<boolean> {
  const found = await payload.find({
    collection: 'blog_webhook_deliveries',
    where: { deliveryId: { equals: deliveryId } },
    limit: 1,
    depth: 0,
    pagination: false,
  })
  return found.docs.length > 0
}

async function writeArticle(
  payload: Payload,
  a: ArticleDelivery,
  content: unknown,
  images: ArticleImages,
): Promise<DeliverySuccess | DeliveryFailure> {
  const duplicate = duplicateOf(a)
  if (await deliveryExists(payload, a.deliveryId)) return duplicate

  const existing = await payload.find({ collection: 'blog_posts', where: { slug: { equals: a.slug } }, limit: 1, depth: 0 })
  const current = existing.docs[0]
  if (current && current.source !== 'contentpartner') {
    return fail('SLUG_TAKEN', `The slug "${a.slug}" belongs to an editor-written post.`)
  }

  const data = {
    ...partnerPostData(a, content, current),
    _status: 'published' as const,
    // A fetched image_url becomes the hero (served from /blog/assets/blog/db/); one that failed is not linked.
    imageUrl: null,
  }
  const context = { source: 'contentpartner', disableRevalidate: true }
  // The delivery claim and the post are one transaction: a crash or a refusal leaves neither.
  const req = await createLocalReq({ context }, payload)
  await initTransaction(req)
  let claimId: string | number | undefined
  let stored: StoredImages = { ids: new Map(), warnings: [] }
  try {
    const claim = await payload.create({
      collection: 'blog_webhook_deliveries',
      data: {
        deliveryId: a.deliveryId,
        event: 'article.published',
        slug: a.slug,
        receivedAt: new Date().toISOString(),
        warnings: images.warnings.join('\n') || null,
      },
      req,
    })
    claimId = claim.id
    stored = await storeImages(payload, req, images.fetched, {
      slug: a.slug,
      alt: (url) => images.alts.get(url) || a.title,
    })
    const imageWarnings = [...images.warnings, ...stored.warnings]
    if (stored.warnings.length > 0) {
      await payload.update({ collection: 'blog_webhook_deliveries', id: claim.id, data: { warnings: imageWarnings.join('\n') }, req })
    }
    linkUploads(content, (placeholder) => {
      const src = images.inline.get(placeholder)
      return src === undefined ? undefined : stored.ids.get(src)
    })
    Object.assign(data, { content, heroImage: images.hero ? stored.ids.get(images.hero) ?? null : null })
    const post = current
      ? await payload.update({ collection: 'blog_posts', id: current.id, data: data as never, draft: false, context, req })
      : await payload.create({ collection: 'blog_posts', data: data as never, draft: false, context, req })
    await commitTransaction(req)
    return {
      ok: true,
      status: current ? 200 : 201,
      code: current ? 'updated' : 'created',
      event: 'article.published',
      deliveryId: a.deliveryId,
      slug: a.slug,
      postId: String(post.id),
      ...(imageWarnings.length > 0 ? { warnings: imageWarnings } : {}),
    }
  } catch (err) {
    const transactional = Boolean(req.transactionID)
    await killTransaction(req)
    // An adapter without transactions cannot roll the claim back: undo it so a corrected retry is accepted.
    if (!transactional && claimId !== undefined) await payload.delete({ collection: 'blog_webhook_deliveries', id: claimId }).catch(() => undefined)
    // A concurrent copy of this delivery committed first (its claim is what made ours fail).
    if (await deliveryExists(payload, a.deliveryId)) return duplicate
    if (err instanceof ValidationError) {
      return fail('EDITORIAL_REJECTED', 'The article was refused by the CMS checks.', err.data.errors.map((e) => ({ field: e.path, message: e.message })))
    }
    throw err
  }
}
