/**
 * Partner images through the real webhook (backend HTTP → the CMS's platform routes → Payload →
 * blog site): `image_url` and every `<img>` are fetched from a loopback image host into the media
 * collection, or dropped with a warning in the response and the delivery record; the article is
 * never refused for them. The CMS routes run in this process (cms/platform-server.ts, the handlers
 * the blog's Next server serves), since a production Next server never fetches loopback images.
 */
import type { Payload } from 'payload'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { articleDelivery, articleHtml } from '../fixtures/blog-articles'
import { startImageServer, type ImageServer } from '../fixtures/image-server'
import { listenPlatformApi, type PlatformApiServer } from '../../cms/platform-server'
import { startApi, type TestApi } from '../helpers/api'
import { fetchDom, meta, openPayload } from './blog-helpers'

const SECRET = inject('blogWebhookSecret')
const MAX_BYTES = 256 * 1024
let api: TestApi
let payload: Payload
let images: ImageServer
let cms: PlatformApiServer
let blog: string

beforeAll(async () => {
  payload = await openPayload('mainnet')
  blog = `${inject('blogMainnetUrl')}/blog`
  // The fixture host is on loopback (allowed outside production only); short limits keep the slow case quick.
  Object.assign(process.env, { BLOG_MEDIA_ALLOW_PRIVATE_HOSTS: 'true', BLOG_MEDIA_MAX_BYTES: String(MAX_BYTES), BLOG_MEDIA_FETCH_TIMEOUT_MS: '1500' })
  images = await startImageServer({ oversizeBytes: MAX_BYTES + 4096 })
  cms = await listenPlatformApi(payload)
  api = await startApi({ env: { WEBHOOK_SECRET: SECRET, BLOG_REVALIDATION_SECRET: inject('blogRevalidationSecret'), NETWORK: 'mainnet', BLOG_CMS_URL: cms.url } })
})

afterAll(async () => {
  await api?.close()
  await cms?.close()
  await images?.close()
  await payload?.destroy()
  for (const k of ['BLOG_MEDIA_ALLOW_PRIVATE_HOSTS', 'BLOG_MEDIA_MAX_BYTES', 'BLOG_MEDIA_FETCH_TIMEOUT_MS']) delete process.env[k]
})

