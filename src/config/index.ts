import { SETTINGS, shellName, type SettingDef } from './settings';
import { readLayeredEnv } from './env-files';

export { SETTINGS, shellName } from './settings';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

type Parsed = string | number | boolean | string[] | undefined;

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  network: 'mainnet' | 'testnet' | 'devnet' | 'localnet';
  logLevel: string;
  dataDir: string;
  http: {
    port: number;
    host: string;
    bodyLimitBytes: number;
    requestTimeoutMs: number;
    rateLimit: { max: number; windowMs: number };
    trustedProxyCidrs: string[];
    /** CORS allow-list: APP_URL's origin plus CORS_ORIGINS, as serialized origins. */
    corsOrigins: string[];
  };
  graphql: { maxDepth: number; maxAliases: number; maxCost: number; introspection: boolean };
  databaseUrl?: string;
  /** PostgreSQL `statement_timeout` of the API/indexer pool (0 = none): the safety net behind per-request query cancellation. */
  databaseStatementTimeoutMs: number;
  jwt: { secret: string; issuer: string; generated: boolean };
  store: {
    cacheStore: 'redis' | 'memory';
    url?: string;
    host?: string;
    port: number;
    db: number;
    username?: string;
    password?: string;
    keyPrefix: string;
    /** Configured replica count (else counted by heartbeat), for limit shares during an outage. */
    replicas?: number;
  };
  chain: {
    packageId: string;
    transport: 'graphql' | 'grpc';
    suiUrl?: string;
    backendWalletPrivateKey?: string;
    priceApiKey?: string;
    priceApiUrl?: string;
    giveaway: { autoSettlementDisabled: boolean; graceMs: number; batchSize: number };
  };
  indexer: { disabled: boolean; pollingIntervalMs: number };
  blog: {
    port: number;
    appUrl: string;
    blogUrl: string;
    databaseUrl?: string;
    revalidationSecret?: string;
    webhookSecret?: string;
    publishCiToken?: string;
    payloadSecret?: string;
  };
  /** Raw values by spec name, for settings without a dedicated field. */
  raw: Record<string, Parsed>;
  /** Every secret value in force, for log redaction. */
  secretValues: string[];
  envFiles: string[];
}

/** Fixed development-only signing key, refused in production (see decisions.md). */
const DEV_JWT_SECRET = 'development-only-jwt-secret-not-for-production-use';

export function loadConfig(opts: { env?: Record<string, string | undefined>; envDir?: string } = {}): Config {
  const { env: merged, files } = readLayeredEnv(opts.envDir ?? 'env', opts.env ?? process.env);
  const lookup = (name: string): string | undefined => {
    const v = merged[name] ?? merged[shellName(name)];
    return v === undefined || v === '' ? undefined : v;
  };
  const problems: string[] = [];
  const raw: Record<string, Parsed> = {};
  const secretValues: string[] = [];
  for (const def of SETTINGS as readonly SettingDef[]) {
    const given = lookup(def.name) ?? def.aliases?.map(lookup).find((v) => v !== undefined);
    if (given === undefined && def.requiredWhen?.(lookup)) {
      problems.push(`${def.name} (or ${shellName(def.name)}) is required`);
      continue;
    }
    const value = given ?? def.default;
    if (value === undefined) continue;
    const result = parseValue(def, value);
    if (typeof result === 'object' && result !== null && 'error' in result) {
      problems.push(`${def.name}: ${result.error}`);
      continue;
    }
    raw[def.name] = result as Parsed;
    if (def.secret && given !== undefined) secretValues.push(given);
  }
  for (const cidr of (raw['TRUSTED_PROXY_CIDRS'] as string[] | undefined) ?? []) {
    if (!isCidr(cidr)) problems.push(`TRUSTED_PROXY_CIDRS: "${cidr}" is not an IP address or CIDR range`);
  }
  for (const origin of (raw['CORS_ORIGINS'] as string[] | undefined) ?? []) {
    if (!toOrigin(origin)) problems.push(`CORS_ORIGINS: "${origin}" is not an origin (scheme://host[:port], http or https, no path)`);
  }
  if (raw['CACHE_STORE'] === 'redis' && !raw['SHARED_STORE_URL'] && !raw['SHARED_STORE_HOST']) {
    problems.push('CACHE_STORE=redis needs SHARED_STORE_URL (or REDIS_URL) or SHARED_STORE_HOST');
  }
  if (problems.length) throw new ConfigError(problems);
  return toConfig(raw, secretValues, files);
}

