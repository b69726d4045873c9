import { createHmac } from 'node:crypto';

/**
 * On-ramp A's URL signing: `signature = base64(HMAC-SHA256(secretKey, url.search))`, where
 * `url.search` is the query string exactly as the browser will send it (leading `?`, values
 * already percent-encoded), appended as the last parameter, itself percent-encoded.
 */
export interface OnrampAProvider {
  /** The widget URL with `&signature=…` appended, and the bare signature. */
  sign(widgetUrl: URL): { url: string; signature: string };
}

export function signatureOf(search: string, secretKey: string): string {
  return createHmac('sha256', secretKey).update(search).digest('base64');
}

export function createOnrampAProvider(opts: { secretKey: string }): OnrampAProvider {
  return {
    sign(widgetUrl) {
      // `href` and `search` come from one WHATWG serialization, so the signed string is the sent one.
      const signature = signatureOf(widgetUrl.search, opts.secretKey);
      return { url: `${widgetUrl.href}&signature=${encodeURIComponent(signature)}`, signature };
    },
  };
}
