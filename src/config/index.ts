import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { readLayeredEnv } from './env-files';
import { withPlatformNodeEnv } from './platform-env';
import { DEFAULT_APP_URL, SETTING_NAMES, settingsSchema, startupSettingsSchema, type Settings } from './settings';
import { normalizeSuiAddress } from '@mysten/sui/utils';
import { toOrigin } from './values';

export { SETTINGS, MAINNET_REQUIRED } from './settings';
export { childProcessEnv, PLATFORM_NODE_ENV } from './platform-env';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * The one configuration: the settings (src/config/settings.ts) grouped by what reads them, with
 * the values derived from several settings (fallbacks, CORS origins, providers present only with
 * their credentials). Its type is inferred from the declarations through `toConfig`.
 */
export type Config = ReturnType<typeof toConfig>;
/** An OAuth 2.0 provider's client registration and endpoints (authorization code + PKCE). */
export type SocialOAuthConfig = NonNullable<Config['social']['chatPlatform']>;
export type NameserviceConfig = Config['chain']['nameservice'];

/**
 * With JWT_SECRET unset (refused in production and on mainnet): a key of this process only, so no
 * key is written in the source. src/main.ts replaces it with the one kept in DATA_DIR
 * (development-secrets.ts); in-process users of loadConfig (tests, scripts) share this one.
 */
const PROCESS_JWT_SECRET = randomBytes(32).toString('hex');

export interface LoadConfigOptions {
  env?: Record<string, string | undefined>;
  envDir?: string;
  /**
   * false: check every value but require nothing. For the CMS and the blog, whose process was
   * started by one that validated fully (src/main.ts or scripts/blog-serve.ts). Default true.
   */
  requireDeploymentSettings?: boolean;
}

/**
 * The one configuration: env files and the environment, parsed by the settings schema. Every
 * problem is collected into one ConfigError (src/main.ts exits 78 with it).
 */
export function loadConfig(opts: LoadConfigOptions = {}): Config {
  const { env: merged, files } = readLayeredEnv(opts.envDir ?? 'env', withPlatformNodeEnv(opts.env ?? process.env));
  const given = (key: string): string | undefined => {
    const v = merged[key]?.trim();
    return v === undefined || v === '' ? undefined : v;
  };
  const input: Record<string, string | undefined> = {};
  const secretValues: string[] = [];
  for (const { name, names, secret } of SETTING_NAMES) {
    const value = names.map(given).find((v) => v !== undefined);
    input[name] = value;
    if (secret && value !== undefined) secretValues.push(value);
  }
  const schema = opts.requireDeploymentSettings === false ? settingsSchema : startupSettingsSchema;
  const result = schema.safeParse(input);
  if (!result.success) {
    const secretNames = new Set(SETTING_NAMES.filter((s) => s.secret).map((s) => s.name));
    throw new ConfigError(
      result.error.issues.map((issue) => {
        const name = issue.path[0];
        if (typeof name !== 'string') return issue.message;
        const value = input[name];
        const quotesItself = issue.code === 'custom' && issue.params?.quotesValue === true;
        const quote = !quotesItself && !secretNames.has(name as never) && value !== undefined;
        const shown = quote ? ` (got "${value}")` : '';
        return `${name}: ${issue.message}${shown}`;
      }),
    );
  }
  return toConfig(result.data, secretValues, files, merged);
}

