// The CMS and the blog read their settings through the one schema (src/config): same names,
// defaults and checks, mapped to the shape cms/ and blog/ use.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config';
import { readBlogSettings, resolvePayloadSecret } from '../../cms/settings';

describe('cms/settings from the one schema', () => {
  it('maps the schema’s values and defaults', () => {
    const s = readBlogSettings({ APP_URL: 'https://app.example/', DATA_DIR: '/srv/data', BLOG_SOCIAL_CHAT_URL: 'https://chat.example/c', BLOG_PUBLISH_CI_REPO: 'acme/site', BLOG_DB_PUSH: 'yes', SMTP_HOST: 'smtp.example' });
    expect(s).toMatchObject({
      network: 'testnet',
      isMainnet: false,
      appUrl: 'https://app.example',
      blogUrl: 'https://app.example/blog',
      revalidateUrl: 'https://app.example/blog/api/revalidate/',
      dataDir: '/srv/data',
      dbPush: true,
      port: 3001,
      social: { chat_platform: 'https://chat.example/c', messaging_platform: 'https://t.me/platform', social_network: 'https://x.com/platform' },
      ci: { token: undefined, apiUrl: 'https://api.github.com', repo: 'acme/site', workflow: 'blog-publish.yml', ref: 'main' },
      smtp: { host: 'smtp.example', port: 587, secure: false, from: 'Platform Blog <blog@app.example>' },
    });
  });

  it('requires nothing (the starting process checked that) but refuses bad values with the schema’s message', () => {
    expect(readBlogSettings({ NETWORK: 'mainnet', NODE_ENV: 'production' }).isMainnet).toBe(true);
    expect(() => readBlogSettings({ BLOG_PUBLISH_CI_API_URL: 'not a url' })).toThrow(ConfigError);
    expect(() => readBlogSettings({ BLOG_MEDIA_MAX_BYTES: '0' })).toThrow(/BLOG_MEDIA_MAX_BYTES: must be >= 1/);
  });

  it('PAYLOAD_SECRET: used when set, generated into DATA_DIR off mainnet, refused when missing on mainnet', () => {
    expect(resolvePayloadSecret({ PAYLOAD_SECRET: ' given ' })).toBe('given');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cms-settings-'));
    const generated = resolvePayloadSecret({ DATA_DIR: dataDir });
    expect(generated).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(path.join(dataDir, '.payload-secret'), 'utf8')).not.toContain(generated);
    expect(resolvePayloadSecret({ DATA_DIR: dataDir })).toBe(generated);
    expect(() => resolvePayloadSecret({ NETWORK: 'mainnet', DATA_DIR: dataDir })).toThrow('PAYLOAD_SECRET must be set on mainnet');
  });
});
