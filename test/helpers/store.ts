import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { captureLogger as captureLogs } from './logs';
import { testEnv } from './env';

export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** The shared capturing logger (./logs), at debug level, with level filters the store tests use. */
export function captureLogger(): { logger: Logger; lines: LogLine[]; warnings: () => LogLine[]; infos: () => LogLine[] } {
  const { logger, logs } = captureLogs({ level: 'debug' });
  const lines = logs.lines as LogLine[];
  return {
    logger,
    lines,
    warnings: () => lines.filter((l) => l.level === 40),
    infos: () => lines.filter((l) => l.level === 30),
  };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls until `check` is true or `ms` pass. */
export async function waitFor(check: () => boolean | Promise<boolean>, ms = 5_000, what = 'condition'): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await sleep(20);
  }
  throw new Error(`timed out waiting for ${what}`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Whether tests that need a service must fail (not skip) when it is missing. */
export const requireServices = testEnv.requireServices;

export const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;

/** A throwaway redis-server child process on its own port, for outage tests. */
export class ThrowawayRedis {
  private child: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  static async start(): Promise<ThrowawayRedis> {
    const r = new ThrowawayRedis(await freePort());
    await r.start();
    return r;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}/0`;
  }

  async start(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    this.child = spawn('redis-server', args, { stdio: 'ignore' });
    await waitFor(() => this.ping(), 5_000, `redis-server on ${this.port}`);
  }

  /** SIGKILL: the server vanishes without closing anything politely. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }

  /** SIGSTOP / SIGCONT: the server hangs with its connections open. */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  resume(): void {
    this.child?.kill('SIGCONT');
  }

  async ping(): Promise<boolean> {
    const c = new Redis({ port: this.port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    c.on('error', () => undefined);
    try {
      await c.connect();
      return (await c.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      c.disconnect();
    }
  }

  /** A plain client for inspecting the server directly. */
  client(): Redis {
    const c = new Redis({ port: this.port, host: '127.0.0.1' });
    c.on('error', () => undefined);
    return c;
  }
}
