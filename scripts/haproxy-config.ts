// The edge proxy's configuration (HAProxy 2.6, Debian's), generated for N API replicas:
//   npm run edge:config -- --replicas 3 > deploy/haproxy/haproxy.cfg     (the compose file's, checked in)
// scripts/start-cluster.ts and the edge tests render it for loopback ports with renderHaproxyConfig().
// Choices (limits, timeouts, retries, affinity): docs/decisions.md, "Edge proxy".
import { fileURLToPath } from 'node:url';
import { APP_ROUTE_REDIRECTS, REDIRECT_STATUS } from '../src/surfaces/shared/redirects';

interface Upstream {
  name: string;
  /** host:port */
  address: string;
}

export interface EdgeOptions {
  /** Where clients connect, e.g. `:80` or `127.0.0.1:8080`. */
  bind: string;
  /** The API replicas. */
  api: Upstream[];
  /** The blog's Next server; unset: /blog is not routed. */
  blog?: string;
  /** The web frontend that owns the rest of the app host; unset: everything else goes to the API (404 there). */
  web?: string;
  /** Health ports of the jobs and indexer processes (HEALTH_PORT): checked, shown on the ops page, never routed to. */
  healthOnly?: Upstream[];
  /** Private address of the stats page (`/stats`) and HAProxy's Prometheus exporter (`/metrics`); unset: none. */
  opsBind?: string;
  /** Per client IP: average requests per second and burst. */
  rateLimit?: { perSecond: number; burst: number };
  /** The API's HTTP.REQUEST_TIMEOUT_MS. */
  requestTimeoutMs?: number;
  /** Health check interval of the API replicas. */
  checkIntervalMs?: number;
  /** Resolve upstream names through Docker's DNS (compose) and start even while a name does not resolve yet. */
  dockerDns?: boolean;
  /** Set the affinity cookie's Secure attribute (the edge is behind TLS). */
  secureCookie?: boolean;
  /**
   * Hosts that only redirect (the `www` host, the legacy network-prefixed host) and the apex origin
   * their requests move to, path and query kept (src/surfaces/shared/redirects.ts `hostRedirects`).
   * Values are written in double quotes, so HAProxy expands `${VAR}` / `${VAR-default}` in them.
   */
  hostRedirects?: { apex: string; hosts: string[] };
  /** Tests: name the replica that answered in an `x-served-by` response header (never in production: it maps the topology). */
  servedByHeader?: boolean;
}

export const EDGE_DEFAULTS = { rateLimit: { perSecond: 50, burst: 100 }, requestTimeoutMs: 5000, checkIntervalMs: 500 } as const;

/** Socket.IO's pingInterval (25 s): a long-polling GET is held that long before it is answered. */
const SOCKET_IO_POLL_HOLD_MS = 25_000;

/** One error body in the API's shape (src/errors.ts); HAProxy fills in its unique request id. */
function errorJson(code: string, message: string, details?: Record<string, unknown>): string {
  const body = JSON.stringify({ error: { code, message, requestId: '__ID__', ...(details ? { details } : {}) } });
  return `'${body.replace('__ID__', '%[unique-id]')}'`;
}

const quoted = (value: string): string => `"${value.replace(/["\\]/g, '\\$&')}"`;

/** The www and legacy network hosts: 301 to the apex, the path and query kept (`redirect prefix` appends them). */
function hostRedirectLines(table: EdgeOptions['hostRedirects']): string[] {
  if (!table?.hosts.length) return [];
  return [
    '  # Hosts that only redirect (www, legacy network host): 301 to the apex, path and query kept.',
    `  acl redirect_host req.hdr(host),field(1,:) -i -m str ${table.hosts.map(quoted).join(' ')}`,
    `  http-request redirect code ${REDIRECT_STATUS} prefix ${quoted(table.apex)} if redirect_host`,
  ];
}

/** The legacy app routes (src/surfaces/shared/redirects.ts): 301 on the same host, trailing slash tolerated, query kept. */
function legacyRouteLines(): string[] {
  const lines = ['  # Legacy app routes (src/surfaces/shared/redirects.ts): 301 to their new path on the same host, query kept.'];
  Object.entries(APP_ROUTE_REDIRECTS).forEach(([from, to], i) => {
    const acl = `legacy_route_${i}`;
    lines.push(
      `  acl ${acl} path ${from} ${from}/`,
      `  http-request redirect code ${REDIRECT_STATUS} location ${to}?%[query] if ${acl} { query -m found }`,
      `  http-request redirect code ${REDIRECT_STATUS} location ${to} if ${acl}`,
    );
  });
  return lines;
}

