/**
 * CI workflow dispatch (GitHub Actions REST shape):
 * POST {apiUrl}/repos/{owner}/{repo}/actions/workflows/{workflow}/dispatches
 * with `{ ref, inputs }`, authorised by `Authorization: Bearer <token>`; success is 204.
 * Used to rebuild the static blog snapshot after a partner article is published; the CMS owns
 * this adapter (cms/ never imports src/ internals, see docs/decisions.md).
 */
export interface CiDispatchOptions {
  /** API root, e.g. https://api.github.com (no trailing slash needed). */
  apiUrl: string
  token: string
  /** owner/name */
  repo: string
  /** Workflow file name or numeric id. */
  workflow: string
  ref: string
  fetch?: typeof fetch
  timeoutMs?: number
}

export interface CiDispatchResult {
  ok: boolean
  status: number
  error?: string
}

export interface CiDispatch {
  dispatch(inputs: Record<string, string>): Promise<CiDispatchResult>
}

export function createCiDispatch(options: CiDispatchOptions): CiDispatch {
  const doFetch = options.fetch ?? fetch
  const [owner, name] = options.repo.split('/')
  if (!owner || !name) throw new Error(`CI repo must be "owner/name", got "${options.repo}"`)
  const url = `${options.apiUrl.replace(/\/+$/, '')}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/actions/workflows/${encodeURIComponent(options.workflow)}/dispatches`
  return {
    async dispatch(inputs) {
      try {
        const res = await doFetch(url, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${options.token}`,
            accept: 'application/vnd.github+json',
            'x-github-api-version': '2022-11-28',
            'content-type': 'application/json',
            'user-agent': 'platform-blog-publisher',
          },
          body: JSON.stringify({ ref: options.ref, inputs }),
          signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
        })
        if (res.status === 204 || res.ok) return { ok: true, status: res.status }
        const text = await res.text().catch(() => '')
        return { ok: false, status: res.status, error: text.slice(0, 300) || res.statusText }
      } catch (err) {
        return { ok: false, status: 0, error: err instanceof Error ? err.message : String(err) }
      }
    },
  }
}
