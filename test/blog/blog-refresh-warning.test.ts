/** A revalidation that fails after a publish is reported to the partner and logged as a warning naming the setting to check. */
import { describe, expect, it } from 'vitest'
import { readBlogSettings } from '../../cms/settings'
import { refreshBlog } from '../../cms/webhook/refresh'
import { freePort } from './blog-server'

describe('refreshBlog', () => {
  it('logs a failed revalidation as a warning naming BLOG_REVALIDATE_URL, and reports it', async () => {
    const closed = await freePort()
    const settings = readBlogSettings({ BLOG_REVALIDATION_SECRET: 'refresh-warning-secret', 'GENERAL.PORT': String(closed) })
    expect(settings.revalidateUrl).toBe(`http://localhost:${closed}/blog/api/revalidate/`)
    const warnings: Array<{ fields: Record<string, unknown>; message: string }> = []
    const out = await refreshBlog(settings, 'some-post', fetch, { warn: (fields, message) => warnings.push({ fields, message }) })
    expect(out).toEqual([{ kind: 'revalidate', ok: false, status: 0, error: 'fetch failed' }])
    expect(warnings).toEqual([{ fields: expect.objectContaining({ slug: 'some-post', url: settings.revalidateUrl, error: 'fetch failed' }), message: expect.stringContaining('BLOG_REVALIDATE_URL') }])
  })
})