function toConfig(s: Settings, secretValues: string[], envFiles: string[], sourceEnv: Record<string, string>) {
  // This machine at the port the API listens on (3000 when it is chosen at start, port 0).
  const appUrl = s.APP_URL ?? (s['GENERAL.PORT'] === 0 ? DEFAULT_APP_URL : `http://localhost:${s['GENERAL.PORT']}`);
  const blogUrl = trimSlash(s.BLOG_URL ?? `${trimSlash(appUrl)}/blog`);
  const production = s.NODE_ENV === 'production';
  return {
    nodeEnv: s.NODE_ENV,
    network: s.NETWORK,
    logLevel: s.LOG_LEVEL,
    logFormat: s.LOG_FORMAT,
    dataDir: s.DATA_DIR,
    /** OpenTelemetry traces (src/observability/tracing.ts); undefined: off. */
    tracing: s.OTEL_EXPORTER_OTLP_ENDPOINT === undefined ? undefined : { endpoint: trimSlash(s.OTEL_EXPORTER_OTLP_ENDPOINT), protocol: s.OTEL_EXPORTER_OTLP_PROTOCOL, serviceName: s.OTEL_SERVICE_NAME },
    http: {
      port: s['GENERAL.PORT'],
      // Outside production a developer's instance answers this machine only; containers set 0.0.0.0.
      host: s['GENERAL.HOST'] ?? (production ? '0.0.0.0' : '127.0.0.1'),
      bodyLimitBytes: s['HTTP.BODY_LIMIT_BYTES'],
      requestTimeoutMs: s['HTTP.REQUEST_TIMEOUT_MS'],
      drainDelayMs: s['HTTP.DRAIN_DELAY_MS'],
      healthPort: s.HEALTH_PORT,
      rateLimit: { max: s['HTTP.RATE_LIMIT_MAX'], windowMs: s['HTTP.RATE_LIMIT_WINDOW_MS'] },
      trustedProxyCidrs: s.TRUSTED_PROXY_CIDRS,
      corsOrigins: [...new Set([new URL(appUrl).origin, ...s.CORS_ORIGINS.map((o) => toOrigin(o)!)])],
    },
    /** Bounds on client input every transport applies (src/edge/json-depth.ts). */
    input: { jsonMaxDepth: s['INPUT.JSON_MAX_DEPTH'] },
    graphql: {
      maxDepth: s['GRAPHQL.MAX_DEPTH'],
      maxAliases: s['GRAPHQL.MAX_ALIASES'],
      maxCost: s['GRAPHQL.MAX_COST'],
      introspection: s['GRAPHQL.INTROSPECTION'] ?? (!production && s.NETWORK !== 'mainnet'),
      /** GraphiQL on GET /graphql from a browser, served from the installed package (src/graphql/ide); production keeps Apollo's page. */
      ide: !production,
    },
    quests: { claimRateLimit: { max: s['QUESTS.CLAIM_RATE_LIMIT_MAX'], windowMs: s['QUESTS.CLAIM_RATE_LIMIT_WINDOW_MS'] } },
    /** Per-wallet chat limits (CHAT.*), shared across replicas. */
    chat: {
      messagesPerWindow: s['CHAT.MESSAGE_RATE_LIMIT_MAX'],
      messagesPerIpPerWindow: s['CHAT.MESSAGE_IP_RATE_LIMIT_MAX'],
      reactionsPerWindow: s['CHAT.REACTION_RATE_LIMIT_MAX'],
      windowMs: s['CHAT.RATE_LIMIT_WINDOW_MS'],
      typingDebounceMs: s['CHAT.TYPING_DEBOUNCE_MS'],
      reportsPerWindow: s['CHAT.REPORT_RATE_LIMIT_MAX'],
      historyRetentionDays: s['CHAT.HISTORY_RETENTION_DAYS'],
    },
    /** Websocket gateway caps (WEBSOCKET.*): connections per service, IP and wallet; events per connection, and per service, IP and wallet. */
    websocket: {
      perService: s['WEBSOCKET.CONNECTIONS_MAX'],
      perIp: s['WEBSOCKET.CONNECTIONS_PER_IP_MAX'],
      perWallet: s['WEBSOCKET.CONNECTIONS_PER_WALLET_MAX'],
      eventsPerWindow: s['WEBSOCKET.EVENT_RATE_LIMIT_MAX'],
      eventWindowMs: s['WEBSOCKET.EVENT_RATE_LIMIT_WINDOW_MS'],
      eventsPerIp: s['WEBSOCKET.EVENT_RATE_LIMIT_PER_IP_MAX'],
      eventsPerWallet: s['WEBSOCKET.EVENT_RATE_LIMIT_PER_WALLET_MAX'],
      eventsPerService: s['WEBSOCKET.EVENT_RATE_LIMIT_SERVICE_MAX'],
      abuseFactor: s['WEBSOCKET.EVENT_ABUSE_FACTOR'],
      maxEventBytes: s['WEBSOCKET.EVENT_MAX_BYTES'],
      maxPayloadBytes: s['WEBSOCKET.PAYLOAD_MAX_BYTES'],
      roomsPerConnection: s['WEBSOCKET.ROOMS_PER_CONNECTION_MAX'],
    },
    databaseUrl: s.DATABASE_URL,
    databaseDirectUrl: s['DATABASE.DIRECT_URL'],
    databaseStatementTimeoutMs: s['DATABASE.STATEMENT_TIMEOUT_MS'],
    jwt: { secret: s.JWT_SECRET ?? PROCESS_JWT_SECRET, issuer: s.JWT_ISSUER, generated: !s.JWT_SECRET },
    auth: {
      domain: s['AUTH.DOMAIN'] ?? new URL(appUrl).host,
      appUrl: trimSlash(appUrl),
      challengeTtlSeconds: s['AUTH.CHALLENGE_TTL_SECONDS'],
      challengeRateLimit: { max: s['AUTH.CHALLENGE_RATE_LIMIT_MAX'], windowMs: s['AUTH.CHALLENGE_RATE_LIMIT_WINDOW_MS'] },
      accessTtlSeconds: s['AUTH.ACCESS_TTL_SECONDS'],
      refreshTtlSeconds: s['AUTH.REFRESH_TTL_SECONDS'],
      emailTokenTtlSeconds: s['AUTH.EMAIL_TOKEN_TTL_SECONDS'],
      zkLogin: {
        issuer: s['AUTH.ZKLOGIN_ISSUER'],
        jwksUrl: s['AUTH.ZKLOGIN_JWKS_URL'],
        clientIds: [s['AUTH.ZKLOGIN_CLIENT_ID_WEB'], s['AUTH.ZKLOGIN_CLIENT_ID_MOBILE']].filter((v): v is string => v !== undefined),
        serviceUrl: trimSlash(s['AUTH.ZKLOGIN_SERVICE_URL']),
        serviceKey: s['AUTH.ZKLOGIN_SERVICE_KEY'],
      },
    },
    social: {
      chatPlatform: socialOAuth(s, 'CHAT_PLATFORM'),
      chatRelayWebhookUrl: s['SOCIAL.CHAT_PLATFORM.RELAY_WEBHOOK_URL'],
      socialNetwork: socialOAuth(s, 'SOCIAL_NETWORK'),
      messagingPlatform: s['SOCIAL.MESSAGING_PLATFORM.BOT_TOKEN']
        ? { botToken: s['SOCIAL.MESSAGING_PLATFORM.BOT_TOKEN'], maxAgeSeconds: s['SOCIAL.MESSAGING_PLATFORM.MAX_AGE_SECONDS'] }
        : undefined,
    },
    smtp: s.SMTP_HOST ? smtpConfig(s, s.SMTP_HOST, appUrl) : undefined,
    analytics: s['GENERAL.ANALYTICS_PROPERTY_ID']
      ? {
          propertyId: s['GENERAL.ANALYTICS_PROPERTY_ID'],
          keyFile: s['ANALYTICS.KEY_FILE'],
          apiUrl: trimSlash(s['ANALYTICS.API_URL']),
          tokenUrl: s['ANALYTICS.TOKEN_URL'],
          cacheTtlMs: s['ANALYTICS.CACHE_TTL_MS'],
        }
      : undefined,
    operatorToken: s.OPERATOR_TOKEN,
    operatorWallets: s.OPERATOR_WALLETS.map((a) => normalizeSuiAddress(a.toLowerCase())),
    welcomeWheel: { maxReward: s['GENERAL.WELCOME_WHEEL_MAX_REWARD'], poolId: s['CHAIN.WELCOME_WHEEL_POOL_ID'] },
    onramps: {
      a:
        s['ONRAMP_A.API_KEY'] && s['ONRAMP_A.SECRET_KEY']
          ? { widgetUrl: s['ONRAMP_A.WIDGET_URL'], apiKey: s['ONRAMP_A.API_KEY'], secretKey: s['ONRAMP_A.SECRET_KEY'] }
          : undefined,
      b:
        s['ONRAMP_B.API_KEY_ID'] && s['ONRAMP_B.API_KEY_SECRET']
          ? { tokenUrl: s['ONRAMP_B.TOKEN_URL'], apiKeyId: s['ONRAMP_B.API_KEY_ID'], apiKeySecret: s['ONRAMP_B.API_KEY_SECRET'] }
          : undefined,
    },
    store: {
      // An address alone means Redis; an explicit CACHE_STORE=memory wins (the store warns that it ignores the address).
      cacheStore: s.CACHE_STORE ?? (s.SHARED_STORE_URL || s.SHARED_STORE_HOST ? 'redis' : 'memory'),
      url: s.SHARED_STORE_URL,
      host: s.SHARED_STORE_HOST,
      port: s.SHARED_STORE_PORT,
      db: s.SHARED_STORE_DB,
      username: s.SHARED_STORE_USERNAME,
      password: s.SHARED_STORE_PASSWORD,
      keyPrefix: s.SHARED_STORE_KEY_PREFIX,
      replicas: s.SHARED_STORE_REPLICAS,
      callTimeoutMs: s.SHARED_STORE_CALL_TIMEOUT_MS,
    },
    chain: {
      packageId: s.PLATFORM_PACKAGE_ID,
      transport: s['CHAIN.SUI_TRANSPORT'],
      suiUrl: s['CHAIN.SUI_URL'],
      writer: {
        privateKey: s['CHAIN.BACKEND_WALLET_PRIVATE_KEY'],
        gasCeiling: s['CHAIN.WRITE_GAS_CEILING'],
        gasMarginPercent: s['CHAIN.WRITE_GAS_MARGIN_PERCENT'],
        timeoutMs: s['CHAIN.WRITE_TIMEOUT_MS'],
        maxAttempts: s['CHAIN.WRITE_MAX_ATTEMPTS'],
        backoffBaseMs: s['CHAIN.WRITE_BACKOFF_BASE_MS'],
        backoffMaxMs: s['CHAIN.WRITE_BACKOFF_MAX_MS'],
      },
      giveaways: {
        autoSettlementDisabled: s['CHAIN.GIVEAWAY_AUTO_SETTLEMENT_DISABLED'],
        graceMs: s['CHAIN.GIVEAWAY_SETTLEMENT_GRACE_MS'],
        batchSize: s['CHAIN.GIVEAWAY_SETTLEMENT_BATCH_SIZE'],
        cron: s['JOBS.GIVEAWAY_SETTLEMENT_CRON'],
      },
      nameservice: {
        parentDomain: s['CHAIN.NAMESERVICE_PARENT_DOMAIN'],
        parentNftId: s['CHAIN.NAMESERVICE_PARENT_NFT_ID'],
        minVipLevel: s['CHAIN.NAMESERVICE_MIN_VIP_LEVEL'],
        expirationDays: s['CHAIN.NAMESERVICE_SUBNAME_EXPIRATION_DAYS'],
        suinsObjectId: s['CHAIN.NAMESERVICE_SUINS_OBJECT_ID'],
        subdomainsPackageId: s['CHAIN.NAMESERVICE_SUBDOMAINS_PACKAGE_ID'],
      },
    },
    indexer: { disabled: s.INDEXER_DISABLED, pollingIntervalMs: s.POLLING_INTERVAL_MS },
    prices: { apiUrl: trimSlash(s['CHAIN.PRICE_API_URL']), apiKey: s['CHAIN.PRICE_API_KEY'], staleAfterSeconds: s['PRICES.STALE_AFTER_SECONDS'], snapshotRetentionDays: s['PRICES.SNAPSHOT_RETENTION_DAYS'] },
    gifts: { ipCheckUrl: trimSlash(s['GENERAL.IPCHECK_URL']), ipCheckKey: s['GENERAL.IPCHECK_API_KEY'], ipDailyLimit: s['GIFTS.IP_DAILY_LIMIT'] },
    jobs: {
      pricePollCron: s['JOBS.PRICE_POLL_CRON'],
      giftResetCron: s['JOBS.GIFT_RESET_CRON'],
      archiveCron: s['JOBS.ARCHIVE_CRON'],
      purgeCron: s['JOBS.PURGE_CRON'],
      runSampleWindowMs: s['JOBS.RUN_SAMPLE_WINDOW_SECONDS'] * 1000,
      slowRunMs: s['JOBS.SLOW_RUN_MS'],
      runHotDays: s['JOBS.RUN_HOT_DAYS'],
      archiveDir: s['JOBS.ARCHIVE_DIR'] ?? join(s.DATA_DIR, 'archive', 'ops-job-run'),
    },
    surfaces: {
      network: s.NETWORK,
      appUrl: trimSlash(appUrl),
      blogUrl,
      docsUrl: trimSlash(s.DOCS_URL ?? `${trimSlash(appUrl)}/docs`),
      houseUrl: s.HOUSE_URL === undefined ? undefined : trimSlash(s.HOUSE_URL),
    },
    blog: {
      port: s.BLOG_PORT,
      appUrl,
      blogUrl,
      revalidateUrl: s.BLOG_REVALIDATE_URL ?? `${blogUrl}/api/revalidate/`,
      upstreamUrl: s.BLOG_UPSTREAM_URL === undefined ? undefined : trimSlash(s.BLOG_UPSTREAM_URL),
      /** The blog process the API reads posts from and forwards the webhook to (services/blog). */
      cmsUrl: trimSlash(s.BLOG_CMS_URL ?? s.BLOG_UPSTREAM_URL ?? `http://127.0.0.1:${s.BLOG_PORT}`),
      databaseUrl: s.BLOG_DATABASE_URL,
      dbPush: s.BLOG_DB_PUSH,
      distDir: s.BLOG_DIST_DIR,
      buildOnStart: s.BLOG_BUILD_ON_START,
      revalidationSecret: s.BLOG_REVALIDATION_SECRET,
      webhookSecret: s.WEBHOOK_SECRET,
      payloadSecret: s.PAYLOAD_SECRET,
      publishCi: {
        token: s.BLOG_PUBLISH_CI_TOKEN,
        apiUrl: trimSlash(s.BLOG_PUBLISH_CI_API_URL),
        repo: s.BLOG_PUBLISH_CI_REPO,
        workflow: s.BLOG_PUBLISH_CI_WORKFLOW,
        ref: s.BLOG_PUBLISH_CI_REF,
      },
      social: { chatUrl: s.BLOG_SOCIAL_CHAT_URL, messagingUrl: s.BLOG_SOCIAL_MESSAGING_URL, networkUrl: s.BLOG_SOCIAL_NETWORK_URL },
      media: {
        maxBytes: s.BLOG_MEDIA_MAX_BYTES,
        timeoutMs: s.BLOG_MEDIA_FETCH_TIMEOUT_MS,
        allowPrivateHosts: !production && s.BLOG_MEDIA_ALLOW_PRIVATE_HOSTS,
      },
      smtp: s.SMTP_HOST ? smtpConfig(s, s.SMTP_HOST, appUrl) : undefined,
    },
    secretValues,
    envFiles,
    sourceEnv,
  };
}

