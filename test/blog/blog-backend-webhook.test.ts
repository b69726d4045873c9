/**
 * The partner webhook end to end over the backend's real HTTP interface: the API process
 * forwards the delivery to the blog process (the suite's mainnet Next server), which writes
 * through Payload to the blog database; the live Next site shows the post, and the API's
 * GraphQL reads it back from that server.
 */
import type { Payload } from 'payload'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { BlogPostDocument, BlogPostsDocument } from '../../src/generated/graphql'
import { articleDelivery, WRONG_TYPED_FIELDS } from '../fixtures/blog-articles'
import { startApi, type TestApi } from '../helpers/api'
import { gql } from '../helpers/client'
import { openPayload } from './blog-helpers'

// The blog server's secret (a delivery the API accepts is forwarded with it).
const SECRET = inject('blogWebhookSecret')
let api: TestApi
let payload: Payload
let blog: string

beforeAll(async () => {
  payload = await openPayload('mainnet') // also points this process's CMS settings at the suite's database and mainnet site
  blog = `${inject('blogMainnetUrl')}/blog`
  api = await startApi({ env: { WEBHOOK_SECRET: SECRET, BLOG_REVALIDATION_SECRET: inject('blogRevalidationSecret'), NETWORK: 'mainnet', BLOG_CMS_URL: inject('blogMainnetUrl') } })
})

afterAll(async () => {
  await api?.close()
  await payload?.destroy()
})

