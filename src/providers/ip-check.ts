/** What the anti-proxy service said about one address; `failed` means it said nothing usable. */
export type IpVerdict =
  | { outcome: 'clean'; type?: string }
  | { outcome: 'proxy'; type?: string }
  | { outcome: 'failed'; reason: 'timeout' | 'unreachable' | 'http_status' | 'bad_answer'; status?: number };

export interface IpCheck {
  /** Never throws: every failure is a `failed` verdict, so callers can go on without it. */
  check(ip: string, opts?: { signal?: AbortSignal }): Promise<IpVerdict>;
}

export interface IpCheckOptions {
  /** Base URL (https://proxycheck.io). */
  url: string;
  /** GENERAL.IPCHECK_API_KEY, sent as the `key` query parameter. */
  apiKey: string;
  /** The whole exchange, answer included. Default 1.5 s. */
  timeoutMs?: number;
}

type Answer = { status?: unknown } & Record<string, { proxy?: unknown; type?: unknown } | unknown>;

/**
 * The one adapter for the anti-proxy service, in proxycheck.io's v2 wire format:
 * `GET /v2/<ip>?key=<key>&vpn=1` answers `{ "status": "ok", "<ip>": { "proxy": "yes"|"no", "type": "VPN" } }`
 * (`status` "warning" still carries a verdict; "denied"/"error" do not). The key is never logged:
 * failures carry only a reason and the HTTP status.
 */
export function createIpCheck(opts: IpCheckOptions): IpCheck {
  const base = opts.url.replace(/\/$/, '');
  const timeoutMs = opts.timeoutMs ?? 1500;
  return {
    async check(ip, { signal } = {}) {
      const timeout = AbortSignal.timeout(timeoutMs);
      const url = `${base}/v2/${encodeURIComponent(ip)}?key=${encodeURIComponent(opts.apiKey)}&vpn=1`;
      let res: Response;
      let body: Answer;
      try {
        res = await fetch(url, { headers: { accept: 'application/json' }, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
        if (!res.ok) {
          await res.body?.cancel();
          return { outcome: 'failed', reason: 'http_status', status: res.status };
        }
        body = (await res.json()) as Answer;
      } catch (err) {
        if (timeout.aborted) return { outcome: 'failed', reason: 'timeout' };
        return { outcome: 'failed', reason: err instanceof SyntaxError ? 'bad_answer' : 'unreachable' };
      }
      const entry = body?.[ip] as { proxy?: unknown; type?: unknown } | undefined;
      if ((body?.status !== 'ok' && body?.status !== 'warning') || (entry?.proxy !== 'yes' && entry?.proxy !== 'no')) return { outcome: 'failed', reason: 'bad_answer' };
      const type = typeof entry.type === 'string' ? entry.type : undefined;
      return entry.proxy === 'yes' ? { outcome: 'proxy', type } : { outcome: 'clean', type };
    },
  };
}
