/** Publishing service: idempotency under 50 parallel deliveries, validation, refresh adapters. */
import type { Payload } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { articleDelivery } from '../fixtures/blog-articles'
import { startCiDispatchServer, type CiDispatchServer } from '../fixtures/ci-dispatch-server'
import { openPayload } from './blog-helpers'
import { closeBlogPayload } from '../../cms/lifecycle'

let payload: Payload
let publishing: typeof import('../../cms/publishing')
let ci: CiDispatchServer

beforeAll(async () => {
  payload = await openPayload('mainnet')
  publishing = await import('../../cms/publishing')
  ci = await startCiDispatchServer({ token: 'ci-token' })
})

afterAll(async () => {
  await ci?.close()
  if (payload) await closeBlogPayload(payload)
})

async function counts(slug: string, deliveryId: string): Promise<{ posts: number; deliveries: number }> {
  const posts = await payload.count({ collection: 'blog_posts', where: { slug: { equals: slug } } })
  const deliveries = await payload.count({ collection: 'blog_webhook_deliveries', where: { deliveryId: { equals: deliveryId } } })
  return { posts: posts.totalDocs, deliveries: deliveries.totalDocs }
}

describe('content partner deliveries', () => {
  it('webhook.test answers 2xx and writes nothing', async () => {
    const before = await payload.count({ collection: 'blog_posts' })
    const r = await publishing.handleContentPartnerDelivery(payload, { event: 'webhook.test', delivery_id: 'ping-1' })
    expect(r).toMatchObject({ ok: true, status: 200, code: 'webhook_test' })
    expect((await payload.count({ collection: 'blog_posts' })).totalDocs).toBe(before.totalDocs)
    expect((await counts('none', 'ping-1')).deliveries).toBe(0)
  })

  it('50 parallel identical deliveries give one post and one delivery row', async () => {
    const body = articleDelivery('parallel-1', 'parallel-delivery-guide', 31)
    const results = await Promise.all(Array.from({ length: 50 }, () => publishing.handleContentPartnerDelivery(payload, structuredClone(body))))
    const codes = results.map((r) => r.code)
    expect(codes.filter((c) => c === 'created')).toHaveLength(1)
    expect(codes.filter((c) => c === 'duplicate')).toHaveLength(49)
    expect(await counts('parallel-delivery-guide', 'parallel-1')).toEqual({ posts: 1, deliveries: 1 })
    const row = await payload.find({ collection: 'blog_posts', where: { slug: { equals: 'parallel-delivery-guide' } } })
    expect(row.docs[0]).toMatchObject({ status: 'published', _status: 'published', source: 'contentpartner', author: 'Partner Desk' })
  })

  it('a new delivery for the same slug updates the post in place', async () => {
    const body = articleDelivery('parallel-2', 'parallel-delivery-guide', 32)
    const r = await publishing.handleContentPartnerDelivery(payload, body)
    expect(r).toMatchObject({ ok: true, status: 200, code: 'updated' })
    expect(await counts('parallel-delivery-guide', 'parallel-2')).toEqual({ posts: 1, deliveries: 1 })
  })

  it.each([
    ['not an object', 'nope', 'INVALID_BODY', 400],
    ['unknown event', { event: 'article.deleted', delivery_id: 'bad-0' }, 'UNKNOWN_EVENT', 400],
    ['no delivery id', { event: 'article.published', article: {} }, 'MISSING_DELIVERY_ID', 400],
    ['no article', { event: 'article.published', delivery_id: 'bad-1' }, 'INVALID_ARTICLE', 400],
    ['article without html', { event: 'article.published', delivery_id: 'bad-2', article: { title: 'A title of some length', slug: 'bad-two', excerpt: 'x', author: 'y' } }, 'INVALID_ARTICLE', 400],
    ['bad slug', { ...articleDelivery('bad-3', 'Bad Slug!', 33) }, 'INVALID_ARTICLE', 400],
    ['too little content', { event: 'article.published', delivery_id: 'bad-4', article: { title: 'A short partner note', slug: 'short-note', excerpt: 'Short.', author: 'Desk', html: '<p>Too short to publish.</p>' } }, 'EDITORIAL_REJECTED', 422],
  ] as const)('rejects %s with a stable code and writes nothing', async (_name, body, code, status) => {
    const before = { posts: (await payload.count({ collection: 'blog_posts' })).totalDocs, deliveries: (await payload.count({ collection: 'blog_webhook_deliveries' })).totalDocs }
    const r = await publishing.handleContentPartnerDelivery(payload, body)
    expect(r).toMatchObject({ ok: false, code, status })
    expect((await payload.count({ collection: 'blog_posts' })).totalDocs).toBe(before.posts)
    expect((await payload.count({ collection: 'blog_webhook_deliveries' })).totalDocs).toBe(before.deliveries)
  })

  it('refuses to overwrite an editor-written post with the same slug', async () => {
    await payload.create({ collection: 'blog_posts', data: { title: 'Editor draft with a taken slug', slug: 'taken-by-editor' }, draft: true })
    const r = await publishing.handleContentPartnerDelivery(payload, articleDelivery('taken-1', 'taken-by-editor', 34))
    expect(r).toMatchObject({ ok: false, status: 409, code: 'SLUG_TAKEN' })
    expect((await counts('taken-by-editor', 'taken-1')).deliveries).toBe(0)
  })

  it('dispatches the CI rebuild when BLOG_PUBLISH_CI_TOKEN is set', async () => {
    const { readBlogSettings } = await import('../../cms/settings')
    const base = readBlogSettings()
    const settings = { ...base, revalidationSecret: undefined, ci: { ...base.ci, token: 'ci-token', apiUrl: ci.url, repo: 'acme/web', workflow: 'blog.yml', ref: 'main' } }
    const r = await publishing.handleContentPartnerDelivery(payload, articleDelivery('ci-1', 'ci-dispatch-guide', 35), { settings })
    expect(r).toMatchObject({ ok: true, code: 'created', refresh: [{ kind: 'ci_dispatch', ok: true, status: 204 }] })
    expect(ci.requests).toEqual([
      { path: '/repos/acme/web/actions/workflows/blog.yml/dispatches', authorization: 'Bearer ci-token', body: { ref: 'main', inputs: { slug: 'ci-dispatch-guide', reason: 'article.published' } } },
    ])
    const wrong = { ...settings, ci: { ...settings.ci, token: 'wrong' } }
    const r2 = await publishing.handleContentPartnerDelivery(payload, articleDelivery('ci-2', 'ci-dispatch-guide', 36), { settings: wrong })
    expect(r2).toMatchObject({ ok: true, code: 'updated', refresh: [{ kind: 'ci_dispatch', ok: false, status: 401 }] })
  })

  it('read API returns published posts only, newest first, and one post by slug', async () => {
    const { listPublishedPosts, getPublishedPostBySlug } = await import('../../cms/posts-read')
    const page = await listPublishedPosts({ page: 1, limit: 2 }, payload)
    expect(page.docs).toHaveLength(2)
    expect(page.totalDocs).toBeGreaterThanOrEqual(2)
    expect(page.docs.map((d) => d.slug)).not.toContain('taken-by-editor')
    const post = await getPublishedPostBySlug('parallel-delivery-guide', payload)
    expect(post).toMatchObject({ slug: 'parallel-delivery-guide', title: 'Quest guide number 32 for players' })
    expect(post?.url).toMatch(/\/blog\/posts\/parallel-delivery-guide\/$/)
    expect(post?.html).toContain('rel="nofollow noopener noreferrer"')
    expect(await getPublishedPostBySlug('taken-by-editor', payload)).toBeNull()
  })

  it('webhook auth accepts the Bearer secret and the fallback headers', async () => {
    const { isAuthorizedWebhook } = await import('../../cms/webhook-auth')
    expect(isAuthorizedWebhook({ authorization: 'Bearer s' }, 's')).toBe(true)
    expect(isAuthorizedWebhook(new Headers({ 'x-webhook-secret': 's' }), 's')).toBe(true)
    expect(isAuthorizedWebhook({ 'x-contentpartner-secret': 's' }, 's')).toBe(true)
    expect(isAuthorizedWebhook({ authorization: 'Bearer t' }, 's')).toBe(false)
    expect(isAuthorizedWebhook({}, 's')).toBe(false)
    expect(isAuthorizedWebhook({ authorization: 'Bearer s' }, undefined)).toBe(false)
  })
})
