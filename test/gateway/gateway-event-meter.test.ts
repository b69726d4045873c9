import { describe, expect, it } from 'vitest';
import { createEventMeter } from '../../src/edge/rate-limit';

describe('per-connection event meter', () => {
  const caps = { eventsPerWindow: 3, eventWindowMs: 1_000, abuseFactor: 2, maxEventBytes: 100 };

  it('refuses over-size and over-rate events one by one, and calls abuse only beyond the factor', () => {
    let now = 0;
    const meter = createEventMeter(caps, () => now);
    expect(meter.judge(101)).toBe('too-large');
    expect(meter.judge(10)).toBe('accept');
    expect(meter.judge(10)).toBe('accept');
    expect(meter.judge(10)).toBe('too-many');
    expect(meter.judge(10, false)).toBe('accept'); // a protocol message is never refused, only counted
    expect(meter.judge(10)).toBe('too-many');
    expect(meter.judge(10)).toBe('abuse');
    now = 1_000; // a new window
    expect(meter.judge(10)).toBe('accept');
  });

  it('refuses with the codes HTTP uses; the rate refusal says when the window ends', () => {
    let now = 0;
    const meter = createEventMeter({ ...caps, eventWindowMs: 10_000 }, () => now);
    now = 2_500;
    expect(meter.refusal('too-many')).toMatchObject({ code: 'RATE_LIMITED', details: { scope: 'connection', retryAfterSeconds: 8 } });
    expect(meter.refusal('too-large')).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: undefined });
  });
});
