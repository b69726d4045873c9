import { describe, expect, it } from 'vitest';
import { captureLogger } from '../helpers/logs';

describe('logger redaction', () => {
  it('removes secret values from messages, fields and errors, and secret headers by path', () => {
    const secret = 'sk_live_super_secret_value';
    const { logger, logs } = captureLogger({ secretValues: [secret] });
    logger.info({ url: `redis://user:${secret}@host`, nested: { list: [secret] } }, `connecting with ${secret}`);
    logger.error({ err: new Error(`bad key ${secret}`) }, 'failed');
    logger.info({ req: { headers: { authorization: 'Bearer abc.def.ghi', cookie: 'sid=1' } } }, 'request');
    const all = logs.raw.join('\n');
    expect(all).not.toContain(secret);
    expect(all).not.toContain('abc.def.ghi');
    expect(all).not.toContain('sid=1');
    expect(all.match(/\[redacted\]/g)?.length).toBeGreaterThanOrEqual(5);
  });
});
