import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { withDevelopmentSecrets } from '../../src/config/development-secrets';

const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'dev-secrets-'));
  dirs.push(dir);
  return dir;
};
const config = (env: Record<string, string>) => loadConfig({ envDir: '/nonexistent', env, requireDeploymentSettings: false });

// withDevelopmentSecrets also exports the values to this process's environment (for the CMS).
const before = { WEBHOOK_SECRET: process.env.WEBHOOK_SECRET, BLOG_REVALIDATION_SECRET: process.env.BLOG_REVALIDATION_SECRET };
afterEach(() => {
  for (const [k, v] of Object.entries(before)) if (v === undefined) delete process.env[k];
  else process.env[k] = v;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('withDevelopmentSecrets', () => {
  it('generates the webhook and revalidation secrets once into DATA_DIR (mode 600) and reads them back', () => {
    const dir = dataDir();
    const first = withDevelopmentSecrets(config({ DATA_DIR: dir }));
    expect(first.generated.map((g) => g.name)).toEqual(['JWT_SECRET', 'WEBHOOK_SECRET', 'BLOG_REVALIDATION_SECRET']);
    const { webhookSecret, revalidationSecret } = first.config.blog;
    expect(webhookSecret).toMatch(/^[0-9a-f]{48}$/);
    expect(revalidationSecret).toMatch(/^[0-9a-f]{48}$/);
    expect(webhookSecret).not.toBe(revalidationSecret);
    expect(statSync(path.join(dir, '.webhook-secret')).mode & 0o777).toBe(0o600);
    expect(readFileSync(path.join(dir, '.revalidation-secret'), 'utf8').trim()).toBe(revalidationSecret);
    // Scrubbed from logs and handed to the blog process.
    expect(first.config.secretValues).toEqual(expect.arrayContaining([webhookSecret, revalidationSecret]));
    expect(first.config.sourceEnv).toMatchObject({ WEBHOOK_SECRET: webhookSecret, BLOG_REVALIDATION_SECRET: revalidationSecret });

    // The JWT signing key too, kept out of the blog's environment.
    const jwtSecret = first.config.jwt.secret;
    expect(jwtSecret).toMatch(/^[0-9a-f]{48}$/);
    expect(readFileSync(path.join(dir, '.jwt-secret'), 'utf8').trim()).toBe(jwtSecret);
    expect(statSync(path.join(dir, '.jwt-secret')).mode & 0o777).toBe(0o600);
    expect(first.config.secretValues).toContain(jwtSecret);
    expect(first.config.sourceEnv.JWT_SECRET).toBeUndefined();

    const again = withDevelopmentSecrets(config({ DATA_DIR: dir }));
    expect(again.config.blog).toMatchObject({ webhookSecret, revalidationSecret });
    expect(again.config.jwt.secret).toBe(jwtSecret);
    // Another data directory, another key.
    expect(withDevelopmentSecrets(config({ DATA_DIR: dataDir() })).config.jwt.secret).not.toBe(jwtSecret);
  });

  it('keeps a configured secret and generates only the missing one', () => {
    const jwtSecret = 'configured-jwt-secret-0123456789abcdef';
    const { config: c, generated } = withDevelopmentSecrets(config({ DATA_DIR: dataDir(), WEBHOOK_SECRET: 'configured-webhook-secret', JWT_SECRET: jwtSecret }));
    expect(c.blog.webhookSecret).toBe('configured-webhook-secret');
    expect(c.jwt.secret).toBe(jwtSecret);
    expect(generated.map((g) => g.name)).toEqual(['BLOG_REVALIDATION_SECRET']);
  });

  it.each<Record<string, string>>([{ NETWORK: 'mainnet' }, { NODE_ENV: 'production' }])('never generates with %o', (env) => {
    const dir = dataDir();
    const { config: c, generated } = withDevelopmentSecrets(config({ DATA_DIR: dir, ...env }));
    expect(generated).toEqual([]);
    expect(c.blog.webhookSecret).toBeUndefined();
    expect(c.blog.revalidationSecret).toBeUndefined();
    expect(() => statSync(path.join(dir, '.webhook-secret'))).toThrow();
    expect(() => statSync(path.join(dir, '.jwt-secret'))).toThrow();
  });
});
