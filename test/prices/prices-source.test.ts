import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPriceSourceFixture, type PriceSourceFixture } from '../fixtures/price-source';
import { createPriceSource } from '../../src/providers/price-source';
import { isAppError } from '../../src/errors';

// The price-source adapter against the CoinGecko-format fixture on loopback.

let fixture: PriceSourceFixture;
beforeAll(async () => {
  fixture = await startPriceSourceFixture();
});
afterAll(async () => fixture?.close());

async function failure(promise: Promise<unknown>) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isAppError(err)) throw new Error(`expected an AppError, got ${String(err)}`);
  return err;
}

describe('price source adapter', () => {
  it('reads both assets with the digits the source wrote (no double rounding), exponents written out', async () => {
    fixture.prices = { sui: '3.123456789012345678', 'usd-coin': '1.5e-7' };
    const source = createPriceSource({ url: fixture.url, apiKey: fixture.key });
    expect(await source.fetchUsdPrices()).toEqual({ SUI: '3.123456789012345678', USDC: '0.00000015' });
    fixture.prices = { sui: '3.4125', 'usd-coin': '0.99985' };
  });

  it('refusals, failures, hangs and incomplete answers are UPSTREAM_UNAVAILABLE without the key', async () => {
    const wrongKey = await failure(createPriceSource({ url: fixture.url, apiKey: 'wrong-key' }).fetchUsdPrices());
    expect(wrongKey).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', details: { status: 401 } });

    const source = createPriceSource({ url: fixture.url, apiKey: fixture.key, timeoutMs: 300 });
    fixture.setMode('fail');
    expect(await failure(source.fetchUsdPrices())).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', details: { status: 500 } });
    fixture.setMode('hang');
    expect((await failure(source.fetchUsdPrices())).message).toContain('did not answer within 300 ms');
    fixture.setMode('ok');

    fixture.prices = { sui: '3.4' };
    const missing = await failure(source.fetchUsdPrices());
    expect(missing).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', details: { asset: 'USDC' } });
    fixture.prices = { sui: '0', 'usd-coin': '1' };
    expect((await failure(source.fetchUsdPrices())).details).toMatchObject({ asset: 'SUI' });
    fixture.prices = { sui: '3.4125', 'usd-coin': '0.99985' };

    const closed = await failure(createPriceSource({ url: 'http://127.0.0.1:1', apiKey: fixture.key }).fetchUsdPrices());
    expect(closed.message).toContain('could not be reached');
    for (const err of [wrongKey, missing, closed]) expect(JSON.stringify({ m: err.message, d: err.details })).not.toContain(fixture.key);
  });
});
