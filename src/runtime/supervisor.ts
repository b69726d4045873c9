import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Logger } from '../observability/logger';

export interface SupervisionPolicy {
  /**
   * Delay before a restart after a crash: initialMs · 2^(crashes in the window − 1), at most maxMs.
   * After a clean stop someone else asked for (SIGTERM, exit 0): initialMs, and it is not counted.
   */
  backoff: { initialMs: number; maxMs: number };
  /** `exits` crashes within `windowMs` is a crash loop: the supervisor gives up. Clean stops do not count. */
  crashLoop: { exits: number; windowMs: number };
  /** After SIGTERM, how long the process group may take before SIGKILL. */
  stopTimeoutMs: number;
}

const DEFAULT_SUPERVISION: SupervisionPolicy = {
  backoff: { initialMs: 1000, maxMs: 30_000 },
  crashLoop: { exits: 5, windowMs: 60_000 },
  stopTimeoutMs: 5000,
};

export interface SupervisedCommand {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
}

type SupervisedState = 'running' | 'restarting' | 'stopped' | 'failed';

export interface SupervisedStatus {
  name: string;
  state: SupervisedState;
  pid: number | null;
  /** Restarts since this process started. */
  restarts: number;
  lastExit: { code: number | null; signal: string | null; at: string } | null;
}

interface SupervisorOptions {
  name: string;
  run: SupervisedCommand;
  logger: Logger;
  policy?: Partial<SupervisionPolicy>;
  /** Called once when the child crash-loops; the supervisor has stopped restarting it. */
  onGiveUp: (err: Error) => void;
  /** Called on every state change (metrics). */
  onStatus?: (status: SupervisedStatus) => void;
  /** Messages the child sends over its IPC channel (`process.send`). */
  onMessage?: (message: unknown) => void;
  /** The child's output, line by line; unset: it writes to this process's stdout and stderr. */
  onOutput?: (line: string, stream: 'stdout' | 'stderr') => void;
}

export interface Supervisor {
  status(): SupervisedStatus;
  /** Stops the child (SIGTERM to its process group, SIGKILL after the stop timeout); no restart follows. */
  stop(): Promise<void>;
}

/**
 * Runs a child process and restarts it with exponential backoff when it exits. The child leads
 * its own process group, so grandchildren (the blog's `next start`) stop with it and an orphan
 * never keeps the port of the next attempt. It also gets an IPC channel: when this process dies,
 * the channel closes and the child can stop itself.
 */
