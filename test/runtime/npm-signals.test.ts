// The platform as the README starts it, stopped the way a supervisor stops it: SIGTERM to the pid
// it started (systemd with KillMode=process, a container runtime), or SIGINT to the whole
// foreground group (Ctrl-C, when npm forwards its own copy too). Every process the command started
// stops within the drain time, no port stays open and the command exits 0. Also: the underscore
// form of a setting (`GENERAL_PORT`) reaches the platform through npm's shell, and start:cluster
// without HAProxy says what to install.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIfStale } from '../../scripts/build';
import { shutdownBoundMs } from '../../src/runtime/shutdown';
import { haproxyVersion, startTestCluster } from '../helpers/cluster';
import { migratedDataDir } from '../helpers/db';
import { testEnv } from '../helpers/env';
import { until } from '../helpers/until';

/** pid → parent pid and state, from /proc. */
function processTable(): Map<number, { ppid: number; state: string }> {
  const table = new Map<number, { ppid: number; state: string }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid …": comm may hold spaces, so read after its closing parenthesis.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(entry), { ppid: Number(ppid), state: state! });
    } catch {
      // gone meanwhile
    }
  }
  return table;
}

/** Every live process below `root`. */
function descendants(root: number): number[] {
  const table = processTable();
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [pid, { ppid }] of table) {
      if (ppid === parent) {
        found.push(pid);
        walk(pid);
      }
    }
  };
  walk(root);
  return found;
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** A zombie has exited; only its parent has not collected it yet. */
const running = (pid: number): boolean => {
  const entry = processTable().get(pid);
  return entry !== undefined && entry.state !== 'Z';
};

const listening = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

