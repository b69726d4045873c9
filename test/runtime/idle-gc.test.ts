import { describe, expect, it, vi } from 'vitest';
import { collectWhenIdle } from '../../src/runtime/idle-gc';

/** Keeps the event loop busy for `ms` (a sample over the busy threshold). */
const spin = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe('collectWhenIdle', () => {
  it('collects once when the process turns idle after work, and again only after more work', async () => {
    const gc = vi.fn();
    const collector = collectWhenIdle({ checkMs: 100, gc });
    try {
      // Start-up counts as work: the first idle sample collects.
      await vi.waitFor(() => expect(gc).toHaveBeenCalledTimes(1), { timeout: 5000, interval: 50 });
      await new Promise((r) => setTimeout(r, 400));
      expect(gc).toHaveBeenCalledTimes(1);
      spin(60);
      await vi.waitFor(() => expect(gc).toHaveBeenCalledTimes(2), { timeout: 5000, interval: 50 });
    } finally {
      collector.stop();
    }
  });

  it("takes V8's own collector when given none, and leaves no `gc` global behind", () => {
    const collector = collectWhenIdle({ checkMs: 60_000 });
    collector.stop();
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
