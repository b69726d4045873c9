import type { Logger } from '../observability/logger';

// eslint-disable-next-line no-control-regex -- ANSI colour sequences start with ESC
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;
const PINO_LEVELS: Record<number, 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal'> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

function jsonObject(text: string): Record<string, unknown> | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One line of the blog process (Payload's pino JSON, Next's and blog-serve's plain lines) as one
 * event of this process's log, so the log has one format whether it goes to a terminal or a file
 * (LOG_FORMAT), no colour codes in a file, and this process's secret scrubbing applies.
 */
export function relayBlogLine(logger: Logger, line: string, stream: 'stdout' | 'stderr'): void {
  const text = line.replace(ANSI, '').trimEnd();
  if (!text.trim()) return;
  const entry = jsonObject(text);
  if (entry && typeof entry.msg === 'string') {
    const { level, msg, time: _time, pid: _pid, hostname: _hostname, ...fields } = entry;
    logger[(typeof level === 'number' && PINO_LEVELS[level]) || 'info']({ ...fields, from: 'blog' }, msg);
    return;
  }
  logger[stream === 'stderr' ? 'warn' : 'info']({ from: 'blog' }, text.trim());
}
