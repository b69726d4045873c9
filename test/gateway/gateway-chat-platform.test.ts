import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatPlatformRelay } from '../../src/providers/chat-platform';
import { startChatPlatformFixture, type ChatPlatformFixture } from '../fixtures/chat-platform';
import { captureLogger } from '../helpers/logs';

/** The relay adapter alone against the loopback webhook fixture. */
describe('chat platform relay adapter', () => {
  let platform: ChatPlatformFixture;
  beforeAll(async () => {
    platform = await startChatPlatformFixture();
  });
  afterAll(async () => platform?.close());
  const message = (text: string) => ({ room: 'global', author: '0x' + 'a'.repeat(64), text });

  it('sends through a queue of bounded concurrency: 10 messages, never more than 2 calls at once', async () => {
    const { logger } = captureLogger();
    const relay = createChatPlatformRelay({ webhookUrl: platform.webhookUrl, logger, concurrency: 2 });
    platform.state.delayMs = 50;
    platform.state.maxInFlight = 0;
    try {
      for (let i = 0; i < 10; i++) relay.relay(message(`burst ${i}`));
      await relay.idle();
      expect(platform.received.filter((m) => m.content.startsWith('burst ')).map((m) => m.content).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `burst ${i}`).sort());
      expect(platform.state.maxInFlight).toBe(2);
    } finally {
      platform.state.delayMs = 0;
      await relay.close();
    }
  });

  it('gives up at once on a refusal that a retry cannot fix (401: wrong token), and after the last attempt when down', async () => {
    const { logger, logs } = captureLogger();
    const wrong = createChatPlatformRelay({ webhookUrl: platform.webhookUrl.replace(platform.token, 'not-the-token'), logger });
    wrong.relay(message('wrong token'));
    await wrong.idle();
    expect(logs.lines.filter((l) => l.msg === 'chat relay: retrying')).toHaveLength(0);
    expect(logs.lines.find((l) => l.msg === 'chat relay: message dropped')).toMatchObject({ attempt: 1, reason: 'refused with 401' });
    await wrong.close();

    platform.state.down = true;
    const attempts = platform.state.attempts;
    const down = createChatPlatformRelay({ webhookUrl: platform.webhookUrl, logger, maxAttempts: 3, baseDelayMs: 10 });
    try {
      down.relay(message('never delivered'));
      await down.idle();
      expect(platform.state.attempts - attempts).toBe(3);
      expect(logs.lines.filter((l) => l.msg === 'chat relay: message dropped').at(-1)).toMatchObject({ attempt: 3, reason: 'answered 503' });
    } finally {
      platform.state.down = false;
      await down.close();
    }
  });

  it('a queue full of waiting messages drops new ones (memory stays bounded) and close() stops retries at once', { timeout: 10_000 }, async () => {
    const { logger, logs } = captureLogger();
    platform.state.down = true;
    const relay = createChatPlatformRelay({ webhookUrl: platform.webhookUrl, logger, concurrency: 1, maxQueued: 2, baseDelayMs: 60_000 });
    try {
      for (let i = 0; i < 5; i++) relay.relay(message(`queued ${i}`));
      expect(logs.lines.filter((l) => l.msg === 'chat relay: queue full, message dropped').length).toBeGreaterThanOrEqual(2);
      // resolves at once: waiting out the 60 s backoff would overrun this test's timeout
      await relay.close();
      expect(platform.received.some((m) => m.content.startsWith('queued '))).toBe(false);
    } finally {
      platform.state.down = false;
    }
  });
});
