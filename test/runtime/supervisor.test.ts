import { describe, expect, it } from 'vitest';
import { superviseProcess, type SupervisedCommand, type SupervisedStatus } from '../../src/runtime/supervisor';
import { captureLogger } from '../helpers/logs';
import { waitFor } from '../helpers/store';

/** Real child processes (plain `node -e` programs) stand in for any supervised command. */
const node = (program: string): SupervisedCommand => ({ command: process.execPath, args: ['-e', program], env: { NODE_ENV: 'test' } });
const LONG_LIVED = node('setInterval(() => {}, 1000)');
const FAST_POLICY = { backoff: { initialMs: 10, maxMs: 40 }, crashLoop: { exits: 4, windowMs: 60_000 }, stopTimeoutMs: 2000 };

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('superviseProcess', () => {
  it('restarts a killed child with a new pid and reports it in status and logs', async () => {
    const { logger, logs } = captureLogger({ level: 'debug' });
    const statuses: SupervisedStatus[] = [];
    const sup = superviseProcess({ name: 'demo', run: LONG_LIVED, logger, policy: FAST_POLICY, onGiveUp: () => undefined, onStatus: (s) => statuses.push(s) });
    try {
      await waitFor(() => sup.status().pid !== null, 5000, 'first start');
      const first = sup.status().pid!;
      process.kill(first, 'SIGKILL');
      await waitFor(() => sup.status().state === 'running' && sup.status().pid !== first, 10_000, 'restart');
      expect(sup.status()).toMatchObject({ state: 'running', restarts: 1, lastExit: { code: null, signal: 'SIGKILL' } });
      expect(statuses.map((s) => s.state)).toEqual(['running', 'restarting', 'running']);
      expect(logs.lines.map((l) => l.msg)).toEqual(
        expect.arrayContaining(['demo: process started', expect.stringMatching(/^demo: process exited unexpectedly; restarting in \d+ ms$/)]),
      );
    } finally {
      await sup.stop();
    }
  });

  it('stops the whole process group, grandchildren included, and does not restart it', async () => {
    const { logger } = captureLogger();
    // The child starts a grandchild and prints its pid (like blog-serve starting `next start`).
    const parent = node(
      `const c = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); require('node:fs').writeFileSync(process.env.PID_FILE, String(c.pid)); setInterval(() => {}, 1000)`,
    );
    const pidFile = `${process.env.TMPDIR ?? '/tmp'}/supervisor-grandchild-${process.pid}-${Date.now()}`;
    const sup = superviseProcess({ name: 'group', run: { ...parent, env: { NODE_ENV: 'test', PID_FILE: pidFile } }, logger, policy: FAST_POLICY, onGiveUp: () => undefined });
    const { readFileSync, existsSync, rmSync } = await import('node:fs');
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').length > 0, 10_000, 'grandchild pid');
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    const child = sup.status().pid!;
    expect(alive(grandchild)).toBe(true);
    await sup.stop();
    rmSync(pidFile, { force: true });
    await waitFor(() => !alive(grandchild) && !alive(child), 5000, 'the group to exit');
    expect(sup.status()).toMatchObject({ state: 'stopped', pid: null, restarts: 0 });
  });

  it('kills what a crashed child left behind before restarting', async () => {
    const { logger } = captureLogger();
    const pidFile = `${process.env.TMPDIR ?? '/tmp'}/supervisor-orphan-${process.pid}-${Date.now()}`;
    const { readFileSync, existsSync, rmSync, writeFileSync } = await import('node:fs');
    writeFileSync(pidFile, '');
    // Each run starts a grandchild, appends its pid, then the child itself dies.
    const crashing = node(
      `const c = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); require('node:fs').appendFileSync(process.env.PID_FILE, c.pid + '\\n'); setTimeout(() => process.exit(3), 200)`,
    );
    const sup = superviseProcess({ name: 'orphans', run: { ...crashing, env: { NODE_ENV: 'test', PID_FILE: pidFile } }, logger, policy: { ...FAST_POLICY, crashLoop: { exits: 10, windowMs: 60_000 } }, onGiveUp: () => undefined });
    try {
      await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim().split('\n').length >= 2, 10_000, 'two runs');
      const [firstGrandchild] = readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
      await waitFor(() => !alive(firstGrandchild!), 5000, 'the first run’s grandchild to be killed');
    } finally {
      await sup.stop();
      rmSync(pidFile, { force: true });
    }
  });

  it('gives up after the crash-loop count of exits within the window, with backoff growing between restarts', async () => {
    const { logger, logs } = captureLogger();
    let gaveUp: Error | null = null;
    const sup = superviseProcess({ name: 'crashy', run: node('process.exit(7)'), logger, policy: FAST_POLICY, onGiveUp: (err) => (gaveUp = err) });
    await waitFor(() => gaveUp !== null, 15_000, 'the supervisor to give up');
    expect(gaveUp!.message).toBe('crashy: crash loop, the process exited 4 times within 60 s (last: exit code 7); not restarting it');
    expect(sup.status()).toMatchObject({ state: 'failed', pid: null, restarts: 3, lastExit: { code: 7, signal: null } });
    const delays = logs.lines.filter((l) => l.msg?.includes('restarting in')).map((l) => l.delayMs);
    expect(delays).toEqual([10, 20, 40]);
    expect(logs.lines.some((l) => l.level === 60 && l.msg === gaveUp!.message)).toBe(true);
    await sup.stop();
  });

  it('restarts a child stopped by SIGTERM (or exiting 0) after the initial delay, without counting it toward the crash loop; a crash still counts', async () => {
    const { logger, logs } = captureLogger();
    let gaveUp: Error | null = null;
    // The platform's way: exit 0 on SIGTERM. Five clean stops, more than the crash-loop count of 4.
    const graceful = node(`process.on('SIGTERM', () => process.exit(0)); setInterval(() => {}, 1000)`);
    const sup = superviseProcess({ name: 'replica', run: graceful, logger, policy: FAST_POLICY, onGiveUp: (err) => (gaveUp = err) });
    const stopAndAwaitRestart = async (signal: NodeJS.Signals) => {
      await waitFor(() => sup.status().state === 'running' && sup.status().pid !== null, 5000, 'running');
      const pid = sup.status().pid!;
      const restarts = sup.status().restarts;
      // Before the child's handler is installed SIGTERM ends it by the signal itself: a clean stop too.
      process.kill(pid, signal);
      await waitFor(() => sup.status().restarts === restarts + 1 && sup.status().state === 'running', 10_000, `restart after ${signal}`);
    };
    try {
      for (let i = 0; i < 5; i++) await stopAndAwaitRestart('SIGTERM');
      expect(gaveUp).toBeNull();
      expect(sup.status()).toMatchObject({ state: 'running', restarts: 5 });
      const clean = logs.lines.filter((l) => l.msg === 'replica: process stopped cleanly; restarting in 10 ms');
      expect(clean).toHaveLength(5);
      expect(clean.map((l) => l.delayMs)).toEqual([10, 10, 10, 10, 10]);
      // Crashes still count, from 1: backoff 10, 20, 40, then the fourth gives up.
      for (let i = 0; i < 3; i++) await stopAndAwaitRestart('SIGKILL');
      expect(logs.lines.filter((l) => l.msg?.includes('exited unexpectedly')).map((l) => l.delayMs)).toEqual([10, 20, 40]);
      process.kill(sup.status().pid!, 'SIGKILL');
      await waitFor(() => gaveUp !== null, 10_000, 'the supervisor to give up after the fourth crash');
      expect(gaveUp!.message).toBe('replica: crash loop, the process exited 4 times within 60 s (last: signal SIGKILL); not restarting it');
    } finally {
      await sup.stop();
    }
  });
});
