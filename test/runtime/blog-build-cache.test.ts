/**
 * Turbopack's build cache (blog/next.config.mjs): on by default, where rebuilds after a small change
 * are the common case; off with BLOG_BUILD_CACHE=off, which CI and the image set (every build of theirs
 * is a first one).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';

const saved = process.env.BLOG_BUILD_CACHE;
afterEach(() => {
  if (saved === undefined) delete process.env.BLOG_BUILD_CACHE;
  else process.env.BLOG_BUILD_CACHE = saved;
});

/** The Next config as `next build` reads it with this BLOG_BUILD_CACHE (a fresh module each time). */
async function nextConfig(value: string | undefined): Promise<{ experimental?: { turbopackFileSystemCacheForBuild?: boolean } }> {
  if (value === undefined) delete process.env.BLOG_BUILD_CACHE;
  else process.env.BLOG_BUILD_CACHE = value;
  return (await import(/* @vite-ignore */ `../../blog/next.config.mjs?cache=${value ?? 'unset'}`)).default;
}

describe('the blog build cache', () => {
  it('is on by default and off with BLOG_BUILD_CACHE=off', async () => {
    expect((await nextConfig(undefined)).experimental?.turbopackFileSystemCacheForBuild).toBe(true);
    expect((await nextConfig('off')).experimental?.turbopackFileSystemCacheForBuild).toBe(false);
  });

  it('is a declared setting: a value other than on or off is refused at start', () => {
    expect(() => loadConfig({ envDir: '/nonexistent', env: { BLOG_BUILD_CACHE: 'maybe' } })).toThrow(/BLOG_BUILD_CACHE/);
    expect(() => loadConfig({ envDir: '/nonexistent', env: { BLOG_BUILD_CACHE: 'off' } })).not.toThrow();
  });
});
