/** One HTTP answer as the audit sees it: status, headers, body text; or why there was none. */
export type Fetched =
  | { ok: true; url: string; status: number; headers: Headers; body: string }
  | { ok: false; url: string; error: string };

export interface Fetcher {
  get(url: string): Promise<Fetched>;
}

/**
 * GET without following redirects (redirects are rules here), each request bounded by
 * `timeoutMs` and at most `concurrency` in flight at once.
 */
export function createFetcher(opts: { concurrency: number; timeoutMs: number; userAgent: string; connectTo?: ConnectTo }): Fetcher {
  const connect = connectVia(opts.connectTo ?? {});
  const queue: (() => void)[] = [];
  let active = 0;
  const acquire = (): Promise<void> =>
    active < opts.concurrency ? (active++, Promise.resolve()) : new Promise<void>((resolve) => queue.push(resolve));
  const release = (): void => {
    const next = queue.shift();
    if (next) next();
    else active--;
  };
  return {
    async get(url) {
      await acquire();
      try {
        const res = await fetch(connect(url), { redirect: 'manual', signal: AbortSignal.timeout(opts.timeoutMs), headers: { 'user-agent': opts.userAgent } });
        return { ok: true, url, status: res.status, headers: res.headers, body: await res.text() };
      } catch (err) {
        const e = err as Error & { cause?: { code?: string } };
        const reason = e.name === 'TimeoutError' ? `no answer within ${opts.timeoutMs} ms` : (e.cause?.code ?? e.message);
        return { ok: false, url, error: reason };
      } finally {
        release();
      }
    },
  };
}

/**
 * Public origin → the origin actually contacted, like curl's `--connect-to`: audits a deployment
 * before DNS points at it, or through a staging edge. Reports keep the public URLs.
 */
export type ConnectTo = Record<string, string>;

function connectVia(map: ConnectTo): (url: string) => string {
  const targets = new Map(Object.entries(map).map(([from, to]) => [new URL(from).origin, new URL(to).origin]));
  if (!targets.size) return (url) => url;
  return (url) => {
    const u = new URL(url);
    const to = targets.get(u.origin);
    return to ? `${to}${u.pathname}${u.search}` : url;
  };
}