const deliver = (body: unknown, headers: Record<string, string>) =>
  fetch(`${api.url}/api/blog/webhooks/contentpartner`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

const counts = async (slug: string, deliveryId: string) => ({
  posts: (await payload.count({ collection: 'blog_posts', where: { slug: { equals: slug } } })).totalDocs,
  deliveries: (await payload.count({ collection: 'blog_webhook_deliveries', where: { deliveryId: { equals: deliveryId } } })).totalDocs,
})

describe('POST /api/blog/webhooks/contentpartner', () => {
  it('refuses a missing or wrong secret with 401 and writes nothing', async () => {
    const body = articleDelivery('auth-1', 'backend-auth-check', 51)
    const attempts: Array<Record<string, string>> = [{}, { authorization: 'Bearer wrong' }, { 'x-webhook-secret': 'wrong' }, { authorization: `Basic ${SECRET}` }]
    for (const headers of attempts) {
      const res = await deliver(body, headers)
      expect(res.status).toBe(401)
      expect(await res.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } })
    }
    expect(await counts('backend-auth-check', 'auth-1')).toEqual({ posts: 0, deliveries: 0 })
  })

  it('answers webhook.test with 2xx and creates no post', async () => {
    const before = (await payload.count({ collection: 'blog_posts' })).totalDocs
    const res = await deliver({ event: 'webhook.test', delivery_id: 'ping-backend' }, { authorization: `Bearer ${SECRET}` })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ received: true, result: 'webhook_test' })
    expect((await payload.count({ collection: 'blog_posts' })).totalDocs).toBe(before)
  })

  it.each([
    ['a body that is not an object', ['an', 'array'], 400, 'INVALID_BODY'],
    ['an unknown event', { event: 'article.deleted', delivery_id: 'bad-event' }, 400, 'UNKNOWN_EVENT'],
    ['no delivery id', { event: 'article.published', article: {} }, 400, 'MISSING_DELIVERY_ID'],
    ['an article with bad fields', { event: 'article.published', delivery_id: 'bad-backend', article: { slug: 'Not A Slug', tags: 'x' } }, 400, 'INVALID_ARTICLE'],
    ['html over 900 kB', { ...articleDelivery('big-html', 'big-html-guide', 54), article: { ...(articleDelivery('big-html', 'big-html-guide', 54).article as object), html: `<p>${'word '.repeat(190_000)}</p>` } }, 413, 'PAYLOAD_TOO_LARGE'],
    ['too little content', { event: 'article.published', delivery_id: 'bad-short', article: { title: 'A short partner note', slug: 'short-backend-note', excerpt: 'Short.', author: 'Desk', html: '<p>Too short.</p>' } }, 422, 'EDITORIAL_REJECTED'],
  ] as const)('refuses %s with its documented code in the error shape and writes nothing', async (_name, body, status, code) => {
    const before = (await payload.count({ collection: 'blog_webhook_deliveries' })).totalDocs
    const res = await deliver(body, { authorization: `Bearer ${SECRET}` })
    expect(res.status).toBe(status)
    const json = await res.json()
    expect(json).toEqual({ error: { code, message: expect.any(String), requestId: expect.any(String), ...(json.error.details ? { details: json.error.details } : {}) } })
    expect(json.error.code).toBe(code)
    if (code === 'INVALID_ARTICLE' || code === 'EDITORIAL_REJECTED') expect(json.error.details.issues.length).toBeGreaterThan(0)
    expect((await payload.count({ collection: 'blog_webhook_deliveries' })).totalDocs).toBe(before)
  })

  it('refuses every article field given another type with 400 INVALID_ARTICLE naming the field, and writes nothing', async () => {
    const before = { posts: (await payload.count({ collection: 'blog_posts' })).totalDocs, deliveries: (await payload.count({ collection: 'blog_webhook_deliveries' })).totalDocs }
    for (const [i, { field, article }] of WRONG_TYPED_FIELDS.entries()) {
      const base = articleDelivery(`typed-${i}`, `typed-backend-${i}`, 60 + i)
      const res = await deliver({ ...base, article: { ...(base.article as object), ...article } }, { authorization: `Bearer ${SECRET}` })
      const json = await res.json()
      expect({ field, status: res.status, error: json.error }).toEqual({
        field,
        status: 400,
        error: { code: 'INVALID_ARTICLE', message: expect.any(String), requestId: expect.any(String), details: { issues: [{ field, message: expect.stringMatching(/^must be /) }] } },
      })
    }
    // Top-level fields of another type are named too, under their own documented codes.
    const deliveryId = await deliver({ event: 'article.published', delivery_id: 7, article: articleDelivery('x', 'typed-top', 59).article }, { authorization: `Bearer ${SECRET}` })
    expect(deliveryId.status).toBe(400)
    expect((await deliveryId.json()).error).toMatchObject({ code: 'MISSING_DELIVERY_ID', details: { issues: [{ field: 'delivery_id' }] } })
    const event = await deliver({ ...articleDelivery('typed-event', 'typed-top', 59), event: ['article.published'] }, { authorization: `Bearer ${SECRET}` })
    expect(event.status).toBe(400)
    expect((await event.json()).error).toMatchObject({ code: 'UNKNOWN_EVENT', details: { issues: [{ field: 'event' }] } })
    expect({ posts: (await payload.count({ collection: 'blog_posts' })).totalDocs, deliveries: (await payload.count({ collection: 'blog_webhook_deliveries' })).totalDocs }).toEqual(before)
  })

  it('refuses a partner article whose slug belongs to an editor-written post with 409 SLUG_TAKEN', async () => {
    await payload.create({ collection: 'blog_posts', data: { title: 'Editor post owning its slug', slug: 'backend-editor-owned' }, draft: true })
    const res = await deliver(articleDelivery('taken-backend', 'backend-editor-owned', 55), { authorization: `Bearer ${SECRET}` })
    expect(res.status).toBe(409)
    expect(await res.json()).toMatchObject({ error: { code: 'SLUG_TAKEN', requestId: expect.any(String) } })
    expect((await counts('backend-editor-owned', 'taken-backend')).deliveries).toBe(0)
  })

  it('every code the webhook can answer is an API error code with the same status', async () => {
    const { BLOG_WEBHOOK_FAILURES } = await import('../../src/services/blog/service')
    const { ERROR_STATUS } = await import('../../src/errors')
    expect(Object.keys(BLOG_WEBHOOK_FAILURES).sort()).toEqual(
      ['EDITORIAL_REJECTED', 'INTERNAL', 'INVALID_ARTICLE', 'INVALID_BODY', 'MISSING_DELIVERY_ID', 'PAYLOAD_TOO_LARGE', 'SLUG_TAKEN', 'UNKNOWN_EVENT'],
    )
    for (const [code, status] of Object.entries(BLOG_WEBHOOK_FAILURES)) expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS]).toBe(status)
  })

  it('publishes a signed article: visible on its page, in both feeds and in GraphQL', async () => {
    const slug = 'backend-webhook-published-guide'
    // Reads cached before the delivery (the blog service's reads and the response cache) must not hide it after.
    const before = await gql(api.url, BlogPostDocument, { slug })
    expect(before.body.data?.blogPost).toBeNull()
    expect(before.headers.get('cache-control')).toBe('max-age=30, public')
    const listedBefore = await gql(api.url, BlogPostsDocument, { page: 1, limit: 50 })
    expect(listedBefore.body.data?.blogPosts.posts.map((p) => p.slug)).not.toContain(slug)
    const res = await deliver(articleDelivery('backend-1', slug, 52), { authorization: `Bearer ${SECRET}` })
    expect(res.status).toBe(201)
    const body = await res.json()
    expect(body).toMatchObject({ received: true, result: 'created', slug, deliveryId: 'backend-1' })
    expect(body.refresh).toEqual([expect.objectContaining({ kind: 'revalidate', ok: true })])

    const page = await fetch(`${blog}/posts/${slug}/`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('Quest guide number 52 for players')
    for (const feed of ['rss.xml', 'atom.xml']) expect(await (await fetch(`${blog}/${feed}`)).text()).toContain(`${blog}/posts/${slug}/`)

    const one = await gql(api.url, BlogPostDocument, { slug })
    expect(one.body.data?.blogPost).toMatchObject({ slug, title: 'Quest guide number 52 for players', url: `${blog}/posts/${slug}/` })
    const list = await gql(api.url, BlogPostsDocument, { page: 1, limit: 50 })
    expect(list.body.data?.blogPosts.posts.map((p) => p.slug)).toContain(slug)
  })

  it('the same delivery sent 50 times in parallel leaves one post and one delivery row', async () => {
    const slug = 'backend-webhook-parallel-guide'
    const body = articleDelivery('backend-parallel', slug, 53)
    const responses = await Promise.all(Array.from({ length: 50 }, () => deliver(body, { authorization: `Bearer ${SECRET}` })))
    const results = await Promise.all(responses.map(async (r) => ({ status: r.status, result: (await r.json()).result })))
    expect(results.filter((r) => r.result === 'created')).toHaveLength(1)
    expect(results.filter((r) => r.result === 'duplicate' && r.status === 200)).toHaveLength(49)
    expect(await counts(slug, 'backend-parallel')).toEqual({ posts: 1, deliveries: 1 })
  })
})
