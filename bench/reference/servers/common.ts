import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../../src/config';
import { createLogger } from '../../../src/observability/logger';

/** The API's production settings with the bench's database, store and no rate limit. */
export function benchConfig() {
  return loadConfig({
    envDir: '/nonexistent',
    env: { ...process.env, DATABASE_URL: process.env.BENCH_DATABASE_URL, NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), PAYLOAD_SECRET: 'y'.repeat(32), LOG_LEVEL: 'warn', 'HTTP.RATE_LIMIT_MAX': '1000000000' },
  });
}

export const benchLogger = () => createLogger({ level: 'warn' });

export const flag = (name: string, fallback: string) => new RegExp(`--${name}=(\\S+)`).exec(process.argv.join(' '))?.[1] ?? fallback;

/** Tells bench/reference/run.ts the port; stops on SIGTERM. */
export async function announce(app: FastifyInstance | { url: string }, close: () => Promise<void>): Promise<void> {
  let port: string;
  if ('url' in app) port = new URL(app.url).port;
  else {
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = String((app.server.address() as { port: number }).port);
  }
  process.stdout.write(`READY ${port}\n`);
  process.once('SIGTERM', () => {
    void close().finally(() => process.exit(0));
  });
}
