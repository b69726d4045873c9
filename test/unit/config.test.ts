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
