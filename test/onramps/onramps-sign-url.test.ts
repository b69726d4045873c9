/**
 * On-ramp A's signed widget URL over real HTTP (REST and GraphQL): the provider's published
 * example (dev.moonpay.com "URL signing": key sk_test_key, the sandbox URL below) signs to the
 * value an independent HMAC (`openssl dgst -sha256 -hmac sk_test_key -binary | base64`) gives;
 * refusals; the secret never in an answer or a log line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnrampASignedUrlDocument } from '../../src/generated/graphql';
import { signatureOf } from '../../src/providers/onramp-a';
import { startApi, type TestApi } from '../helpers/api';
import { gql } from '../helpers/client';

const EXAMPLE_URL = 'https://buy-sandbox.moonpay.com?apiKey=pk_test_key&currencyCode=eth&walletAddress=0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae';
const EXAMPLE_SECRET = 'sk_test_key';
const EXAMPLE_SIGNATURE = 'o1eO2arzL16TstEolGakHHFa33Mb61RCTfqToRWg7PA=';

let api: TestApi;

beforeAll(async () => {
  api = await startApi({ env: { 'ONRAMP_A.WIDGET_URL': 'https://buy-sandbox.moonpay.com', 'ONRAMP_A.API_KEY': 'pk_test_key', 'ONRAMP_A.SECRET_KEY': EXAMPLE_SECRET } });
}, 60_000);
afterAll(async () => api?.close());

async function sign(body: unknown) {
  const res = await fetch(`${api.url}/api/onramp-a/sign-url`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

describe("on-ramp A's URL signature", () => {
  it("equals the provider's published example", () => {
    expect(signatureOf('?apiKey=pk_test_key&currencyCode=eth&walletAddress=0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae', EXAMPLE_SECRET)).toBe(EXAMPLE_SIGNATURE);
  });

  it('is appended last, URL-encoded, by POST /api/onramp-a/sign-url and the GraphQL query alike', async () => {
    const res = await sign({ url: EXAMPLE_URL });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      url: 'https://buy-sandbox.moonpay.com/?apiKey=pk_test_key&currencyCode=eth&walletAddress=0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae&signature=o1eO2arzL16TstEolGakHHFa33Mb61RCTfqToRWg7PA%3D',
      signature: EXAMPLE_SIGNATURE,
    });
    expect(new URL(res.body.url).searchParams.get('signature')).toBe(EXAMPLE_SIGNATURE);
    const viaGraphql = await gql(api.url, OnrampASignedUrlDocument, { url: EXAMPLE_URL });
    expect(viaGraphql.body.data?.onrampASignedUrl).toEqual(res.body);
  });

  it('signs the query string exactly as sent, percent-encoding included', async () => {
    const url = 'https://buy-sandbox.moonpay.com/?apiKey=pk_test_key&redirectURL=https%3A%2F%2Fapp.example%2Fdone&email=a%2Bb%40example.com';
    const res = await sign({ url });
    expect(res.body.signature).toBe(signatureOf(new URL(url).search, EXAMPLE_SECRET));
    expect(res.body.url).toBe(`${url}&signature=${encodeURIComponent(res.body.signature)}`);
  });

  it('refuses URLs it must not sign, with VALIDATION_FAILED on both transports', async () => {
    const refusals: Array<[unknown, RegExp]> = [
      [{}, /url is required/],
      [{ url: 42 }, /url must be a string/],
      [{ url: 'not a url' }, /absolute URL/],
      [{ url: 'https://evil.example/?apiKey=pk_test_key&walletAddress=0xabc' }, /on-ramp's origin/],
      [{ url: 'https://buy-sandbox.moonpay.com/?walletAddress=0xabc' }, /apiKey/],
      [{ url: 'https://buy-sandbox.moonpay.com/?apiKey=pk_other&walletAddress=0xabc' }, /apiKey/],
      [{ url: `${EXAMPLE_URL}&signature=abc` }, /already signed/],
      [{ url: `${EXAMPLE_URL}#frag` }, /fragment/],
      [{ url: EXAMPLE_URL, extra: true }, /extra/],
    ];
    for (const [body, message] of refusals) {
      const res = await sign(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(res.body.error.message).toMatch(message);
    }
    const viaGraphql = await gql(api.url, OnrampASignedUrlDocument, { url: 'https://evil.example/?apiKey=pk_test_key' });
    expect(viaGraphql.body.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');
  });

  it('never puts the secret key in an answer or a log line', async () => {
    const answers = await Promise.all([sign({ url: EXAMPLE_URL }), sign({ url: 'https://evil.example/' })]);
    expect(JSON.stringify(answers)).not.toContain(EXAMPLE_SECRET);
    expect(api.logs.raw.join('\n')).not.toContain(EXAMPLE_SECRET);
  });

  it('answers SERVICE_UNAVAILABLE when on-ramp A is not configured', async () => {
    const bare = await startApi();
    try {
      const res = await fetch(`${bare.url}/api/onramp-a/sign-url`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: EXAMPLE_URL }) });
      expect(res.status).toBe(503);
      expect((await res.json()).error.code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await bare.close();
    }
  });
});