export function renderHaproxyConfig(opts: EdgeOptions): string {
  const rate = opts.rateLimit ?? EDGE_DEFAULTS.rateLimit;
  const requestTimeoutMs = opts.requestTimeoutMs ?? EDGE_DEFAULTS.requestTimeoutMs;
  const inter = opts.checkIntervalMs ?? EDGE_DEFAULTS.checkIntervalMs;
  // A sliding window of burst/rate seconds holding at most `burst` admitted requests: bursts of
  // `burst`, `perSecond` on average. Only admitted requests count, so a client over the limit keeps
  // getting its average rate instead of being locked out.
  const windowMs = Math.round((rate.burst / rate.perSecond) * 1000);
  const dns = opts.dockerDns ? ' resolvers docker init-addr last,libc,none' : '';
  const check = `check inter ${inter} fall 2 rise 2${dns}`;
  const lines: string[] = [];
  const add = (...l: string[]) => lines.push(...l);

  add(
    '# Generated by scripts/haproxy-config.ts; edit that file, not this one. Choices: docs/decisions.md, "Edge proxy".',
    'global',
    '  log stdout format raw local0 info',
    '  # Room for the request retried after a failed connection (retry-on below).',
    '  tune.bufsize 32768',
    '',
    ...(opts.dockerDns ? ['resolvers docker', '  nameserver dns 127.0.0.11:53', '  hold valid 10s', ''] : []),
    'defaults',
    '  mode http',
    '  log global',
    '  option httplog',
    '  option dontlognull',
    '  # X-Forwarded-For is the peer as HAProxy sees it (a client-sent one is removed in the frontend);',
    "  # the API's TRUSTED_PROXY_CIDRS names this proxy only.",
    '  option forwardfor',
    '  option http-server-close',
    '  timeout connect 2s',
    '  timeout client 30s',
    '  timeout http-request 10s',
    '  timeout http-keep-alive 10s',
    '  timeout queue 2s',
    `  # The API answers 503 REQUEST_TIMEOUT itself after ${requestTimeoutMs} ms; one more second to deliver it.`,
    `  timeout server ${requestTimeoutMs + 1000}`,
    '  # Upgraded websockets (graphql-ws, Socket.IO) live long; both sides ping well within this.',
    '  timeout tunnel 1h',
    '  timeout client-fin 5s',
    '  timeout server-fin 5s',
    '  # A connection that fails goes to another replica; a request that may have reached one is retried only',
    '  # when it is idempotent (disable-l7-retry in api_inner), so nothing is written twice.',
    '  retries 2',
    '  option redispatch 1',
    '  retry-on conn-failure empty-response',
    `  http-error status 502 content-type application/json lf-string ${errorJson('UPSTREAM_UNAVAILABLE', 'The upstream service failed to answer')}`,
    `  http-error status 503 content-type application/json lf-string ${errorJson('SERVICE_UNAVAILABLE', 'No replica is available; retry shortly')}`,
    `  http-error status 504 content-type application/json lf-string ${errorJson('UPSTREAM_UNAVAILABLE', 'The upstream service did not answer in time')}`,
    '',
    'frontend edge',
    `  bind ${opts.bind}`,
    '  unique-id-format %[uuid()]',
    '  http-request del-header x-forwarded-for',
    '  http-request del-header forwarded',
    '  http-request del-header x-forwarded-proto',
    `  # Per client IP: at most ${rate.burst} admitted requests in any ${windowMs / 1000} s (${rate.perSecond} r/s average, bursts of ${rate.burst}).`,
    `  stick-table type ipv6 size 1m expire ${windowMs * 2}ms store gpc0_rate(${windowMs}ms)`,
    '  http-request track-sc0 src',
    `  http-request return status 429 content-type application/json hdr retry-after 1 lf-string ${errorJson('RATE_LIMITED', `Too many requests: the edge admits ${rate.perSecond} per second per client, bursts of ${rate.burst}`, { scope: 'edge', retryAfterSeconds: 1 })} if { sc_gpc0_rate(0) ge ${rate.burst} }`,
    '  http-request sc-inc-gpc0(0)',
    '  # Prometheus scrapes each replica directly; the edge does not publish /metrics.',
    `  http-request return status 404 content-type application/json lf-string ${errorJson('NOT_FOUND', 'No route for /metrics')} if { path /metrics }`,
    ...hostRedirectLines(opts.hostRedirects),
    ...legacyRouteLines(),
    '  acl socket_io path_beg /socket.io/',
    '  acl api path /graphql /sitemap_index.xml /sitemap.xml /robots.txt /llms.txt',
    '  acl api path_beg /api/',
    '  acl blog path /blog',
    '  acl blog path_beg /blog/',
    '  use_backend socket_io if socket_io',
    '  use_backend api_hop if api',
    ...(opts.blog ? ['  use_backend blog if blog'] : []),
    `  default_backend ${opts.web ? 'web' : 'api_hop'}`,
    '',
    // HAProxy closes a client's keep-alive connection without any answer (a reset, nothing logged) when
    // a replica dies under a request that is not the first on that connection, so that the client
    // retries it (http_wait_for_response, "abort_keep_alive"); no setting turns that off. Through this
    // in-process hop every request reaches api_inner on a connection of its own, so a dying replica
    // yields api_inner's 502 in the API's error shape, which the hop forwards as an answer.
    'backend api_hop',
    '  # One connection per request (never reused): in api_inner each request is the first on its connection.',
    '  option http-server-close',
    '  retries 0',
    '  # api_inner logs the request (with the client address from the PROXY header).',
    '  http-request set-log-level silent',
    `  # api_inner answers 504 after its own server timeout (${requestTimeoutMs + 1000} ms); a second more to deliver it.`,
    `  timeout server ${requestTimeoutMs + 2000}`,
    '  server hop abns@edge-api-hop send-proxy-v2',
    '',
    'frontend api_inner',
    '  bind abns@edge-api-hop accept-proxy',
    '  unique-id-format %[uuid()]',
    "  # The hop's X-Forwarded-For is replaced by the client address from the PROXY header (src).",
    '  http-request del-header x-forwarded-for',
    '  # METH_GET covers HEAD too.',
    '  http-request disable-l7-retry if !METH_GET !METH_OPTIONS',
    ...(opts.servedByHeader ? ['  http-response set-header x-served-by %s'] : []),
    '  default_backend api',
    '',
  );

  const apiCheck = [
    '  option httpchk',
    '  http-check send meth GET uri /api/health/ready ver HTTP/1.1 hdr host edge-health-check',
    '  http-check expect status 200',
  ];
  add('backend api', '  balance roundrobin', ...apiCheck);
  for (const s of opts.api) add(`  server ${s.name} ${s.address} ${check}`);
  add(
    '',
    'backend socket_io',
    '  # Long-polling clients stay on the replica that holds their session (engine.io sids are per process).',
    '  balance roundrobin',
    `  cookie PLATFORM_SIO insert indirect nocache httponly${opts.secureCookie ? ' secure' : ''} attr SameSite=Lax`,
    `  # A polling GET is held up to Socket.IO's ping interval (${SOCKET_IO_POLL_HOLD_MS / 1000} s) before it is answered.`,
    `  timeout server ${SOCKET_IO_POLL_HOLD_MS + 10_000}`,
    ...(opts.servedByHeader ? ['  http-response set-header x-served-by %s'] : []),
  );
  for (const s of opts.api) add(`  server ${s.name} ${s.address} cookie ${s.name} track api/${s.name}${dns}`);
  add('');
  if (opts.blog) {
    add(
      'backend blog',
      '  option httpchk',
      '  http-check send meth GET uri /blog/ ver HTTP/1.1 hdr host edge-health-check',
      '  http-check expect status 200',
      `  server blog ${opts.blog} check inter 5s fall 2 rise 1${dns}`,
      '',
    );
  }
  if (opts.web) add('backend web', `  server web ${opts.web} check inter 5s${dns}`, '');
  for (const s of opts.healthOnly ?? []) {
    add(`backend ${s.name}`, '  # Health only: never routed to; its state is on the ops page.', ...apiCheck, `  server ${s.name} ${s.address} check inter 2s fall 2 rise 1${dns}`, '');
  }
  if (opts.opsBind) {
    add(
      'frontend ops',
      `  bind ${opts.opsBind}`,
      '  http-request use-service prometheus-exporter if { path /metrics }',
      '  stats enable',
      '  stats uri /stats',
      '  stats refresh 5s',
      '',
    );
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** `--replicas N`: the compose topology (services api-1…api-N, blog, jobs, indexer) on Docker's DNS. */
export function composeConfig(replicas: number): string {
  const expects = [
    `# The services this file expects (compose.yaml): api-1…api-${replicas} (--role api, GENERAL.PORT=3000, TRUSTED_PROXY_CIDRS = this`,
    '# proxy\'s address or network, HTTP.DRAIN_DELAY_MS=2000), blog (--role blog, BLOG_PORT=3001), jobs and indexer (--role jobs /',
    '# --role indexer, HEALTH_PORT=9101). Clients connect on :8080; stats and HAProxy\'s Prometheus exporter are on :8404.',
    '# The edge\'s own environment: APP_URL (the apex origin, no trailing slash), WWW_HOST and LEGACY_NETWORK_HOST (redirected to it).',
  ];
  return `${expects.join('\n')}\n${renderHaproxyConfig({
    bind: ':8080',
    api: Array.from({ length: replicas }, (_, i) => ({ name: `api-${i + 1}`, address: `api-${i + 1}:3000` })),
    blog: 'blog:3001',
    healthOnly: [
      { name: 'jobs', address: 'jobs:9101' },
      { name: 'indexer', address: 'indexer:9101' },
    ],
    opsBind: ':8404',
    dockerDns: true,
    // The edge service's environment (compose.yaml); the defaults match no real host.
    hostRedirects: { apex: '${APP_URL-http://localhost:8080}', hosts: ['${WWW_HOST-www.localhost}', '${LEGACY_NETWORK_HOST-legacy-network-host.invalid}'] },
  })}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--replicas');
  const replicas = at > 0 ? Number(process.argv[at + 1]) : 3;
  if (!Number.isInteger(replicas) || replicas < 1) {
    process.stderr.write('usage: npm run edge:config -- --replicas N\n');
    process.exit(64);
  }
  process.stdout.write(composeConfig(replicas));
}