function smtpConfig(s: Settings, host: string, appUrl: string) {
  const appHost = new URL(appUrl).hostname;
  return {
    host,
    port: s.SMTP_PORT,
    secure: s.SMTP_SECURE ?? s.SMTP_PORT === 465,
    user: s.SMTP_USER,
    password: s.SMTP_PASSWORD,
    from: s.SMTP_FROM ?? `Platform Blog <blog@${appHost.includes('.') ? appHost : 'localhost.localdomain'}>`,
  };
}

function socialOAuth(s: Settings, p: 'CHAT_PLATFORM' | 'SOCIAL_NETWORK') {
  const clientId = s[`SOCIAL.${p}.CLIENT_ID`];
  const clientSecret = s[`SOCIAL.${p}.CLIENT_SECRET`];
  if (!clientId || !clientSecret) return undefined;
  return {
    clientId,
    clientSecret,
    authorizationUrl: s[`SOCIAL.${p}.AUTHORIZATION_URL`],
    tokenUrl: s[`SOCIAL.${p}.TOKEN_URL`],
    userinfoUrl: s[`SOCIAL.${p}.USERINFO_URL`],
    scopes: s[`SOCIAL.${p}.SCOPES`].split(/[\s,]+/).filter(Boolean),
  };
}

const trimSlash = (v: string): string => v.replace(/\/+$/, '');
