import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config';
import { envFileOrder } from '../../src/config/env-files';

const none = '/nonexistent';

describe('config', () => {
  it('reads every setting under the spec name and the shell-friendly name', () => {
    expect(loadConfig({ envDir: none, env: { 'GENERAL.PORT': '4100' } }).http.port).toBe(4100);
    expect(loadConfig({ envDir: none, env: { GENERAL_PORT: '4200' } }).http.port).toBe(4200);
    expect(loadConfig({ envDir: none, env: { 'GENERAL.PORT': '4300', GENERAL_PORT: '4400' } }).http.port).toBe(4300);
    const c = loadConfig({ envDir: none, env: { 'CHAIN.GIVEAWAY_AUTO_SETTLEMENT_DISABLED': 'true', CHAIN_GIVEAWAY_SETTLEMENT_BATCH_SIZE: '7' } });
    expect(c.chain.giveaway).toMatchObject({ autoSettlementDisabled: true, batchSize: 7 });
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
    writeFileSync(join(dir, '.env.mainnet'), 'POLLING_INTERVAL_MS=200\n');
    writeFileSync(join(dir, '.env.production.mainnet'), 'LOG_LEVEL=warn\n');
    const c = loadConfig({ envDir: dir, env: { NODE_ENV: 'production', NETWORK: 'mainnet', POLLING_INTERVAL_MS: '300' } });
    expect(c.envFiles).toEqual(['.env', '.env.production', '.env.mainnet', '.env.production.mainnet']);
    expect(c.logLevel).toBe('warn');
    expect(c.indexer.pollingIntervalMs).toBe(300);
    expect(c.http.port).toBe(1001); // the dotted name in .env wins over the underscore form
    expect(envFileOrder('test', 'devnet')).toEqual(['.env', '.env.test', '.env.devnet', '.env.test.devnet', '.env.local']);
  });
});
