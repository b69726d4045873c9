/**
 * Every setting the process reads, under the spec's name (`GENERAL.PORT`).
 * The shell-friendly form (`GENERAL_PORT`) is derived by replacing dots with underscores.
 */
export type SettingKind = 'string' | 'int' | 'bool' | 'url' | 'enum' | 'list';

export interface SettingDef {
  name: string;
  kind: SettingKind;
  default?: string;
  secret?: boolean;
  values?: readonly string[];
  /** Required when this predicate holds for the already-parsed raw env. */
  requiredWhen?: (raw: (name: string) => string | undefined) => boolean;
  min?: number;
  max?: number;
  minLength?: number;
  /** Conventional names accepted too (`REDIS_URL`); the setting's own name wins when both are set. */
  aliases?: readonly string[];
}

const isProduction = (raw: (n: string) => string | undefined) => raw('NODE_ENV') === 'production';

export const SETTINGS = [
  { name: 'NODE_ENV', kind: 'enum', values: ['development', 'production', 'test'], default: 'development' },
  { name: 'NETWORK', kind: 'enum', values: ['mainnet', 'testnet', 'devnet', 'localnet'], default: 'testnet' },
  { name: 'LOG_LEVEL', kind: 'enum', values: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
  { name: 'DATA_DIR', kind: 'string', default: './.data' },

  { name: 'GENERAL.PORT', kind: 'int', default: '3000', min: 0, max: 65535 },
  { name: 'GENERAL.HOST', kind: 'string', default: '0.0.0.0' },
  { name: 'GENERAL.IPCHECK_API_KEY', kind: 'string', secret: true },
  { name: 'GENERAL.IPCHECK_URL', kind: 'url' },
  { name: 'GENERAL.ANALYTICS_PROPERTY_ID', kind: 'string' },
  { name: 'GENERAL.WELCOME_WHEEL_MAX_REWARD', kind: 'int', default: '0', min: 0 },

  { name: 'HTTP.BODY_LIMIT_BYTES', kind: 'int', default: String(1024 * 1024), min: 1 },
  { name: 'HTTP.REQUEST_TIMEOUT_MS', kind: 'int', default: '5000', min: 1 },
  { name: 'HTTP.RATE_LIMIT_MAX', kind: 'int', default: '300', min: 1 },
  { name: 'HTTP.RATE_LIMIT_WINDOW_MS', kind: 'int', default: '60000', min: 1 },
  { name: 'GRAPHQL.MAX_DEPTH', kind: 'int', default: '10', min: 1 },
  { name: 'GRAPHQL.MAX_ALIASES', kind: 'int', default: '20', min: 0 },
  { name: 'GRAPHQL.MAX_COST', kind: 'int', default: '5000', min: 1 },
  { name: 'GRAPHQL.INTROSPECTION', kind: 'bool' },

  { name: 'DATABASE_URL', kind: 'url', secret: true },
  { name: 'DATABASE.STATEMENT_TIMEOUT_MS', kind: 'int', default: '30000', min: 0 },
  { name: 'JWT_SECRET', kind: 'string', secret: true, minLength: 32, requiredWhen: isProduction },
  { name: 'JWT_ISSUER', kind: 'string', default: 'platform-backend' },

  { name: 'CHAIN.BACKEND_WALLET_PRIVATE_KEY', kind: 'string', secret: true },
  { name: 'CHAIN.GIVEAWAY_AUTO_SETTLEMENT_DISABLED', kind: 'bool', default: 'false' },
  { name: 'CHAIN.GIVEAWAY_SETTLEMENT_GRACE_MS', kind: 'int', default: '60000', min: 0 },
  { name: 'CHAIN.GIVEAWAY_SETTLEMENT_BATCH_SIZE', kind: 'int', default: '20', min: 1 },
  { name: 'CHAIN.NAMESERVICE_PARENT_DOMAIN', kind: 'string' },
  { name: 'CHAIN.NAMESERVICE_PARENT_NFT_ID', kind: 'string' },
  { name: 'CHAIN.NAMESERVICE_MIN_VIP_LEVEL', kind: 'int', default: '1', min: 0 },
  { name: 'CHAIN.NAMESERVICE_SUBNAME_EXPIRATION_DAYS', kind: 'int', default: '365', min: 1 },
  { name: 'CHAIN.PRICE_API_KEY', kind: 'string', secret: true },
  { name: 'CHAIN.PRICE_API_URL', kind: 'url' },
  { name: 'CHAIN.SUI_TRANSPORT', kind: 'enum', values: ['graphql', 'grpc'], default: 'graphql' },
  { name: 'CHAIN.SUI_URL', kind: 'url' },

  { name: 'AUTH.IDP_PRIMARY_CLIENT_ID', kind: 'string' },
  { name: 'AUTH.IDP_SECONDARY_CLIENT_ID', kind: 'string' },
  { name: 'AUTH.ZKLOGIN_SERVICE_KEY', kind: 'string', secret: true },
  { name: 'ONRAMP_A.SECRET', kind: 'string', secret: true },
  { name: 'ONRAMP_B.API_KEY', kind: 'string', secret: true },
  { name: 'SOCIAL.CHAT_PLATFORM_TOKEN', kind: 'string', secret: true },
  { name: 'SOCIAL.MESSAGING_PLATFORM_TOKEN', kind: 'string', secret: true },
  { name: 'SOCIAL.SOCIAL_NETWORK_SECRET', kind: 'string', secret: true },

  { name: 'PLATFORM_PACKAGE_ID', kind: 'string', default: '0x0000000000000000000000000000000000000000000000000000000000000000' },
  { name: 'POLLING_INTERVAL_MS', kind: 'int', default: '2000', min: 10 },
  { name: 'INDEXER_DISABLED', kind: 'bool', default: 'false' },

  // No default: a Redis address alone selects redis, none selects memory (see config/index.ts).
  { name: 'CACHE_STORE', kind: 'enum', values: ['redis', 'memory'] },
  { name: 'SHARED_STORE_URL', kind: 'url', secret: true, aliases: ['REDIS_URL'] },
  { name: 'SHARED_STORE_HOST', kind: 'string' },
  { name: 'SHARED_STORE_PORT', kind: 'int', default: '6379', min: 1, max: 65535 },
  { name: 'SHARED_STORE_DB', kind: 'int', default: '0', min: 0 },
  { name: 'SHARED_STORE_USERNAME', kind: 'string' },
  { name: 'SHARED_STORE_PASSWORD', kind: 'string', secret: true },
  { name: 'SHARED_STORE_KEY_PREFIX', kind: 'string', default: 'platform:' },
  /** Replicas sharing the store; during a Redis outage each grants 1/n of a limit. Unset: counted by heartbeat. */
  { name: 'SHARED_STORE_REPLICAS', kind: 'int', min: 1 },
  { name: 'TRUSTED_PROXY_CIDRS', kind: 'list', default: '' },
  /** Browser origins (besides APP_URL's) allowed to call the API cross-origin. */
  { name: 'CORS_ORIGINS', kind: 'list', default: '' },

  { name: 'APP_URL', kind: 'url', default: 'http://localhost:3000' },
  { name: 'BLOG_URL', kind: 'url' },
  { name: 'BLOG_PORT', kind: 'int', default: '3001', min: 0, max: 65535 },
  { name: 'BLOG_DATABASE_URL', kind: 'url', secret: true },
  { name: 'BLOG_REVALIDATION_SECRET', kind: 'string', secret: true },
  { name: 'WEBHOOK_SECRET', kind: 'string', secret: true },
  { name: 'BLOG_PUBLISH_CI_TOKEN', kind: 'string', secret: true },
  { name: 'PAYLOAD_SECRET', kind: 'string', secret: true, requiredWhen: isProduction },
] as const satisfies readonly SettingDef[];

export type SettingName = (typeof SETTINGS)[number]['name'];

export const shellName = (name: string) => name.replace(/\./g, '_');
