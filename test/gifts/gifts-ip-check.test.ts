import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIpCheckFixture, type IpCheckFixture } from '../fixtures/ip-check';
import { createIpCheck } from '../../src/providers/ip-check';

// The anti-proxy adapter against the proxycheck-format fixture on loopback: it never throws.

let fixture: IpCheckFixture;
beforeAll(async () => {
  fixture = await startIpCheckFixture();
});
afterAll(async () => fixture?.close());

describe('anti-proxy adapter', () => {
  it('clean and proxy verdicts, with the service type', async () => {
    const check = createIpCheck({ url: fixture.url, apiKey: fixture.key });
    fixture.proxies.add('203.0.113.9');
    expect(await check.check('198.51.100.7')).toEqual({ outcome: 'clean', type: 'Residential' });
    expect(await check.check('203.0.113.9')).toEqual({ outcome: 'proxy', type: 'VPN' });
    expect(await check.check('2001:db8::1')).toEqual({ outcome: 'clean', type: 'Residential' });
    expect(fixture.asked.slice(-3)).toEqual(['198.51.100.7', '203.0.113.9', '2001:db8::1']);
  });

  it('failure, hang past the timeout, a refused key and no server are `failed` verdicts', async () => {
    const check = createIpCheck({ url: fixture.url, apiKey: fixture.key, timeoutMs: 200 });
    fixture.setMode('fail');
    expect(await check.check('198.51.100.7')).toEqual({ outcome: 'failed', reason: 'http_status', status: 500 });
    fixture.setMode('hang');
    expect(await check.check('198.51.100.7')).toEqual({ outcome: 'failed', reason: 'timeout' });
    fixture.setMode('ok');
    expect(await createIpCheck({ url: fixture.url, apiKey: 'wrong' }).check('198.51.100.7')).toEqual({ outcome: 'failed', reason: 'bad_answer' });
    expect(await createIpCheck({ url: 'http://127.0.0.1:1', apiKey: fixture.key }).check('198.51.100.7')).toEqual({ outcome: 'failed', reason: 'unreachable' });
  });

  it('the default timeout is 1.5 s', async () => {
    fixture.setMode('hang');
    const started = performance.now();
    expect(await createIpCheck({ url: fixture.url, apiKey: fixture.key }).check('198.51.100.7')).toEqual({ outcome: 'failed', reason: 'timeout' });
    // Answered by our timer, not the peer: at least the 1.5 s budget, far under the 5 s request limit.
    expect(performance.now() - started).toBeGreaterThanOrEqual(1400);
    fixture.setMode('ok');
  });
});
