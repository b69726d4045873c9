import { Writable } from 'node:stream';
import { createLogger } from '../../src/observability/logger';

export interface CapturedLogs {
  lines: Array<Record<string, unknown> & { level: number; msg?: string }>;
  raw: string[];
}

/** A real pino logger whose JSON lines are kept for assertions. */
export function captureLogger(opts: { level?: string; secretValues?: string[] } = {}) {
  const logs: CapturedLogs = { lines: [], raw: [] };
  const destination = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        logs.raw.push(line);
        logs.lines.push(JSON.parse(line));
      }
      cb();
    },
  });
  const logger = createLogger({ level: opts.level ?? 'info', secretValues: opts.secretValues, destination });
  return { logger, logs };
}
