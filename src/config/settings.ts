import cron from 'node-cron';
import { z } from 'zod';
import { bool, int, isCidr, isLoopbackUrl, list, oneOf, port, suiObjectId, text, toOrigin, url } from './values';
import { parseStoreAddress } from './store-address';
import { isPgBouncerUrl } from './database-url';

/**
 * Every setting the backend, the CMS and the blog read, under the spec's name (`GENERAL.PORT`),
 * as one zod schema. The shell-friendly form (`GENERAL_PORT`) is the name with dots replaced by
 * underscores; `aliases` are conventional names accepted too (the setting's own name wins).
 * `secret` values are never quoted in errors and are scrubbed from logs.
 */
interface SettingDef<S extends z.ZodType = z.ZodType> {
  schema: S;
  secret?: true;
  aliases?: readonly string[];
}

const setting = <S extends z.ZodType>(schema: S, extra: Omit<SettingDef, 'schema'> = {}): SettingDef<S> => ({ schema, ...extra });
const secret = <S extends z.ZodType>(schema: S): SettingDef<S> => ({ schema, secret: true });
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
  NODE_ENV: setting(oneOf(['development', 'production', 'test']).default('development')),
  NETWORK: setting(oneOf(NETWORKS).default('testnet')),
  LOG_LEVEL: setting(oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
  DATA_DIR: setting(text().default('./.data')),

  'GENERAL.PORT': setting(port().default(3000)),
  'GENERAL.HOST': setting(text().default('0.0.0.0')),
  'HTTP.BODY_LIMIT_BYTES': setting(int({ min: 1 }).default(1024 * 1024)),
  'HTTP.REQUEST_TIMEOUT_MS': setting(int({ min: 1 }).default(5000)),
  /** After SIGTERM, how long the API keeps serving while /api/health/ready says 503, so the edge stops routing to it before it drains. */
  'HTTP.DRAIN_DELAY_MS': setting(int({ min: 0 }).default(0)),
  /** A process without the api role (jobs, indexer) serves /api/health and /api/health/ready on this port; unset: none. */
  HEALTH_PORT: setting(port().optional()),
  'HTTP.RATE_LIMIT_MAX': setting(int({ min: 1 }).default(300)),
  'HTTP.RATE_LIMIT_WINDOW_MS': setting(int({ min: 1 }).default(60_000)),
  /** Quest claims per wallet per window (src/services/quests/service.ts), on top of the HTTP admission limits. */
  'QUESTS.CLAIM_RATE_LIMIT_MAX': setting(int({ min: 1 }).default(10)),
  'QUESTS.CLAIM_RATE_LIMIT_WINDOW_MS': setting(int({ min: 1 }).default(60_000)),
  TRUSTED_PROXY_CIDRS: setting(list({ check: isCidr, message: (v) => `"${v}" is not an IP address or CIDR range` }).default([])),
  /** Browser origins (besides APP_URL's) allowed to call the API cross-origin. */
  CORS_ORIGINS: setting(
    list({ check: (v) => toOrigin(v) !== null, message: (v) => `"${v}" is not an origin (scheme://host[:port], http or https, no path)` }).default([]),
  ),
  'GRAPHQL.MAX_DEPTH': setting(int({ min: 1 }).default(10)),
  'GRAPHQL.MAX_ALIASES': setting(int({ min: 0 }).default(20)),
  'GRAPHQL.MAX_COST': setting(int({ min: 1 }).default(5000)),
  /** Unset: on, except in production and on mainnet. */
  'GRAPHQL.INTROSPECTION': setting(bool().optional()),

  DATABASE_URL: secret(url().optional()),
  'DATABASE.STATEMENT_TIMEOUT_MS': setting(int({ min: 0 }).default(30_000)),
  /** Session connection (never a transaction-mode pooler) for migrations and advisory-lock leases. Unset: DATABASE_URL. Required when DATABASE_URL has `pgbouncer=true`. */
  'DATABASE.DIRECT_URL': secret(url().optional()),
  /** Unset outside production and mainnet: a fixed development-only key (see index.ts). */
  JWT_SECRET: secret(text().min(32, { error: 'must be at least 32 characters' }).optional()),
  JWT_ISSUER: setting(text().default('platform-backend')),

  /** Host named in the wallet login message. Unset: APP_URL's host. */
  'AUTH.DOMAIN': setting(text().optional()),
  'AUTH.CHALLENGE_TTL_SECONDS': setting(int({ min: 10 }).default(300)),
  'AUTH.ACCESS_TTL_SECONDS': setting(int({ min: 10 }).default(900)),
  'AUTH.REFRESH_TTL_SECONDS': setting(int({ min: 60 }).default(30 * 24 * 3600)),
  'AUTH.EMAIL_TOKEN_TTL_SECONDS': setting(int({ min: 60 }).default(24 * 3600)),
  /** OpenID issuer whose ID tokens zkLogin accepts. */
  'AUTH.ZKLOGIN_ISSUER': setting(url().default('https://accounts.google.com')),
  /** Unset: the issuer's discovery document names it. */
  'AUTH.ZKLOGIN_JWKS_URL': setting(url().optional()),
  /** The two identity-provider client IDs (web and mobile apps) an ID token's audience must be one of. */
  'AUTH.ZKLOGIN_CLIENT_ID_WEB': setting(text().optional()),
  'AUTH.ZKLOGIN_CLIENT_ID_MOBILE': setting(text().optional()),
  'AUTH.ZKLOGIN_SERVICE_URL': setting(url().default('https://api.enoki.mystenlabs.com')),
  'AUTH.ZKLOGIN_SERVICE_KEY': secret(text().optional()),

  /** Social account linking (src/providers/social-*.ts): a provider without credentials is offered as "not configured". */
  'SOCIAL.CHAT_PLATFORM.CLIENT_ID': setting(text().optional()),
  'SOCIAL.CHAT_PLATFORM.CLIENT_SECRET': secret(text().optional()),
  'SOCIAL.CHAT_PLATFORM.AUTHORIZATION_URL': setting(url().default('https://discord.com/oauth2/authorize')),
  'SOCIAL.CHAT_PLATFORM.TOKEN_URL': setting(url().default('https://discord.com/api/oauth2/token')),
  'SOCIAL.CHAT_PLATFORM.USERINFO_URL': setting(url().default('https://discord.com/api/users/@me')),
  'SOCIAL.CHAT_PLATFORM.SCOPES': setting(text().default('identify')),
  /** Incoming webhook the global chat room is relayed to (src/providers/chat-platform.ts); unset: no relay. Carries the platform's token. */
  'SOCIAL.CHAT_PLATFORM.RELAY_WEBHOOK_URL': secret(url().optional()),
  'SOCIAL.SOCIAL_NETWORK.CLIENT_ID': setting(text().optional()),
  'SOCIAL.SOCIAL_NETWORK.CLIENT_SECRET': secret(text().optional()),
  'SOCIAL.SOCIAL_NETWORK.AUTHORIZATION_URL': setting(url().default('https://x.com/i/oauth2/authorize')),
  'SOCIAL.SOCIAL_NETWORK.TOKEN_URL': setting(url().default('https://api.x.com/2/oauth2/token')),
  'SOCIAL.SOCIAL_NETWORK.USERINFO_URL': setting(url().default('https://api.x.com/2/users/me')),
  'SOCIAL.SOCIAL_NETWORK.SCOPES': setting(text().default('users.read tweet.read')),
  'SOCIAL.MESSAGING_PLATFORM.BOT_TOKEN': secret(text().optional()),
  /** How old a signed login payload (its auth_date) may be. */
  'SOCIAL.MESSAGING_PLATFORM.MAX_AGE_SECONDS': setting(int({ min: 60 }).default(24 * 3600)),

  /** Analytics property for live actives (src/providers/analytics.ts); unset: live actives answer SERVICE_UNAVAILABLE. */
  'GENERAL.ANALYTICS_PROPERTY_ID': setting(text().regex(/^\d+$/, { error: 'must be the numeric property ID' }).optional()),
  /** Service-account key file; unset: application default credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud, metadata server). */
  'ANALYTICS.KEY_FILE': setting(text().optional()),
  'ANALYTICS.API_URL': setting(url().default('https://analyticsdata.googleapis.com')),
  /** Unset: Google's OAuth 2.0 token endpoint (tests point it at a fixture). */
  'ANALYTICS.TOKEN_URL': setting(url().optional()),
  'ANALYTICS.CACHE_TTL_MS': setting(int({ min: 0 }).default(30_000)),
  /** Bearer token of the operator-only routes (cache statistics and clear); unset: those routes answer 401. */
  OPERATOR_TOKEN: secret(text().min(32, { error: 'must be at least 32 characters' }).optional()),
  /** Highest reward the welcome wheel pays (src/services/welcome-wheel/service.ts). */
  'GENERAL.WELCOME_WHEEL_MAX_REWARD': setting(int({ min: 0 }).default(1000)),
  /** On-ramp A (signed widget URLs): the widget origin, its publishable key and the secret that signs. */
  'ONRAMP_A.WIDGET_URL': setting(url().default('https://buy.moonpay.com')),
  'ONRAMP_A.API_KEY': setting(text().optional()),
  'ONRAMP_A.SECRET_KEY': secret(text().optional()),
  /** On-ramp B (session tokens): the token endpoint and the secret API key (ES256 PEM or Ed25519 base64). */
  'ONRAMP_B.TOKEN_URL': setting(url().default('https://api.developer.coinbase.com/onramp/v1/token')),
  'ONRAMP_B.API_KEY_ID': setting(text().optional()),
  'ONRAMP_B.API_KEY_SECRET': secret(text().optional()),

  PLATFORM_PACKAGE_ID: setting(text().default('0x0000000000000000000000000000000000000000000000000000000000000000')),
  POLLING_INTERVAL_MS: setting(int({ min: 10 }).default(2000)),
  INDEXER_DISABLED: setting(bool().default(false)),
  'CHAIN.SUI_TRANSPORT': setting(oneOf(['graphql', 'grpc']).default('graphql')),
  'CHAIN.SUI_URL': setting(url().optional()),
  /** Price source (src/providers/price-source.ts, CoinGecko's pro API format). Unset key: no poll, /api/price answers SERVICE_UNAVAILABLE. */
  'CHAIN.PRICE_API_KEY': secret(text().optional()),
  'CHAIN.PRICE_API_URL': setting(url().default('https://pro-api.coingecko.com')),
  /** Chain writer (src/services/chain-writer/service.ts): the signing wallet, `suiprivkey…`; unset: no writes. */
  'CHAIN.BACKEND_WALLET_PRIVATE_KEY': secret(text().refine((v) => v.startsWith('suiprivkey1'), { error: 'must be a Sui private key (suiprivkey1…)' }).optional()),
  /** Gas budget of each write, MIST, and how long one execute call may take before its outcome counts as unknown. */
  'CHAIN.WRITE_GAS_BUDGET': setting(int({ min: 1 }).default(100_000_000)),
  'CHAIN.WRITE_TIMEOUT_MS': setting(int({ min: 1 }).default(30_000)),
  /** Giveaway settlement job (src/jobs/giveaway-settlement.ts). */
  'CHAIN.GIVEAWAY_AUTO_SETTLEMENT_DISABLED': setting(bool().default(false)),
  'CHAIN.GIVEAWAY_SETTLEMENT_GRACE_MS': setting(int({ min: 0 }).default(60_000)),
  'CHAIN.GIVEAWAY_SETTLEMENT_BATCH_SIZE': setting(int({ min: 1 }).default(20)),
  /**
   * Name-service sub-names (src/services/nameservice/service.ts): a player at or above MIN_VIP_LEVEL claims one
   * `<label>.<PARENT_DOMAIN>`, issued from the parent's NFT (held by the backend wallet) through SuiNS's
   * `subdomains::new` (SUINS_OBJECT_ID, SUBDOMAINS_PACKAGE_ID: not in the spec; the SuiNS SDK reads them
   * from its per-network config). Any of the four names or ids unset: claims answer SERVICE_UNAVAILABLE.
   */
  'CHAIN.NAMESERVICE_PARENT_DOMAIN': setting(
    text()
      .regex(/^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+sui$/, { error: 'must be a SuiNS name such as platform.sui (lowercase labels, ending in .sui)' })
      .optional(),
  ),
  'CHAIN.NAMESERVICE_PARENT_NFT_ID': setting(suiObjectId().optional()),
  'CHAIN.NAMESERVICE_MIN_VIP_LEVEL': setting(int({ min: 0 }).default(1)),
  'CHAIN.NAMESERVICE_SUBNAME_EXPIRATION_DAYS': setting(int({ min: 1 }).default(365)),
  'CHAIN.NAMESERVICE_SUINS_OBJECT_ID': setting(suiObjectId().optional()),
  'CHAIN.NAMESERVICE_SUBDOMAINS_PACKAGE_ID': setting(suiObjectId().optional()),
  'JOBS.GIVEAWAY_SETTLEMENT_CRON': setting(text().refine((v) => cron.validate(v), { error: 'is not a cron expression' }).default('* * * * *')),
  /** A price older than this is served with `stale: true` (two poll intervals). */
  'PRICES.STALE_AFTER_SECONDS': setting(int({ min: 1 }).default(600)),
  /** Jobs role schedules (node-cron expressions, optional seconds field; UTC). */
  'JOBS.PRICE_POLL_CRON': setting(text().refine((v) => cron.validate(v), { error: 'is not a cron expression' }).default('*/5 * * * *')),
  'JOBS.GIFT_RESET_CRON': setting(text().refine((v) => cron.validate(v), { error: 'is not a cron expression' }).default('0 0 * * *')),
  'JOBS.ARCHIVE_CRON': setting(text().refine((v) => cron.validate(v), { error: 'is not a cron expression' }).default('30 3 * * *')),
  /** Run log (src/services/ops/job-runs.ts): routine successes are sampled once per job per window; slower ones are all kept. */
  'JOBS.RUN_SAMPLE_WINDOW_SECONDS': setting(int({ min: 1 }).default(300)),
  'JOBS.SLOW_RUN_MS': setting(int({ min: 0 }).default(10_000)),
  /** Run-log rows older than this are moved to gzip NDJSON archives (src/services/ops/job-run-archive.ts). */
  'JOBS.RUN_HOT_DAYS': setting(int({ min: 1 }).default(14)),
  /** Unset: `${DATA_DIR}/archive/ops-job-run`. */
  'JOBS.ARCHIVE_DIR': setting(text().optional()),
  /** Anti-proxy IP check for gifts (src/providers/ip-check.ts, proxycheck.io v2 format). Unset key: gifts are served without the check. */
  'GENERAL.IPCHECK_API_KEY': secret(text().optional()),
  'GENERAL.IPCHECK_URL': setting(url().default('https://proxycheck.io')),
  /** Gifts one client IP may receive per project per day (the project's quota is its schedule's dailyQuota). */
  'GIFTS.IP_DAILY_LIMIT': setting(int({ min: 1 }).default(1)),

  // No default: a Redis address alone selects redis, none selects memory (see index.ts).
  CACHE_STORE: setting(oneOf(['redis', 'memory']).optional()),
  /** redis://, rediss://, redis-sentinel://h1:26379,h2:26379/master or redis-cluster://h1:7000,h2:7001 (src/config/store-address.ts). */
  SHARED_STORE_URL: setting(storeAddress().optional(), { secret: true, aliases: ['REDIS_URL'] }),
  SHARED_STORE_HOST: setting(text().optional()),
  SHARED_STORE_PORT: setting(int({ min: 1, max: 65535 }).default(6379)),
  SHARED_STORE_DB: setting(int({ min: 0 }).default(0)),
  SHARED_STORE_USERNAME: setting(text().optional()),
  SHARED_STORE_PASSWORD: secret(text().optional()),
  SHARED_STORE_KEY_PREFIX: setting(text().default('platform:')),
  /** Replicas sharing the store; during a Redis outage each grants 1/n of a limit. Unset: counted by heartbeat. */
  SHARED_STORE_REPLICAS: setting(int({ min: 1 }).optional()),

  /** Unset: http://localhost:3000 (refused on mainnet, see requiredSettingsProblems). */
  APP_URL: setting(url().optional()),
  /** Unset: APP_URL + /blog. */
  BLOG_URL: setting(url().optional()),
  /** Unset: APP_URL + /docs (the shared sitemap index lists `{DOCS_URL}/sitemap.xml`). */
  DOCS_URL: setting(url().optional()),
  /** The secondary (house) site's root; unset: the deployment has none. */
  HOUSE_URL: setting(url().optional()),
  BLOG_PORT: setting(port().default(3001)),
  /** Where the API proxies `/blog` to. Unset: the blog process on BLOG_PORT when it runs in the same platform, else no proxy. */
  BLOG_UPSTREAM_URL: setting(url().optional()),
  BLOG_DATABASE_URL: secret(url().optional()),
  BLOG_DB_PUSH: setting(bool().default(false)),
  /** Load the blog CMS in the API process before it listens and open (and migrate) it right after, so the first webhook or blog read does not wait for it; false loads and opens it on first use. */
  BLOG_CMS_OPEN_AT_START: setting(bool().default(true)),
  /** Next's build directory inside blog/ (tests run a second server from a copy of one build). */
  BLOG_DIST_DIR: setting(text().default('.next')),
  BLOG_REVALIDATION_SECRET: secret(text().optional()),
  /** Unset: BLOG_URL + /api/revalidate/. */
  BLOG_REVALIDATE_URL: setting(url().optional()),
  WEBHOOK_SECRET: secret(text().optional()),
  PAYLOAD_SECRET: secret(text().optional()),
  BLOG_PUBLISH_CI_TOKEN: secret(text().optional()),
  BLOG_PUBLISH_CI_API_URL: setting(url().default('https://api.github.com')),
  BLOG_PUBLISH_CI_REPO: setting(text().default('platform/web')),
  BLOG_PUBLISH_CI_WORKFLOW: setting(text().default('blog-publish.yml')),
  BLOG_PUBLISH_CI_REF: setting(text().default('main')),
  BLOG_SOCIAL_CHAT_URL: setting(url().default('https://discord.gg/platform')),
  BLOG_SOCIAL_MESSAGING_URL: setting(url().default('https://t.me/platform')),
  BLOG_SOCIAL_NETWORK_URL: setting(url().default('https://x.com/platform')),
  BLOG_MEDIA_MAX_BYTES: setting(int({ min: 1 }).default(5 * 1024 * 1024)),
  BLOG_MEDIA_FETCH_TIMEOUT_MS: setting(int({ min: 1 }).default(5000)),
  /** Partner images from loopback/private hosts (test fixtures); ignored when NODE_ENV=production. */
  BLOG_MEDIA_ALLOW_PRIVATE_HOSTS: setting(bool().default(false)),

  /** Unset: no mail is sent (each mail is logged instead). */
  SMTP_HOST: setting(text().optional()),
  SMTP_PORT: setting(int({ min: 1, max: 65535 }).default(587)),
  /** Unset: TLS from the first byte on port 465, STARTTLS otherwise. */
  SMTP_SECURE: setting(bool().optional()),
  SMTP_USER: setting(text().optional()),
  SMTP_PASSWORD: secret(text().optional()),
  /** Unset: `Platform Blog <blog@<APP_URL host>>`. */
  SMTP_FROM: setting(text().optional()),
} as const satisfies Record<string, SettingDef>;

type SettingName = keyof typeof SETTINGS;

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
