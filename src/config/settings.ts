import cron from 'node-cron';
import { z } from 'zod';
import { bool, int, isCidr, isLoopbackUrl, list, oneOf, port, suiObjectId, text, toOrigin, url } from './values';
import { parseStoreAddress } from './store-address';
import { isPgBouncerUrl } from './database-url';

/**
 * Every setting the backend, the CMS and the blog read, declared once: its name (the spec's,
 * `GENERAL.PORT`), its schema (type, checks, default), its description (the docs/settings.md table is
 * generated from these: `npm run settings:docs`) and, when it has no default, what being unset
 * means. The shell-friendly form (`GENERAL_PORT`) is the name with dots replaced by underscores;
 * `aliases` are conventional names accepted too (the setting's own name wins). `secret` values
 * are never quoted in errors and are scrubbed from logs.
 */
export interface SettingDef<S extends z.ZodType = z.ZodType> {
  schema: S;
  description: string;
  /** What an unset optional setting means, for the default column of docs/settings.md. */
  unset?: string;
  secret?: true;
  aliases?: readonly string[];
}

type Extra = Omit<SettingDef, 'schema' | 'description'>;
const setting = <S extends z.ZodType>(schema: S, description: string, extra: Extra = {}): SettingDef<S> => ({ schema, description, ...extra });
const secret = <S extends z.ZodType>(schema: S, description: string, extra: Extra = {}): SettingDef<S> => ({ schema, description, secret: true, ...extra });
const cronExpression = () => text().refine((v) => cron.validate(v), { error: 'is not a cron expression' });
const storeAddress = () =>
  z.string().superRefine((value, ctx) => {
    try {
      parseStoreAddress(value);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
    }
  });

const NETWORKS = ['mainnet', 'testnet', 'devnet', 'localnet'] as const;
export const DEFAULT_APP_URL = 'http://localhost:3000';

