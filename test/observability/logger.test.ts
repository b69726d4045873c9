import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { chooseLogFormat, createLogger } from '../../src/observability/logger';
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

describe('log format', () => {
  it('is readable on a terminal and JSON elsewhere, unless LOG_FORMAT says otherwise', () => {
    expect(chooseLogFormat(undefined, true)).toBe('pretty');
    expect(chooseLogFormat(undefined, false)).toBe('json');
    expect(chooseLogFormat('json', true)).toBe('json');
    expect(chooseLogFormat('pretty', false)).toBe('pretty');
  });

  it('pretty: one coloured line per event, no JSON objects, secrets still redacted', () => {
    const secret = 'sk_live_super_secret_value';
    const chunks: string[] = [];
    const destination = new Writable({
      write(chunk, _enc, cb) {
        chunks.push(String(chunk));
        cb();
      },
    });
    const logger = createLogger({ level: 'info', secretValues: [secret], destination, format: 'pretty', colorize: true });
    logger.info({ url: `redis://user:${secret}@host` }, 'connecting');
    logger.warn({ url: '/blog/', cause: 'connect ECONNREFUSED 127.0.0.1:3001' }, 'blog proxy: upstream unavailable');
    logger.info({ req: { headers: { authorization: 'Bearer abc.def.ghi' } } }, `request with ${secret}`);
    const lines = chunks.join('').split('\n').filter(Boolean);
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(line).toContain('\x1b[');
      expect(line.startsWith('{')).toBe(false);
    }
    expect(stripAnsi(lines[1]!)).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: blog proxy: upstream unavailable \{"url":"\/blog\/","cause":"connect ECONNREFUSED 127\.0\.0\.1:3001"\}$/);
    const all = lines.join('\n');
    expect(all).not.toContain(secret);
    expect(all).not.toContain('abc.def.ghi');
    expect(all.match(/\[redacted\]/g)?.length).toBeGreaterThanOrEqual(3);
  });
});

// eslint-disable-next-line no-control-regex -- ANSI colour sequences
const stripAnsi = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');
