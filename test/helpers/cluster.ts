// `npm run start:cluster` as the edge tests run it: the real script, HAProxy and API replicas on
// loopback ports, PostgreSQL (a scratch database) and Redis (a unique key prefix).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtNodeArgs, builtTestEntry } from './built-main';
import { createScratchDatabase, type ScratchDatabase } from './db';
import { testEnv } from './env';

/** Debian's HAProxy (`.ci/install-system-deps.sh`), or null when it is not installed. */
export const haproxyVersion: string | null = (() => {
  const r = spawnSync('haproxy', ['-v'], { encoding: 'utf8' });
  return r.status === 0 ? (/HAProxy version (\S+)/.exec(r.stdout)?.[1] ?? 'unknown') : null;
})();

export interface TestCluster {
  edgeUrl: string;
  apiPorts: number[];
  /** Every port the cluster listens on: the edge, its ops page, the replicas and (unless api-only) the jobs and indexer health ports. */
  ports: number[];
  /** The process the test started (`node` running the script, or `npm` with `viaNpm`). */
  child: ChildProcess;
  databaseUrl: string;
  /** The cluster's DATA_DIR (its generated configs are in `cluster/`). */
  dataDir: string;
  output(): string;
  stop(): Promise<void>;
}

async function portFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** A base port with base, base+1 and base+100…base+192 free. */
async function freeBasePort(replicas: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 400) * 100;
    const ports = [base, base + 1, ...Array.from({ length: replicas }, (_, i) => base + 101 + i), base + 191, base + 192];
    if ((await Promise.all(ports.map((p) => portFree(p)))).every(Boolean)) return base;
  }
  throw new Error('no free port range for the cluster');
}

interface TestClusterOptions {
  replicas: number;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** Run `npm run start:cluster` as the README says, not the script under node. */
  viaNpm?: boolean;
  /** Default true: the edge and the replicas (test entry) only. False: jobs and indexer too, never the blog. */
  apiOnly?: boolean;
  /** The DATABASE_URL the processes get, from the scratch database's (e.g. through a fault proxy). */
  databaseUrl?: (scratchUrl: string) => string;
  /** Environment that needs the replicas' ports (chosen here). */
  portEnv?: (apiPorts: number[]) => Record<string, string>;
}

export async function startTestCluster(opts: TestClusterOptions): Promise<TestCluster> {
  const scratch: ScratchDatabase = await createScratchDatabase(testEnv.databaseUrl!);
  const dataDir = mkdtempSync(join(tmpdir(), 'edge-cluster-'));
  const base = await freeBasePort(opts.replicas);
  const apiOnly = opts.apiOnly ?? true;
  const scriptArgs = ['--replicas', String(opts.replicas), '--port', String(base), '--ops-port', String(base + 1), '--base-port', String(base + 100)];
  scriptArgs.push(...(apiOnly ? ['--api-only', '--api-entry', builtTestEntry('api-entry-edge'), '--served-by-header'] : ['--no-blog']));
  // Built as production runs it (the suite's build, test/helpers/built-main.ts), with its replicas.
  const [command, args] = opts.viaNpm ? ['npm', ['run', '--silent', 'start:cluster', '--', ...scriptArgs]] : [process.execPath, [...builtNodeArgs('start-cluster'), ...scriptArgs]];
  const child: ChildProcess = spawn(command, args, {
    env: {
      ...process.env,
      // Production settings, as deployed: no development secrets, so the replicas do not open the blog's CMS.
      NODE_ENV: 'production',
      JWT_SECRET: randomBytes(32).toString('hex'),
      PAYLOAD_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      DATABASE_URL: opts.databaseUrl ? opts.databaseUrl(scratch.url) : scratch.url,
      SHARED_STORE_URL: testEnv.redisUrl!,
      CACHE_STORE: 'redis',
      SHARED_STORE_KEY_PREFIX: `test:edge:${randomUUID()}:`,
      INDEXER_DISABLED: 'true',
      ...opts.env,
      ...opts.portEnv?.(Array.from({ length: opts.replicas }, (_, i) => base + 101 + i)),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const cleanup = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    await scratch.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`cluster did not get ready in time:\n${out.slice(-5000)}`)), opts.timeoutMs ?? 120_000);
      const check = () => {
        if (!out.includes('Cluster ready')) return;
        clearTimeout(timer);
        resolve();
      };
      child.stdout!.on('data', check);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`start:cluster exited with ${code}:\n${out.slice(-5000)}`));
      });
    });
  } catch (err) {
    await cleanup();
    throw err;
  }
  return {
    edgeUrl: `http://127.0.0.1:${base}`,
    apiPorts: Array.from({ length: opts.replicas }, (_, i) => base + 101 + i),
    ports: [base, base + 1, ...Array.from({ length: opts.replicas }, (_, i) => base + 101 + i), ...(apiOnly ? [] : [base + 191, base + 192])],
    child,
    databaseUrl: scratch.url,
    dataDir,
    output: () => out,
    stop: cleanup,
  };
}
