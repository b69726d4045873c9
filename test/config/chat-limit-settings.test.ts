import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createEventMeter } from '../../src/edge/rate-limit';

const configOf = (env: Record<string, string>) => loadConfig({ envDir: '/nonexistent', env });

describe('chat limit settings', () => {
  it('default to the limits the gateway and the chat service had as constants', () => {
    const config = configOf({});
    expect(config.chat).toEqual({ messagesPerWindow: 10, reactionsPerWindow: 30, windowMs: 10_000, typingDebounceMs: 3_000, historyRetentionDays: 90, reportsPerWindow: 5, messagesPerIpPerWindow: 300 });
    expect(config.websocket).toEqual({
      perService: 10_000,
      perIp: 20,
      perWallet: 5,
      eventsPerWindow: 60,
      eventWindowMs: 10_000,
      eventsPerIp: 600,
      eventsPerWallet: 180,
      eventsPerService: 200_000,
      abuseFactor: 4,
      maxEventBytes: 8 * 1024,
      maxPayloadBytes: 16 * 1024,
      roomsPerConnection: 10,
    });
  });

  it('a per-connection event limit set in the environment is the one the event meter applies', () => {
    const { websocket } = configOf({ WEBSOCKET_EVENT_RATE_LIMIT_MAX: '3', 'WEBSOCKET.EVENT_ABUSE_FACTOR': '2' });
    const meter = createEventMeter(websocket, () => 0);
    expect([1, 2, 3, 4, 5, 6, 7].map(() => meter.judge(10))).toEqual(['accept', 'accept', 'accept', 'too-many', 'too-many', 'too-many', 'abuse']);
  });

  it('refuses a bad value with the setting named', () => {
    expect(() => configOf({ CHAT_MESSAGE_RATE_LIMIT_MAX: '0' })).toThrow(/CHAT\.MESSAGE_RATE_LIMIT_MAX: must be >= 1 \(got "0"\)/);
  });
});
