import { convertHTMLToLexical, editorConfigFactory } from '@payloadcms/richtext-lexical'
import { JSDOM } from 'jsdom'
import { ValidationError, commitTransaction, createLocalReq, initTransaction, killTransaction, type Payload } from 'payload'
import { lexicalPlainText } from './collections/BlogPosts/hooks/plainText'
import { blocking, checkEditorial, warnings } from './editorial/index'
import { readBlogSettings, type BlogSettings } from './settings'
import { deliveryIdOf, eventOf, fail, parseArticleDelivery } from './webhook/parse'
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
  if (!isObj(body)) return fail('invalid_body', 400, 'The body must be a JSON object.')
  const event = eventOf(body)
  if (event === 'webhook.test') {
    return { ok: true, status: 200, code: 'webhook_test', event, ...(deliveryIdOf(body) ? { deliveryId: deliveryIdOf(body) } : {}) }
  }
  if (event !== 'article.published') {
    return fail('unknown_event', 400, `Unsupported event "${event ?? ''}"; expected webhook.test or article.published.`)
  }
  const article = parseArticleDelivery(body)
  if ('ok' in article) return article
  const content = convertHTMLToLexical({ editorConfig: await editorConfigOf(payload), html: article.html, JSDOM })
  const issues = checkEditorial(
    { ...article, bodyText: lexicalPlainText(content) },
    { source: 'contentpartner', now: options.now },
  )
  const errors = blocking(issues)
  if (errors.length > 0) {
    return fail('editorial_rejected', 422, 'The article fails the editorial checks.', errors.map((e) => ({ field: e.field, message: e.message })))
  }
  const settings = options.settings ?? readBlogSettings()
  try {
    const result = await serialized(() => writeArticle(payload, article, content))
    if (!result.ok || result.code === 'duplicate') return result
    const refresh = await refreshBlog(settings, article.slug, options.fetch)
    return { ...result, warnings: warnings(issues).map((w) => `${w.field}: ${w.message}`), refresh }
  } catch (err) {
    payload.logger.error({ err, deliveryId: article.deliveryId }, 'contentpartner delivery failed')
    return fail('internal_error', 500, 'The article could not be stored.')
  }
}

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

async function writeArticle(payload: Payload, a: ArticleDelivery, content: unknown): Promise<DeliverySuccess | DeliveryFailure> {
  const duplicate: DeliverySuccess = { ok: true, status: 200, code: 'duplicate', event: 'article.published', deliveryId: a.deliveryId, slug: a.slug }
  if (await deliveryExists(payload, a.deliveryId)) return duplicate

  const existing = await payload.find({ collection: 'blog_posts', where: { slug: { equals: a.slug } }, limit: 1, depth: 0 })
  const current = existing.docs[0] as { id: string | number; source?: string; publishedAt?: string } | undefined
  if (current && current.source !== 'contentpartner') {
    return fail('slug_taken', 409, `The slug "${a.slug}" belongs to an editor-written post.`)
  }

  const data = {
    _status: 'published' as const,
    title: a.title,
    slug: a.slug,
    excerpt: a.excerpt,
    seoDescription: a.seoDescription,
    content,
    tags: a.tags,
    author: a.author,
    imageUrl: a.imageUrl ?? null,
    publishedAt: a.publishedAt ?? current?.publishedAt ?? new Date().toISOString(),
    searchIntent: a.searchIntent ?? null,
    primaryAudience: a.primaryAudience ?? null,
    platformAngle: a.platformAngle ?? null,
    internalLinks: a.internalLinks,
    claimLedger: a.claimLedger,
    source: 'contentpartner' as const,
  }
  const context = { source: 'contentpartner', disableRevalidate: true }
  // The delivery claim and the post are one transaction: a crash or a refusal leaves neither.
  const req = await createLocalReq({ context }, payload)
  await initTransaction(req)
  let claimId: string | number | undefined
  try {
    const claim = await payload.create({
      collection: 'blog_webhook_deliveries',
      data: { deliveryId: a.deliveryId, event: 'article.published', slug: a.slug, receivedAt: new Date().toISOString() },
      req,
    })
    claimId = claim.id
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
    }
  } catch (err) {
    const transactional = Boolean(req.transactionID)
    await killTransaction(req)
    // An adapter without transactions cannot roll the claim back: undo it so a corrected retry is accepted.
    if (!transactional && claimId !== undefined) await payload.delete({ collection: 'blog_webhook_deliveries', id: claimId }).catch(() => undefined)
    // A concurrent copy of this delivery committed first (its claim is what made ours fail).
    if (await deliveryExists(payload, a.deliveryId)) return duplicate
    if (err instanceof ValidationError) {
      return fail('editorial_rejected', 422, 'The article was refused by the CMS checks.', err.data.errors.map((e) => ({ field: e.path, message: e.message })))
    }
    throw err
  }
}
