// The browser bundle of @platform/client (scripts/client-size.ts): a page that only queries loads no realtime transport,
// and each transport loads on first use. The sizes are those docs/client.md quotes, within a margin.
import { describe, expect, it } from 'vitest';
import { measureClientBundles } from '../../scripts/client-size';

/** gzip budget of what a querying page loads at start (docs/client.md: 5.8 KB when written). */
const INITIAL_GZIP_BUDGET = 8 * 1024;

describe('the browser bundle of @platform/client', () => {
  it('loads graphql-ws and socket.io-client only when a page first uses them', async () => {
    const sizes = await measureClientBundles();
    for (const probe of Object.values(sizes)) {
      expect(probe.initial.packages).toEqual(['@platform/client']);
      expect(probe.initial.gzip).toBeLessThan(INITIAL_GZIP_BUDGET);
    }
    expect(sizes.core.onFirstUse.minified).toBe(0);
    expect(sizes['core + graphql-ws'].onFirstUse.packages).toContain('graphql-ws');
    expect(sizes['core + graphql-ws'].onFirstUse.packages).not.toContain('socket.io-client');
    expect(sizes['core + socket.io'].onFirstUse.packages).toContain('socket.io-client');
    expect(sizes['core + socket.io'].onFirstUse.packages).not.toContain('graphql-ws');
  }, 120_000);
});
