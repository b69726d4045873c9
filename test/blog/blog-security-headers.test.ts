/**
 * Security headers of the blog and the CMS admin over real HTTP (mainnet server): pages,
 * feeds, sitemap, 404s, redirects, the revalidation endpoint, Payload's REST API and the admin.
 */
import type { Payload } from 'payload'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { articleDelivery } from '../fixtures/blog-articles'
import { openPayload } from './blog-helpers'
import { closeBlogPayload } from '../../cms/lifecycle'

const SLUG = 'security-headers-guide'
let payload: Payload
let blogUrl: string

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${blogUrl}${path}`, { redirect: 'manual', headers })

function directives(res: Response): Record<string, string[]> {
  const csp = res.headers.get('content-security-policy') ?? ''
  return Object.fromEntries(
    csp
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...values] = d.split(/\s+/)
        return [name!, values]
      }),
  )
}

function expectSecurityHeaders(res: Response, what: string): Record<string, string[]> {
  expect(res.headers.get('x-content-type-options'), what).toBe('nosniff')
  expect(res.headers.get('x-frame-options'), what).toBe('DENY')
  expect(res.headers.get('referrer-policy'), what).toBe('strict-origin-when-cross-origin')
  expect(res.headers.get('strict-transport-security'), what).toBeNull()
  const csp = directives(res)
  expect(csp['default-src'], what).toEqual(["'self'"])
  expect(csp['frame-ancestors'], what).toEqual(["'none'"])
  expect(csp['object-src'], what).toEqual(["'none'"])
  expect(csp['base-uri'], what).toEqual(["'self'"])
  expect(csp['form-action'], what).toEqual(["'self'"])
  expect(csp['connect-src'], what).toEqual(["'self'"])
  // Scripts from the site only, never eval.
  expect(csp['script-src'], what).toEqual(["'self'", "'unsafe-inline'"])
  return csp
}

beforeAll(async () => {
  blogUrl = `${inject('blogMainnetUrl')}/blog`
  payload = await openPayload('mainnet')
  const { handleContentPartnerDelivery } = await import('../../cms/publishing')
  const result = await handleContentPartnerDelivery(payload, articleDelivery('security-1', SLUG, 21))
  expect(result).toMatchObject({ ok: true })
})

afterAll(async () => {
  if (payload) await closeBlogPayload(payload)
})

describe('blog security headers', () => {
  it('on public pages, feeds, sitemap and robots, with the public policy', async () => {
    for (const path of ['/', `/posts/${SLUG}/`, '/rss.xml', '/atom.xml', '/sitemap.xml', '/robots.txt']) {
      const res = await get(path)
      expect(res.status, path).toBe(200)
      const csp = expectSecurityHeaders(res, path)
      expect(csp['img-src'], path).not.toContain('blob:')
      expect(csp['font-src'], path).toEqual(["'self'"])
      await res.arrayBuffer()
    }
  })

  it('on 404s, redirect targets and the revalidation endpoint’s refusal', async () => {
    const missingPost = await get('/posts/no-such-post-here/')
    expect(missingPost.status).toBe(404)
    expectSecurityHeaders(missingPost, 'missing post')
    const missingFile = await get('/no-such-file.txt')
    expect(missingFile.status).toBe(404)
    expectSecurityHeaders(missingFile, 'missing file')
    // Next sends its redirects (next.config and trailing-slash) without custom headers; the
    // browser lands on a page that has them.
    for (const path of ['/blog/', `/posts/${SLUG}`]) {
      const redirect = await get(path)
      expect(redirect.status, path).toBe(308)
      const target = await fetch(new URL(redirect.headers.get('location')!, blogUrl))
      expect(target.status, path).toBe(200)
      expectSecurityHeaders(target, `${path} redirect target`)
      await target.arrayBuffer()
    }
    const refused = await fetch(`${blogUrl}/api/revalidate/`, { method: 'POST' })
    expect(refused.status).toBe(401)
    expectSecurityHeaders(refused, 'revalidate 401')
  })

  it('on static assets the pages load', async () => {
    const html = await (await get('/')).text()
    const script = /<script[^>]+src="(\/blog\/_next\/static\/[^"]+\.js)"/.exec(html)?.[1]
    expect(script).toBeTruthy()
    const res = await fetch(`${blogUrl.replace(/\/blog$/, '')}${script}`)
    expect(res.status).toBe(200)
    expectSecurityHeaders(res, 'static chunk')
  })

  it('on the admin and Payload’s REST API, with the admin policy', async () => {
    for (const path of ['/admin/', '/admin/login/', '/admin/create-first-user/']) {
      const res = await get(path)
      expect([200, 307, 308], path).toContain(res.status)
      const csp = expectSecurityHeaders(res, path)
      expect(csp['img-src'], path).toContain('blob:')
      expect(csp['worker-src'], path).toEqual(["'self'", 'blob:'])
    }
    const me = await get('/api/users/me/')
    expect(me.status).toBe(200)
    expectSecurityHeaders(me, 'users/me')
    const denied = await fetch(`${blogUrl}/api/users/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    expect(denied.status).toBeGreaterThanOrEqual(400)
    expectSecurityHeaders(denied, 'users POST refused')
  })

  it('adds HSTS only behind a proxy that says https', async () => {
    for (const path of ['/', '/admin/login/', '/posts/no-such-post-here/']) {
      const res = await get(path, { 'x-forwarded-proto': 'https' })
      expect(res.headers.get('strict-transport-security'), path).toBe('max-age=31536000; includeSubDomains')
      await res.arrayBuffer()
    }
  })
})
