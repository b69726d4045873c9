import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { isPgBouncerUrl, withoutPgBouncerFlag } from '../../src/config/database-url';
import { parseStoreAddress } from '../../src/config/store-address';

describe('SHARED_STORE_URL forms', () => {
  it('parses one server, Sentinel and Cluster addresses', () => {
    expect(parseStoreAddress('rediss://u:p@cache:6380/2')).toEqual({ kind: 'single', url: 'rediss://u:p@cache:6380/2' });
    expect(parseStoreAddress('redis-sentinel://:s%40cret@s1:26379,s2,[::1]:26380/my-master?db=3&sentinelPassword=sp&tls=1')).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
        { host: '::1', port: 26380 },
      ],
      name: 'my-master',
      db: 3,
      password: 's@cret',
      sentinelPassword: 'sp',
      tls: true,
    });
    expect(parseStoreAddress('redis-cluster://default:pw@n1:7000,n2:7001')).toEqual({
      kind: 'cluster',
      nodes: [
        { host: 'n1', port: 7000 },
        { host: 'n2', port: 7001 },
      ],
      username: 'default',
      password: 'pw',
      tls: false,
    });
  });

  it('refuses malformed addresses in config without quoting them', () => {
    const none = '/nonexistent-env-dir';
    const bad = (url: string) => () => loadConfig({ envDir: none, env: { SHARED_STORE_URL: url } });
    expect(bad('redis-sentinel://:hunter2@s1:26379')).toThrow(/needs the master name/);
    expect(bad('redis-cluster://:hunter2@n1:7000/1')).toThrow(/takes no path/);
    expect(bad('http://:hunter2@cache:6379')).toThrow(/must start with redis:\/\//);
    expect(bad('redis-sentinel://:hunter2@s1:26379/m')).not.toThrow();
    try {
      bad('redis-cluster://:hunter2@n1:7000/1')();
    } catch (err) {
      expect(String(err)).not.toContain('hunter2');
    }
  });
});

describe('DATABASE_URL behind PgBouncer', () => {
  const pooled = 'postgres://app:pw@pgbouncer:6432/platform?pgbouncer=true';
  it('needs DATABASE_DIRECT_URL for migrations and leases, and strips the flag before connecting', () => {
    expect(() => loadConfig({ envDir: '/nonexistent', env: { DATABASE_URL: pooled } })).toThrow(/DATABASE_URL with pgbouncer=true needs DATABASE_DIRECT_URL/);
    const config = loadConfig({ envDir: '/nonexistent', env: { DATABASE_URL: pooled, DATABASE_DIRECT_URL: 'postgres://app:pw@postgres:5432/platform' } });
    expect(config.databaseDirectUrl).toBe('postgres://app:pw@postgres:5432/platform');
    expect(isPgBouncerUrl(pooled)).toBe(true);
    expect(isPgBouncerUrl('postgres://app@postgres/platform?pgbouncer=false')).toBe(false);
    expect(withoutPgBouncerFlag(pooled)).toBe('postgres://app:pw@pgbouncer:6432/platform');
  });
});
