import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config';

const examples = join(import.meta.dirname, '../../env');

/** The README sends users to env/*.example: copied into place, each must validate as it stands. */
describe('env/ examples', () => {
  it('.env.example copied to env/.env is a valid development configuration', () => {
    const dir = mkdtempSync(join(tmpdir(), 'env-example-'));
    copyFileSync(join(examples, '.env.example'), join(dir, '.env'));
    const config = loadConfig({ envDir: dir, env: {} });
    expect(config.envFiles).toEqual(['.env']);
    expect(config.network).toBe('testnet');
    expect(config.http.port).toBe(3000);
    expect(config.blog.blogUrl).toBe('http://localhost:3000/blog');
  });

  it('.env.mainnet.example copied to env/.env.mainnet satisfies every mainnet requirement', () => {
    const dir = mkdtempSync(join(tmpdir(), 'env-example-'));
    copyFileSync(join(examples, '.env.mainnet.example'), join(dir, '.env.mainnet'));
    const config = loadConfig({ envDir: dir, env: { NETWORK: 'mainnet' } });
    expect(config.envFiles).toContain('.env.mainnet');
    expect(config.network).toBe('mainnet');
    expect(config.nodeEnv).toBe('production');
    expect(config.store.url).toBe('redis://cache.internal:6379/0');
  });
});
