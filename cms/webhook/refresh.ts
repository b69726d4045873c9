import { createCiDispatch } from './ci-dispatch'
import type { BlogSettings } from '../settings'
import type { RefreshOutcome } from './types'

/**
 * After a post is written: POST the blog's revalidation endpoint when
 * BLOG_REVALIDATION_SECRET is set (live ISR runtime), and dispatch the CI rebuild of the
 * static snapshot when BLOG_PUBLISH_CI_TOKEN is set. Failures are reported, never thrown.
 */
export async function refreshBlog(settings: BlogSettings, slug: string, doFetch: typeof fetch = fetch): Promise<RefreshOutcome[]> {
  const out: RefreshOutcome[] = []
  if (settings.revalidationSecret) {
    try {
      const res = await doFetch(settings.revalidateUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${settings.revalidationSecret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ slug }),
        signal: AbortSignal.timeout(5000),
      })
      await res.arrayBuffer().catch(() => undefined)
      out.push({ kind: 'revalidate', ok: res.ok, status: res.status, ...(res.ok ? {} : { error: res.statusText }) })
    } catch (err) {
      out.push({ kind: 'revalidate', ok: false, status: 0, error: err instanceof Error ? err.message : String(err) })
    }
  }
  if (settings.ci.token) {
    const ci = createCiDispatch({ ...settings.ci, token: settings.ci.token, fetch: doFetch })
    const r = await ci.dispatch({ slug, reason: 'article.published' })
    out.push({ kind: 'ci_dispatch', ...r })
  }
  return out
}
