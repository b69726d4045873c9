import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { createRequire } from 'node:module';
import type Pretty from 'pino-pretty';

export type { Logger } from 'pino';

const REDACTED = '[redacted]';

/** Header and field names whose values are never logged, wherever they appear. */
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-webhook-secret"]',
  'req.headers["x-contentpartner-secret"]',
  'req.headers["x-revalidate-secret"]',
  'headers.authorization',
  'password',
  '*.password',
  'token',
  '*.token',
  'secret',
  '*.secret',
];

/** `json`: one pino JSON object a line (collectors); `pretty`: one readable line an event (people). */
export type LogFormat = 'json' | 'pretty';

/** LOG_FORMAT when set; otherwise readable on a terminal and JSON anywhere else (pipes, files, collectors). */
export function chooseLogFormat(setting: LogFormat | undefined, stdoutIsTTY: boolean): LogFormat {
  return setting ?? (stdoutIsTTY ? 'pretty' : 'json');
}

export interface LoggerOptionsIn {
  level: string;
  secretValues?: string[];
  /** Default: standard output. */
  destination?: DestinationStream;
  name?: string;
  /** Default `json`. */
  format?: LogFormat;
  /** `pretty` only: ANSI colours (the caller knows whether its terminal has them). */
  colorize?: boolean;
}

/**
 * pino logger, JSON or readable. Besides path-based redaction, every configured secret value is
 * scrubbed from messages and fields, so a secret echoed inside an error text is not leaked; the
 * readable form is rendered from the same (already redacted) JSON.
 */
export function createLogger(opts: LoggerOptionsIn): Logger {
  const secrets = (opts.secretValues ?? []).filter((s) => s.length >= 4);
  const scrub = secrets.length ? (s: string) => secrets.reduce((acc, secret) => acc.split(secret).join(REDACTED), s) : null;
  const options: LoggerOptions = {
    level: opts.level,
    name: opts.name,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: { err: pino.stdSerializers.err },
  };
  if (scrub) {
    options.formatters = { log: (obj) => scrubDeep(obj, scrub) as Record<string, unknown> };
    options.hooks = {
      logMethod(args, method) {
        method.apply(this, args.map((a) => (typeof a === 'string' ? scrub(a) : a)) as Parameters<typeof method>);
      },
    };
  }
  return pino(options, opts.format === 'pretty' ? prettyStream(opts) : opts.destination);
}

function prettyStream(opts: LoggerOptionsIn): DestinationStream {
  // Required here, synchronously like the rest of createLogger: JSON logging (production) never loads it (issue 47).
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof Pretty;
  return pretty({
    // Synchronous like pino's own stdout destination: nothing is lost when the process exits at once.
    sync: true,
    destination: opts.destination ?? 1,
    colorize: opts.colorize ?? false,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
  });
}

function scrubDeep(value: unknown, scrub: (s: string) => string, depth = 0): unknown {
  if (depth > 8) return value;
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map((v) => scrubDeep(v, scrub, depth + 1));
  if (value instanceof Error) return scrubDeep(pino.stdSerializers.err(value), scrub, depth + 1);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = scrubDeep(v, scrub, depth + 1);
    return out;
  }
  return value;
}