const deliver = (body: unknown) =>
  fetch(`${api.url}/api/blog/webhooks/contentpartner`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${SECRET}` },
    body: JSON.stringify(body),
  })

function withImages(deliveryId: string, slug: string, seed: number, opts: { imageUrl?: string; imgs?: string[] }): Record<string, unknown> {
  const base = articleDelivery(deliveryId, slug, seed)
  const article = base.article as Record<string, unknown>
  const figures = (opts.imgs ?? []).map((src, i) => `<p><img src="${src}" alt="Figure ${i + 1} of guide ${seed}"></p>`)
  return { ...base, article: { ...article, html: `${articleHtml(seed)}\n${figures.join('\n')}`, ...(opts.imageUrl ? { image_url: opts.imageUrl } : {}) } }
}

type LexicalNode = { type?: string; value?: unknown; children?: LexicalNode[] }
/** Media ids of the upload nodes anywhere in a Lexical tree. */
const uploadsIn = (node: LexicalNode): unknown[] =>
  (node.children ?? []).flatMap((c) => [...(c.type === 'upload' ? [c.value] : []), ...uploadsIn(c)])

const mediaFrom = async (sourceUrl: string) =>
  (await payload.find({ collection: 'media', where: { sourceUrl: { equals: sourceUrl } }, depth: 0, limit: 100 })).docs as unknown as {
    id: number
    filename: string
    mimeType: string
  }[]

const deliveryRecord = async (deliveryId: string) =>
  (await payload.find({ collection: 'blog_webhook_deliveries', where: { deliveryId: { equals: deliveryId } }, depth: 0, overrideAccess: true })).docs[0] as unknown as
    | { warnings?: string | null }
    | undefined

describe('partner images', () => {
  it('stores image_url as the hero and each <img> as an upload; the site serves them from /blog/assets/blog/db/', async () => {
    const slug = 'partner-images-stored-guide'
    const hero = `${images.url}/hero.png?for=${slug}`
    const inline = `${images.url}/inline.jpg?for=${slug}`
    const res = await deliver(withImages('images-ok', slug, 61, { imageUrl: hero, imgs: [inline, `${images.url}/mislabelled.jpg?for=${slug}`] }))
    expect(res.status).toBe(201)
    const body = await res.json()
    expect(body).toMatchObject({ result: 'created', slug })
    expect(body.warnings.filter((w: string) => w.startsWith('image '))).toEqual([])
    expect(await deliveryRecord('images-ok')).toMatchObject({ warnings: null })

    const [heroMedia] = await mediaFrom(hero)
    expect(heroMedia).toMatchObject({ mimeType: 'image/png' })
    const [inlineMedia] = await mediaFrom(inline)
    expect(inlineMedia).toMatchObject({ mimeType: 'image/jpeg' })
    // Labelled JPEG, bytes PNG: stored as what the bytes are.
    expect(await mediaFrom(`${images.url}/mislabelled.jpg?for=${slug}`)).toEqual([expect.objectContaining({ mimeType: 'image/png' })])

    const page = await fetchDom(`${blog}/posts/${slug}/`)
    expect(page.res.status).toBe(200)
    const ogImage = meta(page.doc, 'meta[property="og:image"]') ?? ''
    expect(ogImage).toBe(`${blog}/assets/blog/db/${encodeURIComponent(heroMedia!.filename)}`)
    // The og:image metadata and the hero element describe the stored image (the fixture's 64×48), not the default card.
    expect([meta(page.doc, 'meta[property="og:image:width"]'), meta(page.doc, 'meta[property="og:image:height"]')]).toEqual(['64', '48'])
    const heroImg = page.doc.querySelector(`article img[src="/blog/assets/blog/db/${encodeURIComponent(heroMedia!.filename)}"]`)
    expect([heroImg?.getAttribute('alt'), heroImg?.getAttribute('width'), heroImg?.getAttribute('height')]).toEqual(['Quest guide number 61 for players', '64', '48'])
    const bodyImgs = [...page.doc.querySelectorAll('article img, main img')].map((i) => i.getAttribute('src'))
    expect(bodyImgs).toContain(`/blog/assets/blog/db/${encodeURIComponent(inlineMedia!.filename)}`)

    // The asset route answers with the stored bytes, which are the image host's bytes.
    const served = await fetch(ogImage)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await served.arrayBuffer()).equals(images.png)).toBe(true)
    const inlineServed = await fetch(`${blog}/assets/blog/db/${encodeURIComponent(inlineMedia!.filename)}`)
    expect((await sharp(Buffer.from(await inlineServed.arrayBuffer())).metadata()).format).toBe('jpeg')
  })

  it.each([
    ['slow', '/slow.png', /did not arrive within 1500 ms/],
    ['oversize (declared)', '/oversize.png', /over the 262144-byte limit/],
    ['oversize (streamed)', '/oversize-chunked.png', /over the 262144-byte limit/],
    ['not an image', '/not-an-image.png', /is not a PNG, JPEG, WebP or GIF image/],
    ['missing', '/missing.png', /answered HTTP 404/],
  ] as const)('publishes the article and drops a %s image with a warning in the response and the delivery record', async (name, path, reason) => {
    const n = ['slow', 'oversize (declared)', 'oversize (streamed)', 'not an image', 'missing'].indexOf(name)
    const slug = `partner-image-dropped-${n}-guide`
    const bad = `${images.url}${path}?for=${slug}`
    const good = `${images.url}/redirect.png?for=${slug}`
    const res = await deliver(withImages(`images-bad-${n}`, slug, 62 + n, { imageUrl: bad, imgs: [bad, good] }))
    expect(res.status).toBe(201)
    const body = await res.json()
    const warning = body.warnings.find((w: string) => w.startsWith(`image ${bad} dropped`))
    expect(warning).toMatch(reason)
    expect(body.warnings.filter((w: string) => w.startsWith('image '))).toHaveLength(1) // one URL, used twice, fetched once
    expect((await deliveryRecord(`images-bad-${n}`))?.warnings).toBe(warning)
    expect(await mediaFrom(bad)).toEqual([])
    expect(await mediaFrom(good)).toHaveLength(1) // the redirect was followed

    const post = (await payload.find({ collection: 'blog_posts', where: { slug: { equals: slug } }, depth: 0 })).docs[0] as unknown as {
      heroImage: unknown
      content: { root: LexicalNode }
    }
    expect(post.heroImage ?? null).toBeNull()
    expect(uploadsIn(post.content.root)).toEqual([(await mediaFrom(good))[0]!.id])
    const page = await fetchDom(`${blog}/posts/${slug}/`)
    expect(page.res.status).toBe(200)
    expect(page.html).not.toContain(path)
  })

  it('refuses targets outside http(s) and, unless allowed, loopback and private addresses', async () => {
    const { fetchImage } = await import('../../cms/media/fetch-image')
    const limits = { maxBytes: MAX_BYTES, timeoutMs: 1500, allowPrivateHosts: false }
    const before = images.hits.get('/hero.png') ?? 0
    for (const url of [`${images.url}/hero.png`, 'http://localhost:1/x.png', 'http://[::1]:1/x.png', 'http://10.0.0.1/x.png', 'http://169.254.169.254/latest']) {
      expect(await fetchImage(url, limits), url).toMatchObject({ ok: false, reason: expect.stringMatching(/non-public address/) })
    }
    expect(await fetchImage('file:///etc/passwd', limits)).toEqual({ ok: false, reason: 'is not an http(s) URL' })
    expect(await fetchImage('ftp://example.com/a.png', limits)).toEqual({ ok: false, reason: 'is not an http(s) URL' })
    expect(images.hits.get('/hero.png') ?? 0).toBe(before)
  })

  it('50 parallel copies of a delivery with images: one post, one media item per image, each image fetched once', async () => {
    const slug = 'partner-images-parallel-guide'
    const hero = `${images.url}/hero.png?for=${slug}`
    const inline = `${images.url}/inline.jpg?for=${slug}`
    const body = withImages('images-parallel', slug, 70, { imageUrl: hero, imgs: [inline, hero] })
    const fetchesBefore = { hero: images.hits.get('/hero.png') ?? 0, inline: images.hits.get('/inline.jpg') ?? 0 }
    const responses = await Promise.all(Array.from({ length: 50 }, () => deliver(body)))
    const results = await Promise.all(responses.map(async (r) => ({ status: r.status, result: (await r.json()).result })))
    expect(results.filter((r) => r.result === 'created')).toHaveLength(1)
    expect(results.filter((r) => r.result === 'duplicate' && r.status === 200)).toHaveLength(49)
    expect((await payload.count({ collection: 'blog_posts', where: { slug: { equals: slug } } })).totalDocs).toBe(1)
    expect(await mediaFrom(hero)).toHaveLength(1)
    expect(await mediaFrom(inline)).toHaveLength(1)
    expect((images.hits.get('/hero.png') ?? 0) - fetchesBefore.hero).toBe(1)
    expect((images.hits.get('/inline.jpg') ?? 0) - fetchesBefore.inline).toBe(1)
  })
})