export function superviseProcess(opts: SupervisorOptions): Supervisor {
  const policy: SupervisionPolicy = { ...DEFAULT_SUPERVISION, ...opts.policy };
  const log = opts.logger.child({ supervised: opts.name });
  const exits: number[] = [];
  let child: ChildProcess | null = null;
  let restartTimer: NodeJS.Timeout | null = null;
  let stopping: Promise<void> | null = null;
  const status: SupervisedStatus = { name: opts.name, state: 'restarting', pid: null, restarts: 0, lastExit: null };
  const changed = (patch: Partial<SupervisedStatus>) => {
    Object.assign(status, patch);
    opts.onStatus?.({ ...status });
  };

  function start(): void {
    restartTimer = null;
    const proc = spawn(opts.run.command, opts.run.args, {
      cwd: opts.run.cwd,
      env: opts.run.env,
      detached: true,
      stdio: ['ignore', opts.onOutput ? 'pipe' : 'inherit', opts.onOutput ? 'pipe' : 'inherit', 'ipc'],
    });
    child = proc;
    if (opts.onOutput) {
      const onOutput = opts.onOutput;
      for (const stream of ['stdout', 'stderr'] as const) {
        const readable = proc[stream];
        if (readable) createInterface({ input: readable, crlfDelay: Infinity }).on('line', (line) => onOutput(line, stream));
      }
    }
    let exited = false;
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      if (exited) return;
      exited = true;
      // Whatever the leader left behind in its group goes too.
      killGroup(proc, 'SIGKILL');
      if (child === proc) child = null;
      const lastExit = { code, signal, at: new Date().toISOString() };
      if (stopping) changed({ state: 'stopped', pid: null, lastExit });
      else afterUnexpectedExit(lastExit);
    };
    proc.on('message', (message) => opts.onMessage?.(message));
    proc.once('exit', onExit);
    proc.once('error', (err) => {
      log.error({ err }, `${opts.name}: could not start the process`);
      onExit(null, null);
    });
    changed({ state: 'running', pid: proc.pid ?? null });
    log.info({ pid: proc.pid, restarts: status.restarts }, `${opts.name}: process started`);
  }

  function afterUnexpectedExit(lastExit: NonNullable<SupervisedStatus['lastExit']>): void {
    const { code, signal } = lastExit;
    if (stoppedOnPurpose(code, signal)) {
      // Someone else stopped it (a rolling restart, an operator's kill): not a crash, so no count and no growth.
      const delayMs = policy.backoff.initialMs;
      changed({ state: 'restarting', pid: null, lastExit, restarts: status.restarts + 1 });
      log.info({ code, signal, delayMs }, `${opts.name}: process stopped cleanly; restarting in ${delayMs} ms`);
      restartTimer = setTimeout(start, delayMs);
      return;
    }
    const now = Date.now();
    exits.push(now);
    while (exits.length && now - exits[0]! > policy.crashLoop.windowMs) exits.shift();
    if (exits.length >= policy.crashLoop.exits) {
      changed({ state: 'failed', pid: null, lastExit });
      const err = new Error(
        `${opts.name}: crash loop, the process exited ${exits.length} times within ${Math.round(policy.crashLoop.windowMs / 1000)} s ` +
          `(last: ${signal ? `signal ${signal}` : `exit code ${code}`}); not restarting it`,
      );
      log.fatal({ code, signal, exits: exits.length }, err.message);
      opts.onGiveUp(err);
      return;
    }
    const delayMs = Math.min(policy.backoff.maxMs, policy.backoff.initialMs * 2 ** (exits.length - 1));
    changed({ state: 'restarting', pid: null, lastExit, restarts: status.restarts + 1 });
    log.warn({ code, signal, delayMs, exitsInWindow: exits.length }, `${opts.name}: process exited unexpectedly; restarting in ${delayMs} ms`);
    restartTimer = setTimeout(start, delayMs);
  }

  start();

  return {
    status: () => ({ ...status }),
    stop() {
      stopping ??= (async () => {
        if (restartTimer) clearTimeout(restartTimer);
        const proc = child;
        if (proc && proc.exitCode === null && proc.signalCode === null) {
          const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
          killGroup(proc, 'SIGTERM');
          const kill = setTimeout(() => {
            log.warn({ timeoutMs: policy.stopTimeoutMs }, `${opts.name}: did not stop in time; killing it`);
            killGroup(proc, 'SIGKILL');
          }, policy.stopTimeoutMs);
          await exited;
          clearTimeout(kill);
        }
        if (status.state !== 'failed' && status.state !== 'stopped') changed({ state: 'stopped', pid: null });
      })();
      return stopping;
    },
  };
}

const STOP_SIGNALS: ReadonlySet<string> = new Set(['SIGTERM', 'SIGINT']);
const STOP_SIGNAL_CODES: ReadonlySet<number> = new Set([128 + 15, 128 + 2]);

/**
 * A clean stop: exit code 0 (our processes exit 0 only after a stop signal or their supervisor's
 * disconnect) or ended by SIGTERM/SIGINT, directly or as 128 + n. Anything else is a crash.
 */
function stoppedOnPurpose(code: number | null, signal: string | null): boolean {
  return code === 0 || (signal !== null && STOP_SIGNALS.has(signal)) || (code !== null && STOP_SIGNAL_CODES.has(code));
}

function killGroup(proc: ChildProcess, signal: NodeJS.Signals): void {
  if (!proc.pid) return;
  try {
    process.kill(-proc.pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}