export const SETTINGS = {
  NODE_ENV: setting(oneOf(['development', 'production', 'test']).default('development'), '`development`, `production` or `test`; selects env files. Production requires `JWT_SECRET` and `PAYLOAD_SECRET` and turns introspection off.'),
  NETWORK: setting(oneOf(NETWORKS).default('testnet'), '`mainnet`, `testnet`, `devnet` or `localnet`; selects env files. `mainnet` makes the public surfaces indexable (anything else blocks robots), turns introspection off and requires the settings listed above.'),
  LOG_LEVEL: setting(oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'), 'pino level (`fatal` … `trace`, `silent`).'),
  LOG_FORMAT: setting(oneOf(['json', 'pretty']).optional(), '`json` (one JSON object a line) or `pretty` (one readable line an event, colours on a terminal).', { unset: '`pretty` on a terminal, else `json`' }),
  DATA_DIR: setting(text().default('./.data'), 'Embedded databases (PGlite in `pglite/`, the blog\'s SQLite `blog.db`, media) and generated development secrets.'),

  'GENERAL.PORT': setting(port().default(3000), 'API listener port.'),
  'GENERAL.HOST': setting(text().optional(), 'API listener address (containers and compose set `0.0.0.0`).', { unset: '`0.0.0.0` with `NODE_ENV=production`, else `127.0.0.1` (this machine only)' }),
  'HTTP.BODY_LIMIT_BYTES': setting(int({ min: 1 }).default(1024 * 1024), 'Largest request body (`413 PAYLOAD_TOO_LARGE` beyond).'),
  'INPUT.JSON_MAX_DEPTH': setting(int({ min: 1 }).default(64), 'Deepest nesting of arrays and objects accepted in client JSON: request bodies (REST and GraphQL), GraphQL `variables` and `extensions` on GET, graphql-ws messages and Socket.IO event payloads. Deeper is refused (`400 VALIDATION_FAILED`, `details.setting` naming this; on a websocket, that operation or event alone).'),
  'HTTP.REQUEST_TIMEOUT_MS': setting(int({ min: 1 }).default(5000), 'A request unanswered after this long gets `503 REQUEST_TIMEOUT`.'),
  'HTTP.DRAIN_DELAY_MS': setting(int({ min: 0 }).default(0), 'After `SIGTERM`, how long the API keeps serving while `/api/health/ready` answers 503, so the edge takes it out before it drains (the cluster uses 2000: two health checks).'),
  OTEL_EXPORTER_OTLP_ENDPOINT: setting(url().optional(), 'OpenTelemetry traces: the OTLP/HTTP receiver (a collector, Jaeger, Tempo) every process sends its spans to, at `<endpoint>/v1/traces`; incoming W3C `traceparent` headers are continued. docs/operations.md, "Traces".', { unset: 'tracing off (the SDK is not even loaded)' }),
  OTEL_EXPORTER_OTLP_PROTOCOL: setting(oneOf(['http/protobuf', 'http/json']).default('http/protobuf'), 'The OTLP encoding of the spans sent to `OTEL_EXPORTER_OTLP_ENDPOINT`.'),
  OTEL_SERVICE_NAME: setting(text().optional(), 'The `service.name` resource attribute of the spans this process sends.', { unset: '`platform-<roles>` (e.g. `platform-api`), the blog process `platform-blog`' }),
  HEALTH_PORT: setting(port().optional(), 'A process without the `api` role serves Prometheus metrics at `/metrics` on this port (jobs, indexer, blog), and `/api/health` and `/api/health/ready` (jobs, indexer). Keep it private: the edge never routes to it.', { unset: 'none' }),
  'HTTP.RATE_LIMIT_MAX': setting(int({ min: 1 }).default(300), 'Admission: requests per window per client IP and per verified wallet.'),
  'HTTP.RATE_LIMIT_WINDOW_MS': setting(int({ min: 1 }).default(60_000), 'Admission window.'),
  'QUESTS.CLAIM_RATE_LIMIT_MAX': setting(int({ min: 1 }).default(10), 'Quest claims per wallet per window (REST and GraphQL together), on top of admission.'),
  'QUESTS.CLAIM_RATE_LIMIT_WINDOW_MS': setting(int({ min: 1 }).default(60_000), 'Quest claim window.'),
  'CHAT.MESSAGE_RATE_LIMIT_MAX': setting(int({ min: 1 }).default(10), 'Chat messages per wallet per window, across replicas and both websocket transports.'),
  'CHAT.MESSAGE_IP_RATE_LIMIT_MAX': setting(int({ min: 1 }).default(300), 'Chat messages per client IP per window (`CHAT.RATE_LIMIT_WINDOW_MS`), whatever the wallet, across replicas and both websocket transports.'),
  'CHAT.REACTION_RATE_LIMIT_MAX': setting(int({ min: 1 }).default(30), 'Chat reactions per wallet per window.'),
  'CHAT.RATE_LIMIT_WINDOW_MS': setting(int({ min: 1 }).default(10_000), 'Window of the two per-wallet chat limits.'),
  'CHAT.REPORT_RATE_LIMIT_MAX': setting(int({ min: 1 }).default(5), 'Chat message reports (`POST /api/chat/reports`, `reportChatMessage`) per wallet per `CHAT.RATE_LIMIT_WINDOW_MS`.'),
  'CHAT.HISTORY_RETENTION_DAYS': setting(int({ min: 1 }).default(90), 'Chat messages (and their reactions) older than this are deleted by the purge job (`JOBS.PURGE_CRON`).'),
  'CHAT.TYPING_DEBOUNCE_MS': setting(int({ min: 1 }).default(3_000), 'A wallet\'s typing in a room is broadcast at most once per this many ms (the rest are absorbed).'),
  'WEBSOCKET.CONNECTIONS_MAX': setting(int({ min: 1 }).default(10_000), 'Websocket connections (graphql-ws and Socket.IO together) across all replicas; more are refused.'),
  'WEBSOCKET.CONNECTIONS_PER_IP_MAX': setting(int({ min: 1 }).default(20), 'Websocket connections per client IP across all replicas.'),
  'WEBSOCKET.CONNECTIONS_PER_WALLET_MAX': setting(int({ min: 1 }).default(5), 'Websocket connections per verified wallet across all replicas.'),
  'WEBSOCKET.EVENT_RATE_LIMIT_MAX': setting(int({ min: 1 }).default(60), 'Events (operations, Socket.IO events) one connection may send per window; more are refused one by one (`RATE_LIMITED`).'),
  'WEBSOCKET.EVENT_RATE_LIMIT_WINDOW_MS': setting(int({ min: 1 }).default(10_000), 'Window of the per-connection event limit.'),
  'WEBSOCKET.EVENT_RATE_LIMIT_PER_IP_MAX': setting(int({ min: 1 }).default(600), 'Events all connections of one client IP may send per `WEBSOCKET.EVENT_RATE_LIMIT_WINDOW_MS`, both transports on every replica together (counted in the shared store); more are refused one by one (`RATE_LIMITED`, `details.scope` `events-ip`).'),
  'WEBSOCKET.EVENT_RATE_LIMIT_PER_WALLET_MAX': setting(int({ min: 1 }).default(180), 'Events all connections of one verified wallet may send per window, both transports on every replica together (`events-wallet`).'),
  'WEBSOCKET.EVENT_RATE_LIMIT_SERVICE_MAX': setting(int({ min: 1 }).default(200_000), 'Events the whole gateway (every replica, both transports) accepts per window (`events-service`).'),
  'WEBSOCKET.EVENT_ABUSE_FACTOR': setting(int({ min: 1 }).default(4), 'A connection sending more than this many times its event limit in one window is closed.'),
  'WEBSOCKET.EVENT_MAX_BYTES': setting(int({ min: 1 }).default(8 * 1024), 'Largest event accepted; a larger one is refused (`PAYLOAD_TOO_LARGE`) and the connection stays.'),
  'WEBSOCKET.PAYLOAD_MAX_BYTES': setting(int({ min: 1 }).default(16 * 1024), 'Largest websocket frame or Socket.IO packet: beyond it the transport closes the connection.'),
  'WEBSOCKET.ROOMS_PER_CONNECTION_MAX': setting(int({ min: 1 }).default(10), 'Chat rooms one Socket.IO connection may be in at once.'),
  TRUSTED_PROXY_CIDRS: setting(list({ check: isCidr, message: (v) => `"${v}" is not an IP address or CIDR range` }).default([]), 'Comma-separated ranges whose `X-Forwarded-For` (and `X-Forwarded-Proto`) is honoured.'),
  CORS_ORIGINS: setting(
    list({ check: (v) => toOrigin(v) !== null, message: (v) => `"${v}" is not an origin (scheme://host[:port], http or https, no path)` }).default([]),
    'Comma-separated browser origins (`https://play.example.com`) allowed to call `/graphql` and `/api/*` cross-origin with credentials, besides `APP_URL`\'s origin; anything but an http(s) origin stops start-up.',
  ),
  'GRAPHQL.MAX_DEPTH': setting(int({ min: 1 }).default(10), 'Deepest GraphQL selection accepted.'),
  'GRAPHQL.MAX_ALIASES': setting(int({ min: 0 }).default(20), 'Most aliases in one GraphQL document.'),
  'GRAPHQL.MAX_COST': setting(int({ min: 1 }).default(5000), 'Highest estimated cost of one GraphQL operation.'),
  'GRAPHQL.INTROSPECTION': setting(bool().optional(), 'Force introspection on or off.', { unset: 'on, except in production and on mainnet' }),

  DATABASE_URL: secret(url().optional(), 'PostgreSQL. Behind PgBouncer in transaction mode add `pgbouncer=true` (see *Managed Redis and PgBouncer*).', { unset: 'embedded PGlite' }),
  'DATABASE.STATEMENT_TIMEOUT_MS': setting(int({ min: 0 }).default(30_000), 'PostgreSQL `statement_timeout` of the API/indexer pool (0 = none), behind per-request query cancellation.'),
  'DATABASE.DIRECT_URL': secret(url().optional(), 'A session connection to PostgreSQL (never a transaction-mode pooler) for migrations and advisory-lock leases; required when `DATABASE_URL` has `pgbouncer=true`.', { unset: '`DATABASE_URL`' }),
  JWT_SECRET: secret(text().min(32, { error: 'must be at least 32 characters' }).optional(), 'HS256 signing key (≥ 32 chars).', { unset: 'a development key generated once into `DATA_DIR/.jwt-secret` (refused in production and on mainnet)' }),
  JWT_ISSUER: setting(text().default('platform-backend'), 'JWT issuer.'),

  'AUTH.DOMAIN': setting(text().optional(), 'The domain named in the wallet login message.', { unset: '`APP_URL`\'s host' }),
  'AUTH.CHALLENGE_TTL_SECONDS': setting(int({ min: 10 }).default(300), 'Lifetime of a login challenge.'),
  'AUTH.CHALLENGE_RATE_LIMIT_MAX': setting(int({ min: 1 }).default(60), 'Login challenges per client IP per window (REST and GraphQL together, across replicas), on top of admission.'),
  'AUTH.CHALLENGE_RATE_LIMIT_WINDOW_MS': setting(int({ min: 1 }).default(60_000), 'Login challenge window.'),
  'AUTH.ACCESS_TTL_SECONDS': setting(int({ min: 10 }).default(900), 'Lifetime of an access token.'),
  'AUTH.REFRESH_TTL_SECONDS': setting(int({ min: 60 }).default(30 * 24 * 3600), 'Lifetime of a refresh token (renewed on each refresh).'),
  'AUTH.EMAIL_TOKEN_TTL_SECONDS': setting(int({ min: 60 }).default(24 * 3600), 'Lifetime of an email-verification link.'),
  'AUTH.ZKLOGIN_ISSUER': setting(url().default('https://accounts.google.com'), 'OpenID issuer whose ID tokens zkLogin accepts.'),
  'AUTH.ZKLOGIN_JWKS_URL': setting(url().optional(), 'The issuer\'s signing keys.', { unset: 'named by the issuer\'s discovery document' }),
  'AUTH.ZKLOGIN_CLIENT_ID_WEB': setting(text().optional(), 'Identity-provider client ID of the web app; an ID token\'s audience must be one of the two client IDs.'),
  'AUTH.ZKLOGIN_CLIENT_ID_MOBILE': setting(text().optional(), 'Identity-provider client ID of the mobile app.'),
  'AUTH.ZKLOGIN_SERVICE_URL': setting(url().default('https://api.enoki.mystenlabs.com'), 'The zkLogin salt and address service.'),
  'AUTH.ZKLOGIN_SERVICE_KEY': secret(text().optional(), 'The zkLogin service\'s key.'),

  'SOCIAL.CHAT_PLATFORM.CLIENT_ID': setting(text().optional(), 'Chat platform account linking (OAuth 2.0 client); without ID and secret the provider is offered as "not configured".'),
  'SOCIAL.CHAT_PLATFORM.CLIENT_SECRET': secret(text().optional(), 'Chat platform OAuth 2.0 client secret.'),
  'SOCIAL.CHAT_PLATFORM.AUTHORIZATION_URL': setting(url().default('https://discord.com/oauth2/authorize'), 'Chat platform authorization endpoint.'),
  'SOCIAL.CHAT_PLATFORM.TOKEN_URL': setting(url().default('https://discord.com/api/oauth2/token'), 'Chat platform token endpoint.'),
  'SOCIAL.CHAT_PLATFORM.USERINFO_URL': setting(url().default('https://discord.com/api/users/@me'), 'Chat platform user endpoint.'),
  'SOCIAL.CHAT_PLATFORM.SCOPES': setting(text().default('identify'), 'Chat platform scopes (space- or comma-separated).'),
  'SOCIAL.CHAT_PLATFORM.RELAY_WEBHOOK_URL': secret(url().optional(), 'Incoming webhook the global chat room is relayed to (carries the platform\'s token).', { unset: 'no relay' }),
  'SOCIAL.SOCIAL_NETWORK.CLIENT_ID': setting(text().optional(), 'Social network account linking (OAuth 2.0 client with PKCE); without ID and secret the provider is offered as "not configured".'),
  'SOCIAL.SOCIAL_NETWORK.CLIENT_SECRET': secret(text().optional(), 'Social network OAuth 2.0 client secret.'),
  'SOCIAL.SOCIAL_NETWORK.AUTHORIZATION_URL': setting(url().default('https://x.com/i/oauth2/authorize'), 'Social network authorization endpoint.'),
  'SOCIAL.SOCIAL_NETWORK.TOKEN_URL': setting(url().default('https://api.x.com/2/oauth2/token'), 'Social network token endpoint.'),
  'SOCIAL.SOCIAL_NETWORK.USERINFO_URL': setting(url().default('https://api.x.com/2/users/me'), 'Social network user endpoint.'),
  'SOCIAL.SOCIAL_NETWORK.SCOPES': setting(text().default('users.read tweet.read'), 'Social network scopes (space- or comma-separated).'),
  'SOCIAL.MESSAGING_PLATFORM.BOT_TOKEN': secret(text().optional(), 'Messaging platform bot token, which checks signed login payloads; unset: the provider is offered as "not configured".'),
  'SOCIAL.MESSAGING_PLATFORM.MAX_AGE_SECONDS': setting(int({ min: 60 }).default(24 * 3600), 'How old a signed messaging-platform login payload (its `auth_date`) may be.'),

  'GENERAL.ANALYTICS_PROPERTY_ID': setting(text().regex(/^\d+$/, { error: 'must be the numeric property ID' }).optional(), 'Analytics property for live actives (Analytics Data API realtime report).', { unset: 'live actives answer `SERVICE_UNAVAILABLE`' }),
  'ANALYTICS.KEY_FILE': setting(text().optional(), 'Service-account key file.', { unset: 'application default credentials' }),
  'ANALYTICS.API_URL': setting(url().default('https://analyticsdata.googleapis.com'), 'Analytics Data API root.'),
  'ANALYTICS.TOKEN_URL': setting(url().optional(), 'OAuth 2.0 token endpoint of the service account.', { unset: 'Google\'s' }),
  'ANALYTICS.CACHE_TTL_MS': setting(int({ min: 0 }).default(30_000), 'How long a live-actives answer is reused.'),
  OPERATOR_WALLETS: setting(
    list({ check: (v) => /^0x[0-9a-fA-F]{1,64}$/.test(v), message: (v) => `"${v}" is not a Sui address (0x and up to 64 hex digits)` }).default([]),
    'Comma-separated Sui addresses that are operators by setting (they log in with the wallet login; they grant and revoke the role of other wallets through `/api/admin/operators`).',
  ),
  OPERATOR_TOKEN: secret(text().min(32, { error: 'must be at least 32 characters' }).optional(), 'Bearer secret (≥ 32 chars) of the operator routes.', { unset: 'those routes answer 401' }),
  'GENERAL.WELCOME_WHEEL_MAX_REWARD': setting(int({ min: 0 }).default(1000), 'The welcome wheel never pays more.'),
  'ONRAMP_A.WIDGET_URL': setting(url().default('https://buy.moonpay.com'), 'On-ramp A (signed widget URLs): the widget origin.'),
  'ONRAMP_A.API_KEY': setting(text().optional(), 'On-ramp A publishable key; with its secret key unset the on-ramp answers 503.'),
  'ONRAMP_A.SECRET_KEY': secret(text().optional(), 'On-ramp A key that signs widget URLs.'),
  'ONRAMP_B.TOKEN_URL': setting(url().default('https://api.developer.coinbase.com/onramp/v1/token'), 'On-ramp B (session tokens): the token endpoint.'),
  'ONRAMP_B.API_KEY_ID': setting(text().optional(), 'On-ramp B API key id; with its secret unset the on-ramp answers 503.'),
  'ONRAMP_B.API_KEY_SECRET': secret(text().optional(), 'On-ramp B secret API key (ES256 PEM or Ed25519 base64).'),

  PLATFORM_PACKAGE_ID: setting(text().default('0x0000000000000000000000000000000000000000000000000000000000000000'), 'Package whose events the indexer follows.'),
  POLLING_INTERVAL_MS: setting(int({ min: 10 }).default(2000), 'Indexer polling interval.'),
  INDEXER_DISABLED: setting(bool().default(false), 'When true, the indexer does not start (tests, one-off tasks).'),
  'CHAIN.SUI_TRANSPORT': setting(oneOf(['graphql', 'grpc']).default('graphql'), 'How the chain is read and written: `graphql` or `grpc`.'),
  'CHAIN.SUI_URL': setting(url().optional(), 'Sui RPC endpoint.', { unset: 'the indexer does not start and nothing is written' }),
  'CHAIN.PRICE_API_KEY': secret(text().optional(), 'Key of the price source (CoinGecko `simple/price` format).', { unset: 'no poll; `/api/price` answers `SERVICE_UNAVAILABLE`' }),
  'CHAIN.PRICE_API_URL': setting(url().default('https://pro-api.coingecko.com'), 'The price source.'),
  'CHAIN.BACKEND_WALLET_PRIVATE_KEY': secret(text().refine((v) => v.startsWith('suiprivkey1'), { error: 'must be a Sui private key (suiprivkey1…)' }).optional(), 'The signing wallet of chain writes, `suiprivkey…` (see *Chain writes*).', { unset: 'nothing is written' }),
  'CHAIN.WRITE_GAS_CEILING': setting(
    int({ min: 1 }).default(100_000_000),
    'Highest gas budget of one write, MIST. Each write\'s budget is its dry run\'s gas plus `CHAIN.WRITE_GAS_MARGIN_PERCENT`; a write that needs more fails (`gas ceiling: …`) and is not sent.',
    { aliases: ['CHAIN.WRITE_GAS_BUDGET', 'CHAIN_WRITE_GAS_BUDGET'] },
  ),
  'CHAIN.WRITE_GAS_MARGIN_PERCENT': setting(int({ min: 0, max: 1000 }).default(20), 'Added to the dry run\'s gas (computation + storage) for a write\'s budget, percent.'),
  'CHAIN.WRITE_TIMEOUT_MS': setting(int({ min: 1 }).default(30_000), 'How long one execute call may take before its outcome counts as unknown.'),
  'CHAIN.WRITE_MAX_ATTEMPTS': setting(int({ min: 1 }).default(8), 'Attempts of a write whose node calls fail transiently (network, timeout, 5xx) before it is `failed`; a write already submitted is looked up by digest until resolved instead.'),
  'CHAIN.WRITE_BACKOFF_BASE_MS': setting(int({ min: 1 }).default(1_000), 'Wait after a write\'s first transient failure; doubled after each further one.'),
  'CHAIN.WRITE_BACKOFF_MAX_MS': setting(int({ min: 1 }).default(60_000), 'Longest wait between two attempts of a write.'),
  'CHAIN.GIVEAWAY_AUTO_SETTLEMENT_DISABLED': setting(bool().default(false), 'Turns the giveaway settlement job off.'),
  'CHAIN.GIVEAWAY_SETTLEMENT_GRACE_MS': setting(int({ min: 0 }).default(60_000), 'How long after its end a giveaway is settled.'),
  'CHAIN.GIVEAWAY_SETTLEMENT_BATCH_SIZE': setting(int({ min: 1 }).default(20), 'Giveaways settled per run.'),
  'CHAIN.NAMESERVICE_PARENT_DOMAIN': setting(
    text()
      .regex(/^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+sui$/, { error: 'must be a SuiNS name such as platform.sui (lowercase labels, ending in .sui)' })
      .optional(),
    'Name-service parent (`platform.sui`): a player at or above the minimum VIP level claims one `<label>.<parent>`. Any of the parent, its NFT, the SuiNS object and the subdomains package unset: claims answer `SERVICE_UNAVAILABLE`.',
  ),
  'CHAIN.NAMESERVICE_PARENT_NFT_ID': setting(suiObjectId().optional(), 'The parent name\'s SuinsRegistration NFT, held by the backend wallet.'),
  'CHAIN.NAMESERVICE_MIN_VIP_LEVEL': setting(int({ min: 0 }).default(1), 'Lowest VIP level that may claim a sub-name.'),
  'CHAIN.NAMESERVICE_SUBNAME_EXPIRATION_DAYS': setting(int({ min: 1 }).default(365), 'Lifetime of an issued sub-name.'),
  // Not in the spec: the SuiNS SDK reads them from its per-network config.
  'CHAIN.NAMESERVICE_SUINS_OBJECT_ID': setting(suiObjectId().optional(), 'SuiNS\'s shared `SuiNS` object (sub-names are issued through `subdomains::new`).'),
  'CHAIN.NAMESERVICE_SUBDOMAINS_PACKAGE_ID': setting(suiObjectId().optional(), 'The package of SuiNS\'s `subdomains` module.'),
  // Not in the spec (it names no payout transaction): see docs/decisions.md, Welcome-wheel payouts.
  'CHAIN.WELCOME_WHEEL_POOL_ID': setting(
    suiObjectId().optional(),
    'The shared `welcome_wheel::WheelPool` of `PLATFORM_PACKAGE_ID` that pays welcome-wheel rewards (`welcome_wheel::payout`, through the chain writer).',
    { unset: 'spins are recorded and their payout stays `pending`' },
  ),
  'JOBS.GIVEAWAY_SETTLEMENT_CRON': setting(cronExpression().default('* * * * *'), 'Schedule of the giveaway settlement job (node-cron, UTC).'),
  'PRICES.STALE_AFTER_SECONDS': setting(int({ min: 1 }).default(600), 'A price older than this is served with `stale: true` (two poll intervals).'),
  'PRICES.SNAPSHOT_RETENTION_DAYS': setting(int({ min: 1 }).default(30), 'Price snapshots older than this are deleted by the purge job (the newest of each asset is always kept).'),
  'JOBS.PRICE_POLL_CRON': setting(cronExpression().default('*/5 * * * *'), 'Schedule of the price poll (node-cron, optional seconds field, UTC).'),
  'JOBS.GIFT_RESET_CRON': setting(cronExpression().default('0 0 * * *'), 'Schedule of the gift counter reset.'),
  'JOBS.ARCHIVE_CRON': setting(cronExpression().default('30 3 * * *'), 'Schedule of the run-log archive.'),
  'JOBS.PURGE_CRON': setting(cronExpression().default('17 * * * *'), 'Schedule of the purge jobs: expired login challenges and refresh tokens, chat history and price snapshots past their retention.'),
  'JOBS.RUN_SAMPLE_WINDOW_SECONDS': setting(int({ min: 1 }).default(300), 'Run log: routine successes are kept once per job per window.'),
  'JOBS.SLOW_RUN_MS': setting(int({ min: 0 }).default(10_000), 'Run log: runs slower than this are all kept.'),
  'JOBS.RUN_HOT_DAYS': setting(int({ min: 1 }).default(14), 'Run-log rows older than this are moved to gzip NDJSON archives, then pruned.'),
  'JOBS.ARCHIVE_DIR': setting(text().optional(), 'Where run-log archives are written.', { unset: '`DATA_DIR/archive/ops-job-run`' }),
  'GENERAL.IPCHECK_API_KEY': secret(text().optional(), 'Key of the anti-proxy IP check for gifts (proxycheck.io v2 format; 1.5 s budget, a failure lets the gift through).', { unset: 'gifts are served without the check' }),
  'GENERAL.IPCHECK_URL': setting(url().default('https://proxycheck.io'), 'The anti-proxy service.'),
  'GIFTS.IP_DAILY_LIMIT': setting(int({ min: 1 }).default(1), 'Gifts one client IP may receive per project per day (the project\'s quota is its schedule\'s `dailyQuota`).'),

  // No default: a Redis address alone selects redis, none selects memory (see index.ts).
  CACHE_STORE: setting(oneOf(['redis', 'memory']).optional(), 'Force a backend: `memory` next to an address runs per process and logs a warning that the address is ignored; `redis` without an address refuses to start.', { unset: '`redis` when an address is set, else `memory`' }),
  SHARED_STORE_URL: setting(
    storeAddress().optional(),
    'Redis, which shares counters, presence and broadcasts across replicas: `redis://`, `rediss://`, `redis-sentinel://h1:26379,h2:26379/master` or `redis-cluster://h1:7000,h2:7001` (see *Managed Redis and PgBouncer*). Setting an address is enough. Unreachable → per-process state and one warning.',
    { secret: true, aliases: ['REDIS_URL'], unset: '`REDIS_URL`, else the host settings below' },
  ),
  SHARED_STORE_HOST: setting(text().optional(), 'Redis host, when no address is given.'),
  SHARED_STORE_PORT: setting(int({ min: 1, max: 65535 }).default(6379), 'Redis port (with `SHARED_STORE_HOST`).'),
  SHARED_STORE_DB: setting(int({ min: 0 }).default(0), 'Redis database index (with `SHARED_STORE_HOST`).'),
  SHARED_STORE_USERNAME: setting(text().optional(), 'Redis user (with `SHARED_STORE_HOST`).'),
  SHARED_STORE_PASSWORD: secret(text().optional(), 'Redis password (with `SHARED_STORE_HOST`).'),
  SHARED_STORE_KEY_PREFIX: setting(text().default('platform:'), 'Key namespace in Redis.'),
  SHARED_STORE_CALL_TIMEOUT_MS: setting(
    int({ min: 1 }).default(500),
    'Longest wait for one shared-store call: a call Redis has not answered by then is served as during an outage (per-process memory, the cache missing) and the outage begins at once, so a frozen Redis never holds a request longer.',
  ),
  SHARED_STORE_REPLICAS: setting(
    int({ min: 1 }).optional(),
    'Replicas sharing the store. During a Redis outage each replica admits `HTTP.RATE_LIMIT_MAX / replicas` per client, continuing from the last count Redis gave it. Set with `CACHE_STORE=memory`, each process admits its share too.',
    { unset: 'the API replicas seen by a heartbeat in Redis (jobs and indexer processes do not count; one that never reached Redis counts 1)' },
  ),

  APP_URL: setting(url().optional(), 'Public URL of the app; its origin is allowed by CORS and the blog lives under it (`BLOG_URL`, and through it the revalidation the CMS calls after a publish, default from it).', { unset: '`http://localhost:<GENERAL.PORT>` (3000 when the port is 0; refused on mainnet)' }),
  BLOG_URL: setting(url().optional(), 'Public blog root.', { unset: '`APP_URL` + `/blog`' }),
  DOCS_URL: setting(url().optional(), 'Docs root, for the web surfaces: the API serves `/sitemap_index.xml` (app, blog and docs sitemaps on mainnet, none elsewhere), the app sitemap `/sitemap.xml`, `/robots.txt` (per network), `/llms.txt` and the 301s of the legacy app routes at its root; `npm run surfaces:audit` checks a deployment against the rules in `src/surfaces/shared/` (the audit is `scripts/surfaces-audit/`).', { unset: '`APP_URL` + `/docs`' }),
  HOUSE_URL: setting(url().optional(), 'The secondary (house) site\'s root.', { unset: 'the deployment has none' }),
  BLOG_PORT: setting(port().default(3001), 'The blog process\'s port.'),
  BLOG_UPSTREAM_URL: setting(url().optional(), 'Where the API proxies `/blog` to (e.g. `--role api` with the blog on another host).', { unset: 'the blog process on `BLOG_PORT` when it runs in the same platform, else `/blog` is not served by the API' }),
  BLOG_CMS_URL: setting(url().optional(), 'Where the API reads the published posts and forwards the partner webhook: the blog process (its Next server, which holds the CMS), on loopback by default. The API process loads no CMS.', { unset: '`BLOG_UPSTREAM_URL` when set, else `http://127.0.0.1:` + `BLOG_PORT`' }),
  BLOG_DATABASE_URL: secret(url().optional(), 'Blog content in PostgreSQL.', { unset: 'SQLite in `DATA_DIR`' }),
  BLOG_DB_PUSH: setting(bool().default(false), 'Development knob: Payload pushes its schema itself (migrations otherwise).'),
  BLOG_DIST_DIR: setting(text().default('.next'), 'Next\'s build directory inside `blog/` (tests run a second server from a copy of one build).'),
  BLOG_BUILD_CACHE: setting(oneOf(['on', 'off']).default('on'), '`off` builds the blog without Turbopack\'s build cache (read by `blog/next.config.mjs`): a first build costs about a quarter less CPU, a rebuild after a small change about three times more. CI and the image set `off`: every build of theirs is a first one.'),
  BLOG_BUILD_OUTPUT: setting(oneOf(['server', 'standalone']).default('server'), '`standalone` makes the blog build self-contained (Next\'s `output: \'standalone\'`: the server and only the files it reads, read by `blog/next.config.mjs`): what the image ships. The blog role then runs that build\'s `server.js` instead of `next start`.'),
  BLOG_BUILD_ON_START: setting(bool().default(true), 'The blog role builds the site at start when no current build exists. `false` (the image): serve the build that is there, never build, and refuse to start without one (exit 70).'),
  BLOG_REVALIDATION_SECRET: secret(text().optional(), 'Secret of the blog\'s revalidation endpoint.', { unset: 'generated in development (`DATA_DIR/.revalidation-secret`)' }),
  BLOG_REVALIDATE_URL: setting(url().optional(), 'Where the CMS calls the blog\'s revalidation after a publish.', { unset: '`BLOG_URL` + `/api/revalidate/`' }),
  WEBHOOK_SECRET: secret(text().optional(), 'Bearer secret of the partner webhook.', { unset: 'generated in development (`DATA_DIR/.webhook-secret`)' }),
  PAYLOAD_SECRET: secret(text().optional(), 'The CMS\'s secret.', { unset: 'generated into `DATA_DIR` (not on mainnet)' }),
  BLOG_PUBLISH_CI_TOKEN: secret(text().optional(), 'With a token, a publish also dispatches the CI rebuild of the static blog snapshot.', { unset: 'no dispatch' }),
  BLOG_PUBLISH_CI_API_URL: setting(url().default('https://api.github.com'), 'The CI\'s API root.'),
  BLOG_PUBLISH_CI_REPO: setting(text().default('platform/web'), 'Repository of the blog snapshot workflow.'),
  BLOG_PUBLISH_CI_WORKFLOW: setting(text().default('blog-publish.yml'), 'The workflow dispatched.'),
  BLOG_PUBLISH_CI_REF: setting(text().default('main'), 'The ref the workflow runs on.'),
  BLOG_SOCIAL_CHAT_URL: setting(url().default('https://discord.gg/platform'), 'Chat link in the blog\'s footer and call to action.'),
  BLOG_SOCIAL_MESSAGING_URL: setting(url().default('https://t.me/platform'), 'Messaging link in the blog\'s footer and call to action.'),
  BLOG_SOCIAL_NETWORK_URL: setting(url().default('https://x.com/platform'), 'Social network link in the blog\'s footer and call to action.'),
  BLOG_MEDIA_MAX_BYTES: setting(int({ min: 1 }).default(5 * 1024 * 1024), 'Largest partner image fetched into the media collection.'),
  BLOG_MEDIA_FETCH_TIMEOUT_MS: setting(int({ min: 1 }).default(5000), 'Time budget of one partner image fetch.'),
  BLOG_MEDIA_ALLOW_PRIVATE_HOSTS: setting(bool().default(false), 'Partner images from loopback/private hosts (test fixtures); ignored when `NODE_ENV=production` (the platform\'s, which the blog process is handed: `next start` runs it under its own NODE_ENV).'),

  SMTP_HOST: setting(text().optional(), 'Mail server of editor mail (password resets) and email verification.', { unset: 'no mail is sent (each mail is logged instead)' }),
  SMTP_PORT: setting(int({ min: 1, max: 65535 }).default(587), 'Mail server port.'),
  SMTP_SECURE: setting(bool().optional(), 'TLS from the first byte (else STARTTLS when the server offers it).', { unset: 'on for port 465' }),
  SMTP_USER: setting(text().optional(), 'Mail server user.'),
  SMTP_PASSWORD: secret(text().optional(), 'Mail server password.'),
  SMTP_FROM: setting(text().optional(), 'Sender of the mails.', { unset: '`Platform Blog <blog@<APP_URL host>>`' }),
} as const satisfies Record<string, SettingDef>;

export type SettingName = keyof typeof SETTINGS;

const shape = Object.fromEntries(Object.entries(SETTINGS).map(([name, def]) => [name, def.schema])) as {
  [K in SettingName]: (typeof SETTINGS)[K]['schema'];
};

// Rules between settings run even when a setting failed (`when`), so one error lists every
// problem; they only compare values, which are then still the given strings.
const always = { when: () => true };

/** Each setting's value and the rules between settings; no setting is required here. */
export const settingsSchema = z.object(shape).superRefine((s, ctx) => {
  if (s.CACHE_STORE === 'redis' && !s.SHARED_STORE_URL && !s.SHARED_STORE_HOST) {
    ctx.addIssue({ code: 'custom', path: [], message: 'CACHE_STORE=redis needs SHARED_STORE_URL (or REDIS_URL) or SHARED_STORE_HOST' });
  }
  if (s.DATABASE_URL && isPgBouncerUrl(s.DATABASE_URL) && !s['DATABASE.DIRECT_URL']) {
    ctx.addIssue({ code: 'custom', path: [], message: 'DATABASE_URL with pgbouncer=true needs DATABASE_DIRECT_URL: migrations and leader leases hold session-level advisory locks, which a transaction-mode pooler cannot keep' });
  }
}, always);

export type Settings = z.output<typeof settingsSchema>;

/** What a deployment must set before any role starts (the CMS and blog, validated by their starter, skip this). */
export const startupSettingsSchema = settingsSchema.superRefine((s, ctx) => {
  for (const message of requiredSettingsProblems(s)) ctx.addIssue({ code: 'custom', path: [], message });
}, always);

/** Settings mainnet refuses to start without: the public URL and every secret a role signs or checks with. */
export const MAINNET_REQUIRED = ['APP_URL', 'JWT_SECRET', 'PAYLOAD_SECRET', 'WEBHOOK_SECRET', 'BLOG_REVALIDATION_SECRET'] as const;
const PRODUCTION_REQUIRED = ['JWT_SECRET', 'PAYLOAD_SECRET'] as const;

function requiredSettingsProblems(s: Settings): string[] {
  const mainnet = s.NETWORK === 'mainnet';
  const production = s.NODE_ENV === 'production';
  const problems: string[] = [];
  for (const name of new Set([...(mainnet ? MAINNET_REQUIRED : []), ...(production ? PRODUCTION_REQUIRED : [])])) {
    if (s[name] !== undefined) continue;
    const when = [mainnet && (MAINNET_REQUIRED as readonly string[]).includes(name) ? 'on mainnet' : '', production && (PRODUCTION_REQUIRED as readonly string[]).includes(name) ? 'when NODE_ENV=production' : ''];
    const hint = name === 'APP_URL' ? ': the public URL of the app (not a loopback host)' : '';
    problems.push(`${name} is required ${when.filter(Boolean).join(' and ')}${hint}`);
  }
  if (mainnet && s.APP_URL !== undefined && isLoopbackUrl(s.APP_URL)) {
    problems.push(`APP_URL must be the public URL of the app on mainnet, not a loopback host (got "${s.APP_URL}")`);
  }
  return problems;
}

const shellName = (name: string) => name.replace(/\./g, '_');

/** Each setting's secret flag and accepted names, in lookup order. */
export const SETTING_NAMES: { name: SettingName; names: string[]; secret: boolean }[] = Object.entries(SETTINGS).map(([name, def]) => {
  const d = def as SettingDef;
  return { name: name as SettingName, names: [name, shellName(name), ...(d.aliases ?? [])], secret: d.secret === true };
});
