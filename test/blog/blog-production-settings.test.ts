/**
 * Under NODE_ENV=production the development-only settings are ignored in the blog process: the
 * suite's mainnet server runs with NODE_ENV=production and BLOG_MEDIA_ALLOW_PRIVATE_HOSTS=true
 * (blog-global-setup.ts), and a partner image from this machine is still dropped. Development,
 * where the setting works under `npm start`: blog-start-port.test.ts.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { loadConfig, PLATFORM_NODE_ENV } from '../../src/config'
import { articleDelivery } from '../fixtures/blog-articles'
import { startImageServer, type ImageServer } from '../fixtures/image-server'
import { startApi, type TestApi } from '../helpers/api'

const SECRET = inject('blogWebhookSecret')
let api: TestApi
let images: ImageServer

beforeAll(async () => {
  images = await startImageServer()
  api = await startApi({ env: { WEBHOOK_SECRET: SECRET, BLOG_REVALIDATION_SECRET: inject('blogRevalidationSecret'), NETWORK: 'mainnet', BLOG_CMS_URL: inject('blogMainnetUrl') } })
})

afterAll(async () => {
  await api?.close()
  await images?.close()
})

describe('development-only settings under NODE_ENV=production', () => {
  it('BLOG_MEDIA_ALLOW_PRIVATE_HOSTS=true is ignored: a partner image from this machine is dropped, the article published', async () => {
    const slug = 'production-private-image-guide'
    const base = articleDelivery('production-private-1', slug, 330)
    const hero = `${images.url}/hero.png?for=${slug}`
    const res = await fetch(`${api.url}/api/blog/webhooks/contentpartner`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...base, article: { ...(base.article as object), image_url: hero } }),
    })
    const body = await res.json()
    expect(res.status, JSON.stringify(body)).toBe(201)
    expect(body.warnings).toContainEqual(expect.stringMatching(new RegExp(`^image ${hero.replace(/[.?]/g, '\\$&')} dropped: it points at a non-public address`)))
  })

  it("a child process reads the platform's NODE_ENV, not the one its framework sets", () => {
    const child = (platform: string) =>
      loadConfig({ envDir: '/nonexistent', env: { NODE_ENV: 'production', [PLATFORM_NODE_ENV]: platform, BLOG_MEDIA_ALLOW_PRIVATE_HOSTS: 'true' }, requireDeploymentSettings: false })
    expect(child('development')).toMatchObject({ nodeEnv: 'development', blog: { media: { allowPrivateHosts: true } }, http: { host: '127.0.0.1' } })
    expect(child('production')).toMatchObject({ nodeEnv: 'production', blog: { media: { allowPrivateHosts: false } }, http: { host: '0.0.0.0' } })
  })
})