const exitOf = (child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve({ code: child.exitCode, signal: child.signalCode })
    : new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

/** Sends the signal, then waits for the command's exit: its code, how long it took, what is left running and listening. */
async function stopAndInspect(child: ChildProcess, ports: number[], signal: NodeJS.Signals, target: 'pid' | 'group') {
  const tree = descendants(child.pid!);
  const started = Date.now();
  process.kill(target === 'pid' ? child.pid! : -child.pid!, signal);
  const exit = await exitOf(child);
  const ms = Date.now() - started;
  // Grandchildren still exiting after the leader (the supervisor kills each group on exit) get a moment, bounded.
  await until(() => tree.every((pid) => !running(pid)), 'every process the command started to exit', 5000).catch(() => undefined);
  const left = tree.filter(running);
  const open = (await Promise.all(ports.map(async (port) => ((await listening(port)) ? port : null)))).filter((p) => p !== null);
  // Orphans would outlive the test run: measured, then removed.
  for (const pid of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  return { exit, ms, left, open, tree };
}

/** The platform with its port in the underscore form, waited for until it prints its URLs. */
async function startPlatform(command: string, args: string[]) {
  const port = await freePort();
  const dataDir = await migratedDataDir('npm-start-');
  const child = spawn(command, args, {
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info', DATA_DIR: dataDir, GENERAL_PORT: String(port), 'GENERAL.PORT': '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own group, as a terminal's foreground job is: the test can signal the group like Ctrl-C does.
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const cleanup = () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  };
  await until(() => out.includes('Running roles') || child.exitCode !== null, `${command} to print its URLs`, 60_000, 100).catch((err) => {
    cleanup();
    throw err;
  });
  return { child, port, output: () => out, cleanup };
}

describe('npm start', () => {
  // The process's own bound on defaults (no drain delay): the longest a clean shutdown may take.
  const boundMs = shutdownBoundMs({ http: { drainDelayMs: 0, requestTimeoutMs: 5000 } });

  for (const [signal, target] of [
    ['SIGTERM', 'pid'],
    ['SIGINT', 'group'],
  ] as const) {
    it(`${signal} to the ${target === 'pid' ? 'pid the caller started' : 'whole group (Ctrl-C)'} stops every process, frees the port and exits 0`, async () => {
      // Jobs and indexer in the same process; no blog (its process needs a Next build first).
      const run = await startPlatform('npm', ['start', '--silent', '--', '--role', 'api,jobs,indexer']);
      try {
        expect(run.child.exitCode).toBeNull();
        // GENERAL_PORT went through npm's /bin/sh (which drops dotted names) and set the port.
        const health = await fetch(`http://127.0.0.1:${run.port}/api/health`);
        expect(health.status).toBe(200);
        const { exit, ms, left, open, tree } = await stopAndInspect(run.child, [run.port], signal, target);
        // At least the platform's node below npm.
        expect(tree.length).toBeGreaterThanOrEqual(1);
        expect({ exit, left, open }).toEqual({ exit: { code: 0, signal: null }, left: [], open: [] });
        expect(ms).toBeLessThan(boundMs);
        // One stop, not a stop and an "exit now": npm's forwarded copy of the signal is the same request.
        expect(run.output()).not.toContain('second signal');
        expect(run.output()).toMatch(/"exitCode":0,.*"msg":"stopped"/);
      } finally {
        run.cleanup();
      }
    }, 90_000);
  }
});

/** The Dockerfile's `ENTRYPOINT` and `CMD` (exec form), as the container runtime starts them. */
function imageCommand(): string[] {
  const dockerfile = readFileSync('Dockerfile', 'utf8');
  const exec = (instruction: string) => JSON.parse(new RegExp(`^${instruction} (\\[.*\\])$`, 'm').exec(dockerfile)![1]!) as string[];
  return [...exec('ENTRYPOINT'), ...exec('CMD')];
}

describe("the image's entry point", () => {
  // The image's build stage runs `npm run build`; here dist/ is rebuilt only if the sources changed.
  beforeAll(() => buildIfStale(), 60_000);

  it('SIGTERM to it (PID 1 in the container) stops the process, frees the port and exits 0', async () => {
    const [command, ...args] = imageCommand();
    expect(command).toBe('node');
    const run = await startPlatform(process.execPath, args);
    try {
      expect((await fetch(`http://127.0.0.1:${run.port}/api/health`)).status).toBe(200);
      const { exit, left, open } = await stopAndInspect(run.child, [run.port], 'SIGTERM', 'pid');
      expect({ exit, left, open }).toEqual({ exit: { code: 0, signal: null }, left: [], open: [] });
    } finally {
      run.cleanup();
    }
  }, 90_000);
});

const servicesPresent = Boolean(testEnv.databaseUrl && testEnv.redisUrl);
if (testEnv.requireServices && !haproxyVersion) throw new Error('REQUIRE_SERVICES=1 but haproxy is not installed (.ci/install-system-deps.sh installs it)');

describe.runIf(haproxyVersion && servicesPresent)('npm run start:cluster (the edge, two replicas, jobs, indexer)', () => {
  let stopCluster: (() => Promise<void>) | undefined;
  afterAll(async () => stopCluster?.(), 60_000);

  it('SIGTERM to npm stops the edge, every replica, jobs and indexer within the drain time, frees every port and exits 0', async () => {
    const cluster = await startTestCluster({ replicas: 2, viaNpm: true, apiOnly: false, env: { LOG_LEVEL: 'info' } });
    stopCluster = cluster.stop;
    expect((await fetch(`${cluster.edgeUrl}/api/health/ready`)).status).toBe(200);
    for (const port of cluster.ports) expect(await listening(port)).toBe(true);
    const { exit, ms, left, open, tree } = await stopAndInspect(cluster.child, cluster.ports, 'SIGTERM', 'pid');
    // npm, the cluster, haproxy, two replicas, jobs, indexer (each node with its esbuild service).
    expect(tree.length).toBeGreaterThanOrEqual(6);
    expect({ exit, left, open }).toEqual({ exit: { code: 0, signal: null }, left: [], open: [] });
    // The replicas' bound with the cluster's 2 s drain delay, plus the edge stopping after them.
    expect(ms).toBeLessThan(shutdownBoundMs({ http: { drainDelayMs: 2000, requestTimeoutMs: 5000 } }) + 1000);
    expect(cluster.output()).not.toContain('second signal');
    for (const name of ['api-1', 'api-2', 'jobs', 'indexer']) expect(cluster.output()).toMatch(new RegExp(`${name} +\\| .*"exitCode":0,.*"msg":"stopped"`));
  }, 180_000);
});

describe('npm run start:cluster without HAProxy', () => {
  it('exits 69 naming the package to install before starting anything', () => {
    // PATH with node and npm but not /usr/sbin, where Debian puts haproxy.
    const bin = path.join(process.cwd(), 'node_modules', '.bin');
    const r = spawnSync('npm', ['run', '--silent', 'start:cluster'], { env: { ...process.env, PATH: `${bin}:/usr/bin:/bin` }, encoding: 'utf8' });
    expect(spawnSync('sh', ['-c', 'command -v haproxy'], { env: { ...process.env, PATH: '/usr/bin:/bin' } }).status).not.toBe(0);
    expect(r.status).toBe(69);
    expect(r.stderr).toContain('no `haproxy` was found on PATH');
    expect(r.stderr).toContain('sudo apt-get install haproxy');
    expect(r.stdout).not.toContain('Cluster ready');
  });
});