function toConfig(raw: Record<string, Parsed>, secretValues: string[], envFiles: string[]): Config {
  const s = (n: string) => raw[n] as string | undefined;
  const i = (n: string) => raw[n] as number;
  const b = (n: string) => raw[n] as boolean;
  const nodeEnv = s('NODE_ENV') as Config['nodeEnv'];
  const jwtSecret = s('JWT_SECRET');
  const appUrl = s('APP_URL')!;
  return {
    nodeEnv,
    network: s('NETWORK') as Config['network'],
    logLevel: s('LOG_LEVEL')!,
    dataDir: s('DATA_DIR')!,
    http: {
      port: i('GENERAL.PORT'),
      host: s('GENERAL.HOST')!,
      bodyLimitBytes: i('HTTP.BODY_LIMIT_BYTES'),
      requestTimeoutMs: i('HTTP.REQUEST_TIMEOUT_MS'),
      rateLimit: { max: i('HTTP.RATE_LIMIT_MAX'), windowMs: i('HTTP.RATE_LIMIT_WINDOW_MS') },
      trustedProxyCidrs: (raw['TRUSTED_PROXY_CIDRS'] as string[]) ?? [],
      corsOrigins: [...new Set([new URL(appUrl).origin, ...((raw['CORS_ORIGINS'] as string[]) ?? []).map((o) => toOrigin(o)!)])],
    },
    graphql: {
      maxDepth: i('GRAPHQL.MAX_DEPTH'),
      maxAliases: i('GRAPHQL.MAX_ALIASES'),
      maxCost: i('GRAPHQL.MAX_COST'),
      introspection: (raw['GRAPHQL.INTROSPECTION'] as boolean | undefined) ?? (nodeEnv !== 'production' && s('NETWORK') !== 'mainnet'),
    },
    databaseUrl: s('DATABASE_URL'),
    databaseStatementTimeoutMs: i('DATABASE.STATEMENT_TIMEOUT_MS'),
    jwt: { secret: jwtSecret ?? DEV_JWT_SECRET, issuer: s('JWT_ISSUER')!, generated: !jwtSecret },
    store: {
      // An address alone means Redis; an explicit CACHE_STORE=memory wins (the store warns that it ignores the address).
      cacheStore: (s('CACHE_STORE') ?? (s('SHARED_STORE_URL') || s('SHARED_STORE_HOST') ? 'redis' : 'memory')) as 'redis' | 'memory',
      url: s('SHARED_STORE_URL'),
      host: s('SHARED_STORE_HOST'),
      port: i('SHARED_STORE_PORT'),
      db: i('SHARED_STORE_DB'),
      username: s('SHARED_STORE_USERNAME'),
      password: s('SHARED_STORE_PASSWORD'),
      keyPrefix: s('SHARED_STORE_KEY_PREFIX')!,
      replicas: raw['SHARED_STORE_REPLICAS'] as number | undefined,
    },
    chain: {
      packageId: s('PLATFORM_PACKAGE_ID')!,
      transport: s('CHAIN.SUI_TRANSPORT') as 'graphql' | 'grpc',
      suiUrl: s('CHAIN.SUI_URL'),
      backendWalletPrivateKey: s('CHAIN.BACKEND_WALLET_PRIVATE_KEY'),
      priceApiKey: s('CHAIN.PRICE_API_KEY'),
      priceApiUrl: s('CHAIN.PRICE_API_URL'),
      giveaway: {
        autoSettlementDisabled: b('CHAIN.GIVEAWAY_AUTO_SETTLEMENT_DISABLED'),
        graceMs: i('CHAIN.GIVEAWAY_SETTLEMENT_GRACE_MS'),
        batchSize: i('CHAIN.GIVEAWAY_SETTLEMENT_BATCH_SIZE'),
      },
    },
    indexer: { disabled: b('INDEXER_DISABLED'), pollingIntervalMs: i('POLLING_INTERVAL_MS') },
    blog: {
      port: i('BLOG_PORT'),
      appUrl,
      blogUrl: s('BLOG_URL') ?? `${appUrl.replace(/\/$/, '')}/blog`,
      databaseUrl: s('BLOG_DATABASE_URL'),
      revalidationSecret: s('BLOG_REVALIDATION_SECRET'),
      webhookSecret: s('WEBHOOK_SECRET'),
      publishCiToken: s('BLOG_PUBLISH_CI_TOKEN'),
      payloadSecret: s('PAYLOAD_SECRET'),
    },
    raw,
    secretValues,
    envFiles,
  };
}

function parseValue(def: SettingDef, value: string): Parsed | { error: string } {
  switch (def.kind) {
    case 'string':
      if (def.minLength && value.length < def.minLength) return { error: `must be at least ${def.minLength} characters` };
      return value;
    case 'int': {
      if (!/^-?\d+$/.test(value.trim())) return { error: `expected an integer, got "${def.secret ? '<redacted>' : value}"` };
      const n = Number(value);
      if (def.min !== undefined && n < def.min) return { error: `must be >= ${def.min}` };
      if (def.max !== undefined && n > def.max) return { error: `must be <= ${def.max}` };
      return n;
    }
    case 'bool': {
      const v = value.trim().toLowerCase();
      if (['true', '1', 'yes', 'on'].includes(v)) return true;
      if (['false', '0', 'no', 'off'].includes(v)) return false;
      return { error: `expected true or false, got "${value}"` };
    }
    case 'url':
      try {
        new URL(value);
        return value;
      } catch {
        return { error: def.secret ? 'is not a valid URL' : `"${value}" is not a valid URL` };
      }
    case 'enum':
      return def.values!.includes(value) ? value : { error: `must be one of ${def.values!.join(', ')}, got "${value}"` };
    case 'list':
      return value
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);
  }
}

function isCidr(value: string): boolean {
  const [addr, bits, extra] = value.split('/');
  if (extra !== undefined) return false;
  const v4 = /^(\d{1,3})(\.\d{1,3}){3}$/.test(addr) && addr.split('.').every((o) => Number(o) <= 255);
  const v6 = !v4 && addr.includes(':') && /^[0-9a-fA-F:.]+$/.test(addr);
  if (!v4 && !v6) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n >= 0 && n <= (v4 ? 32 : 128);
}

/** The serialized origin of `value`, or null unless it is an http(s) URL with no credentials, path, query or fragment. */
function toOrigin(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/') return null;
  return url.origin;
}
