import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig, MAINNET_REQUIRED } from '../../src/config';
import { envFileOrder } from '../../src/config/env-files';

const none = '/nonexistent';
const MAINNET_SECRETS = 'WEBHOOK_SECRET=w\nBLOG_REVALIDATION_SECRET=r\n';

function problemsOf(env: Record<string, string>, opts: { envDir?: string } = {}): string[] {
  try {
    loadConfig({ envDir: opts.envDir ?? none, env });
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).problems;
  }
  return [];
}

describe('config', () => {
  it('reads every setting under the spec name and the shell-friendly name', () => {
    expect(loadConfig({ envDir: none, env: { 'GENERAL.PORT': '4100' } }).http.port).toBe(4100);
    expect(loadConfig({ envDir: none, env: { GENERAL_PORT: '4200' } }).http.port).toBe(4200);
    expect(loadConfig({ envDir: none, env: { 'GENERAL.PORT': '4300', GENERAL_PORT: '4400' } }).http.port).toBe(4300);
    const c = loadConfig({ envDir: none, env: { 'GRAPHQL.INTROSPECTION': 'false', HTTP_RATE_LIMIT_MAX: '7' } });
    expect(c.graphql.introspection).toBe(false);
    expect(c.http.rateLimit.max).toBe(7);
  });

  it('applies defaults from the spec', () => {
    const c = loadConfig({ envDir: none, env: {} });
    expect(c.http.port).toBe(3000);
    expect(c.http.rateLimit).toEqual({ max: 300, windowMs: 60_000 });
    expect(c.http.bodyLimitBytes).toBe(1024 * 1024);
    expect(c.http.requestTimeoutMs).toBe(5000);
    expect(c.dataDir).toBe('./.data');
    expect(c.store.cacheStore).toBe('memory');
  });

  it('names every bad key in one error', () => {
    let error: unknown;
    try {
      loadConfig({ envDir: none, env: { NODE_ENV: 'production', GENERAL_PORT: 'eighty', INDEXER_DISABLED: 'maybe', TRUSTED_PROXY_CIDRS: '10.0.0.0/99', CACHE_STORE: 'redis' } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const key of ['GENERAL.PORT', 'INDEXER_DISABLED', 'TRUSTED_PROXY_CIDRS', 'JWT_SECRET', 'PAYLOAD_SECRET', 'CACHE_STORE']) expect(problems).toContain(key);
  });

  it('accepts REDIS_URL for SHARED_STORE_URL, and a Redis address alone selects Redis', () => {
    const viaAlias = loadConfig({ envDir: none, env: { REDIS_URL: 'redis://cache.internal:6380/2' } });
    expect(viaAlias.store).toMatchObject({ cacheStore: 'redis', url: 'redis://cache.internal:6380/2' });
    expect(viaAlias.secretValues).toContain('redis://cache.internal:6380/2');
    expect(loadConfig({ envDir: none, env: { SHARED_STORE_URL: 'redis://a:6379/0' } }).store.cacheStore).toBe('redis');
    expect(loadConfig({ envDir: none, env: { SHARED_STORE_HOST: 'cache.internal' } }).store).toMatchObject({ cacheStore: 'redis', host: 'cache.internal', port: 6379 });
    // the setting's own name wins over the conventional alias
    const both = loadConfig({ envDir: none, env: { SHARED_STORE_URL: 'redis://own:6379/0', REDIS_URL: 'redis://alias:6379/0' } });
    expect(both.store.url).toBe('redis://own:6379/0');
    // an explicit choice wins: memory, with the address kept for the store's warning
    expect(loadConfig({ envDir: none, env: { CACHE_STORE: 'memory', REDIS_URL: 'redis://a:6379/0' } }).store.cacheStore).toBe('memory');
    expect(loadConfig({ envDir: none, env: { CACHE_STORE: 'redis', REDIS_URL: 'redis://a:6379/0' } }).store.cacheStore).toBe('redis');
    // nothing set: memory; empty values count as unset
    expect(loadConfig({ envDir: none, env: { REDIS_URL: '', SHARED_STORE_URL: '' } }).store.cacheStore).toBe('memory');
  });

  it('names REDIS_URL when CACHE_STORE=redis has no address, and checks REDIS_URL like SHARED_STORE_URL', () => {
    expect(() => loadConfig({ envDir: none, env: { CACHE_STORE: 'redis' } })).toThrow(/SHARED_STORE_URL \(or REDIS_URL\) or SHARED_STORE_HOST/);
    expect(() => loadConfig({ envDir: none, env: { REDIS_URL: 'not a url secret-part' } })).toThrow(/SHARED_STORE_URL: is not a valid URL/);
    try {
      loadConfig({ envDir: none, env: { REDIS_URL: 'not a url secret-part' } });
    } catch (e) {
      expect((e as Error).message).not.toContain('secret-part');
    }
  });

  it('reads DATABASE_URL and the replica count for limit shares', () => {
    const c = loadConfig({ envDir: none, env: { DATABASE_URL: 'postgres://u@db:5432/app', SHARED_STORE_REPLICAS: '3' } });
    expect(c.databaseUrl).toBe('postgres://u@db:5432/app');
    expect(c.store.replicas).toBe(3);
    expect(loadConfig({ envDir: none, env: {} }).store.replicas).toBeUndefined();
    expect(() => loadConfig({ envDir: none, env: { SHARED_STORE_REPLICAS: '0' } })).toThrow(/SHARED_STORE_REPLICAS: must be >= 1/);
  });

  it('never echoes a secret value in a validation message', () => {
    try {
      loadConfig({ envDir: none, env: { DATABASE_URL: 'not a url with hunter2' } });
      expect.unreachable();
    } catch (e) {
      expect((e as Error).message).toContain('DATABASE_URL');
      expect((e as Error).message).not.toContain('hunter2');
    }
  });

  it('layers env files by NODE_ENV and NETWORK, the process environment last', () => {
    const dir = mkdtempSync(join(tmpdir(), 'envfiles-'));
    writeFileSync(join(dir, '.env'), 'GENERAL.PORT=1001\nLOG_LEVEL=debug\nPOLLING_INTERVAL_MS=100\n');
    writeFileSync(join(dir, '.env.production'), 'GENERAL_PORT=1002\nJWT_SECRET=0123456789abcdef0123456789abcdef\nPAYLOAD_SECRET=p\n');
    writeFileSync(join(dir, '.env.mainnet'), `POLLING_INTERVAL_MS=200\nAPP_URL=https://platform.example\n${MAINNET_SECRETS}`);
    writeFileSync(join(dir, '.env.production.mainnet'), 'LOG_LEVEL=warn\n');
    const c = loadConfig({ envDir: dir, env: { NODE_ENV: 'production', NETWORK: 'mainnet', POLLING_INTERVAL_MS: '300' } });
    expect(c.envFiles).toEqual(['.env', '.env.production', '.env.mainnet', '.env.production.mainnet']);
    expect(c.logLevel).toBe('warn');
    expect(c.indexer.pollingIntervalMs).toBe(300);
    expect(c.http.port).toBe(1001); // the dotted name in .env wins over the underscore form
    expect(envFileOrder('test', 'devnet')).toEqual(['.env', '.env.test', '.env.devnet', '.env.test.devnet', '.env.local']);
  });

  it('on mainnet requires APP_URL and every secret, naming each missing one in one error', () => {
    const problems = problemsOf({ NETWORK: 'mainnet' });
    expect(MAINNET_REQUIRED).toEqual(['APP_URL', 'JWT_SECRET', 'PAYLOAD_SECRET', 'WEBHOOK_SECRET', 'BLOG_REVALIDATION_SECRET']);
    for (const name of MAINNET_REQUIRED) expect(problems).toContainEqual(expect.stringMatching(new RegExp(`^${name} is required on mainnet`)));
    expect(problems).toHaveLength(MAINNET_REQUIRED.length);
    // with a bad value elsewhere, both kinds of problem are listed
    expect(problemsOf({ NETWORK: 'mainnet', GENERAL_PORT: 'x' })).toHaveLength(MAINNET_REQUIRED.length + 1);
    // production alone keeps its own two requirements
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual(['JWT_SECRET is required when NODE_ENV=production', 'PAYLOAD_SECRET is required when NODE_ENV=production']);
    expect(problemsOf({ NODE_ENV: 'production', NETWORK: 'mainnet' })).toContain('JWT_SECRET is required on mainnet and when NODE_ENV=production');
  });

  it('refuses a loopback APP_URL on mainnet and accepts a complete mainnet configuration', () => {
    const complete = { NETWORK: 'mainnet', APP_URL: 'https://platform.example', JWT_SECRET: 'j'.repeat(32), PAYLOAD_SECRET: 'p', WEBHOOK_SECRET: 'w', BLOG_REVALIDATION_SECRET: 'r' };
    const c = loadConfig({ envDir: none, env: complete });
    expect(c.network).toBe('mainnet');
    expect(c.blog.blogUrl).toBe('https://platform.example/blog');
    expect(c.graphql.introspection).toBe(false);
    for (const appUrl of ['http://localhost:3000', 'http://127.0.0.1', 'http://127.1.2.3:8080/', 'http://[::1]:3000', 'https://app.localhost', 'http://0.0.0.0:3000']) {
      expect(problemsOf({ ...complete, APP_URL: appUrl })).toEqual([`APP_URL must be the public URL of the app on mainnet, not a loopback host (got "${appUrl}")`]);
    }
    // off mainnet, nothing is required and the default APP_URL stands
    expect(loadConfig({ envDir: none, env: { NETWORK: 'testnet' } }).blog.appUrl).toBe('http://localhost:3000');
  });

  it('checks values but requires nothing for the CMS and blog (requireDeploymentSettings: false)', () => {
    const c = loadConfig({ envDir: none, env: { NETWORK: 'mainnet', NODE_ENV: 'production' }, requireDeploymentSettings: false });
    expect(c.blog.payloadSecret).toBeUndefined();
    expect(() => loadConfig({ envDir: none, env: { NETWORK: 'mainnet', BLOG_PORT: 'x' }, requireDeploymentSettings: false })).toThrow(/BLOG_PORT: expected an integer \(got "x"\)$/);
  });

  it('covers the CMS and blog settings with their defaults', () => {
    const d = loadConfig({ envDir: none, env: { APP_URL: 'https://app.example/' } }).blog;
    expect(d).toMatchObject({
      port: 3001,
      blogUrl: 'https://app.example/blog',
      revalidateUrl: 'https://app.example/blog/api/revalidate/',
      dbPush: false,
      cmsUrl: 'http://127.0.0.1:3001',
      distDir: '.next',
      publishCi: { token: undefined, apiUrl: 'https://api.github.com', repo: 'platform/web', workflow: 'blog-publish.yml', ref: 'main' },
      social: { chatUrl: 'https://discord.gg/platform', messagingUrl: 'https://t.me/platform', networkUrl: 'https://x.com/platform' },
      media: { maxBytes: 5 * 1024 * 1024, timeoutMs: 5000, allowPrivateHosts: false },
      smtp: undefined,
    });
    const env = {
      BLOG_URL: 'https://blog.example/',
      BLOG_REVALIDATE_URL: 'http://127.0.0.1:3001/blog/api/revalidate/',
      BLOG_DB_PUSH: 'true',
      BLOG_UPSTREAM_URL: 'http://blog.internal:3001/',
      BLOG_PUBLISH_CI_API_URL: 'http://127.0.0.1:9000/',
      BLOG_PUBLISH_CI_REPO: 'acme/site',
      BLOG_PUBLISH_CI_WORKFLOW: 'rebuild.yml',
      BLOG_PUBLISH_CI_REF: 'release',
      BLOG_PUBLISH_CI_TOKEN: 'ci-token-value',
      BLOG_SOCIAL_CHAT_URL: 'https://chat.example/x',
      BLOG_SOCIAL_MESSAGING_URL: 'https://msg.example/x',
      BLOG_SOCIAL_NETWORK_URL: 'https://net.example/x',
      BLOG_MEDIA_MAX_BYTES: '1000',
      BLOG_MEDIA_FETCH_TIMEOUT_MS: '250',
      BLOG_MEDIA_ALLOW_PRIVATE_HOSTS: 'true',
      SMTP_HOST: 'smtp.example',
      SMTP_PORT: '465',
      SMTP_USER: 'mailer',
      SMTP_PASSWORD: 'smtp-password-value',
    };
    const c = loadConfig({ envDir: none, env });
    expect(c.blog).toMatchObject({
      blogUrl: 'https://blog.example',
      revalidateUrl: 'http://127.0.0.1:3001/blog/api/revalidate/',
      dbPush: true,
      // The API reads the blog where it proxies /blog, unless BLOG_CMS_URL says otherwise.
      cmsUrl: 'http://blog.internal:3001',
      publishCi: { token: 'ci-token-value', apiUrl: 'http://127.0.0.1:9000', repo: 'acme/site', workflow: 'rebuild.yml', ref: 'release' },
      social: { chatUrl: 'https://chat.example/x', messagingUrl: 'https://msg.example/x', networkUrl: 'https://net.example/x' },
      media: { maxBytes: 1000, timeoutMs: 250, allowPrivateHosts: true },
      smtp: { host: 'smtp.example', port: 465, secure: true, user: 'mailer', password: 'smtp-password-value', from: 'Platform Blog <blog@localhost.localdomain>' },
    });
    expect(c.secretValues).toEqual(expect.arrayContaining(['ci-token-value', 'smtp-password-value']));
    expect(loadConfig({ envDir: none, env: { ...env, BLOG_CMS_URL: 'http://127.0.0.1:4001/' } }).blog.cmsUrl).toBe('http://127.0.0.1:4001');
    // production never fetches from private hosts; SMTP_SECURE overrides the port's default
    const prod = loadConfig({ envDir: none, env: { ...env, NODE_ENV: 'production', JWT_SECRET: 'j'.repeat(32), PAYLOAD_SECRET: 'p', SMTP_SECURE: 'false', SMTP_FROM: 'Blog <b@x.example>' } });
    expect(prod.blog.media.allowPrivateHosts).toBe(false);
    expect(prod.blog.smtp).toMatchObject({ secure: false, from: 'Blog <b@x.example>' });
    expect(problemsOf({ BLOG_SOCIAL_CHAT_URL: 'discord', SMTP_PORT: '0', BLOG_MEDIA_MAX_BYTES: '-1' })).toEqual([
      'BLOG_SOCIAL_CHAT_URL: is not a valid URL (got "discord")',
      'BLOG_MEDIA_MAX_BYTES: must be >= 1 (got "-1")',
      'SMTP_PORT: must be >= 1 (got "0")',
    ]);
  });

  it('reads the chain writer and giveaway settings; the wallet key is a secret and must be a Sui private key', () => {
    const key = 'suiprivkey1qzdlfxn2qa2lj5uprl8pyhexs02sg2wrhdy7qaq50cqgnffw4c2477kg9h3';
    const c = loadConfig({ envDir: none, env: { CHAIN_BACKEND_WALLET_PRIVATE_KEY: key, 'CHAIN.GIVEAWAY_SETTLEMENT_BATCH_SIZE': '5', CHAIN_GIVEAWAY_AUTO_SETTLEMENT_DISABLED: 'true' } });
    expect(c.chain.writer.privateKey).toBe(key);
    expect(c.secretValues).toContain(key);
    expect(c.chain.giveaways).toMatchObject({ batchSize: 5, autoSettlementDisabled: true, graceMs: 60_000 });
    expect(problemsOf({ 'CHAIN.BACKEND_WALLET_PRIVATE_KEY': 'not-a-key' })).toEqual(['CHAIN.BACKEND_WALLET_PRIVATE_KEY: must be a Sui private key (suiprivkey1…)']);
  });

  it('trims values, treats blanks as unset and never quotes a secret', () => {
    const c = loadConfig({ envDir: none, env: { NETWORK: ' devnet ', BLOG_URL: '  ', WEBHOOK_SECRET: ' s3cret-webhook ' } });
    expect(c.network).toBe('devnet');
    expect(c.blog.blogUrl).toBe('http://localhost:3000/blog');
    expect(c.blog.webhookSecret).toBe('s3cret-webhook');
    expect(c.secretValues).toContain('s3cret-webhook');
    expect(problemsOf({ JWT_SECRET: 'short-hunter2' })).toEqual(['JWT_SECRET: must be at least 32 characters']);
  });
});
