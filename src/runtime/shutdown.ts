import type { Config } from '../config';
import type { Logger } from '../observability/logger';

/** Beyond the request timeout, time to flush the last responses before open connections are cut. */
export const HTTP_CLOSE_SLACK_MS = 500;
/** Beyond the HTTP close: stopping roles, the blog process (its own 5 s stop timeout), the database and the store. */
const AFTER_HTTP_CLOSE_MS = 7000;

/**
 * The longest a clean shutdown may take from SIGTERM to exit (docs/operations.md, Shutdown): unready delay,
 * request timeout, flush slack, then the rest. src/runtime/process.ts exits at this bound whatever is left.
 */
export function shutdownBoundMs(config: { http: Pick<Config['http'], 'drainDelayMs' | 'requestTimeoutMs'> }): number {
  return config.http.drainDelayMs + config.http.requestTimeoutMs + HTTP_CLOSE_SLACK_MS + AFTER_HTTP_CLOSE_MS;
}

/**
 * The shutdown order, first to last: HTTP reports unready (for HTTP.DRAIN_DELAY_MS), stops accepting, refuses new requests with 503,
 * closes websockets with 1012 and drains in-flight requests; then the background roles; then
 * the blog process; then the database; the store last,
 * because everything above may still publish or count on it while stopping.
 */
const SHUTDOWN_PHASES = ['http', 'roles', 'blog', 'db', 'store'] as const;
type ShutdownPhase = (typeof SHUTDOWN_PHASES)[number];

export interface Shutdown {
  /** Registers a step; steps of one phase run in registration order. */
  add(phase: ShutdownPhase, name: string, step: () => Promise<void>): void;
  /** Runs every step once, phase by phase; a failing step is logged and the rest still run. */
  run(): Promise<void>;
  /** True once run() has been called. */
  readonly started: boolean;
}

export function createShutdown(logger: Logger): Shutdown {
  const steps = new Map<ShutdownPhase, Array<{ name: string; step: () => Promise<void> }>>(SHUTDOWN_PHASES.map((p) => [p, []]));
  let running: Promise<void> | null = null;

  async function runAll(): Promise<void> {
    for (const phase of SHUTDOWN_PHASES) {
      for (const { name, step } of steps.get(phase)!) {
        const started = Date.now();
        try {
          await step();
          logger.debug({ phase, step: name, ms: Date.now() - started }, 'shutdown step done');
        } catch (err) {
          logger.warn({ err, phase, step: name }, 'shutdown step failed');
        }
      }
    }
  }

  return {
    add(phase, name, step) {
      if (running) throw new Error(`shutdown already started; cannot add ${name}`);
      steps.get(phase)!.push({ name, step });
    },
    run() {
      running ??= runAll();
      return running;
    },
    get started() {
      return running !== null;
    },
  };
}
