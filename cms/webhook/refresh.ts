import { createCiDispatch } from './ci-dispatch'
import type { BlogSettings } from '../settings'
import type { RefreshOutcome } from './types'

/**
 * After a post is written: POST the blog's revalidation endpoint when
 * BLOG_REVALIDATION_SECRET is set (live ISR runtime), and dispatch the CI rebuild of the
 * static snapshot when BLOG_PUBLISH_CI_TOKEN is set. Failures are reported, never thrown; a failed
 * revalidation is also a warning in the log naming the setting to check.
 */
/** Where a failed revalidation is reported (the CMS's pino logger). */
export interface RefreshLogger {
  warn(fields: Record<string, unknown>, message: string): void
}

/** The setting a failed revalidation points at, and where its default comes from. */
const REVALIDATE_HINT = 'check BLOG_REVALIDATE_URL (unset: BLOG_URL + /api/revalidate/; BLOG_URL defaults from APP_URL, APP_URL from GENERAL_PORT)'

export async function refreshBlog(settings: BlogSettings, slug: string, doFetch: typeof fetch = fetch, logger?: RefreshLogger): Promise<RefreshOutcome[]> {
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
  const failed = out.find((r) => !r.ok)
  if (failed) logger?.warn({ slug, url: settings.revalidateUrl, status: failed.status, error: failed.error }, `blog: the revalidation after a publish failed, the post's pages stay stale until their next regeneration: ${REVALIDATE_HINT}`)
  if (settings.ci.token) {
    const ci = createCiDispatch({ ...settings.ci, token: settings.ci.token, fetch: doFetch })
    const r = await ci.dispatch({ slug, reason: 'article.published' })
    out.push({ kind: 'ci_dispatch', ...r })
  }
  return out
}
