// Start-up failures with a known outside cause, as a newcomer meets them: real `src/main.ts`
// processes, each refused at once with exit 69 (EX_UNAVAILABLE) and a message naming the setting
// to change; no stack trace. And the development JWT key: one per data directory, so a token
// minted by one developer instance is refused by another.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loginWithKeypair } from '../helpers/auth';
import { migratedDataDir } from '../helpers/db';
import { spawnMain, type SpawnedApi } from '../helpers/process';
import { nodeVersionProblem } from '../../src/node-version';
import { BUILT_MAIN_ARGS } from '../helpers/built-main';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
const servers: Server[] = [];
const apis: SpawnedApi[] = [];
const dataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'startup-'));
  dirs.push(dir);
  return dir;
};
/** For a process that starts: its embedded database already migrated (these tests are not about the first start). */
const migratedDir = async () => {
  const dir = await migratedDataDir('startup-');
  dirs.push(dir);
  return dir;
};
afterEach(async () => {
  await Promise.all(apis.splice(0).map((a) => a.stop()));
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Exited {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs the built src/main.ts with `args` in a clean environment and waits for its exit. */
function runMain(args: string[], env: Record<string, string>, node = process.execPath): Promise<Exited> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const clean: NodeJS.ProcessEnv = { NODE_ENV: 'development', PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir(), ...env };
    const child = spawn(node, [...BUILT_MAIN_ARGS, ...args], { cwd: ROOT, env: clean, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
  });
}

/** A port held by this test process, as a first instance would hold it. */
async function holdPort(host?: string): Promise<number> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen({ port: 0, host }, resolve));
  return (server.address() as { port: number }).port;
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1' }, resolve));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

const noStack = (text: string) => expect(text).not.toMatch(/^\s+at /m);

describe('a port in use', () => {
  it('GENERAL.PORT taken: exit 69 within 3 s naming the port, its holder and the settings to change', async () => {
    const port = await holdPort('127.0.0.1');
    const run = await runMain(['--role', 'api'], { GENERAL_PORT: String(port) });
    expect(run.code).toBe(69);
    expect(run.ms).toBeLessThan(3000);
    expect(run.stderr).toContain(`Port ${port} (GENERAL_PORT) is already in use on 127.0.0.1:${port}, by node (pid ${process.pid})`);
    for (const setting of ['GENERAL_PORT', 'APP_URL', 'BLOG_PORT']) expect(run.stderr).toContain(setting);
    noStack(run.stderr);
    expect(run.stdout).not.toContain('Running roles');
  }, 30_000);

  it('BLOG_PORT taken: the blog process is never started', async () => {
    const port = await holdPort();
    const run = await runMain(['--role', 'blog'], { BLOG_PORT: String(port) });
    expect(run.code).toBe(69);
    expect(run.ms).toBeLessThan(3000);
    expect(run.stderr).toContain(`Port ${port} (BLOG_PORT) is already in use`);
    expect(run.stdout).not.toContain('blog: process started');
    noStack(run.stderr);
  }, 30_000);
});

describe('an outside service that does not answer', () => {
  it('DATABASE_URL unreachable: exit 69 naming the setting, the address and the fix, password redacted', async () => {
    const port = await closedPort();
    const run = await runMain(['--role', 'api'], { GENERAL_PORT: '0', DATABASE_URL: `postgres://nouser:hunter2@127.0.0.1:${port}/x` });
    expect(run.code).toBe(69);
    expect(run.stderr).toContain(`DATABASE_URL (postgres://nouser:***@127.0.0.1:${port}/x): cannot open PostgreSQL: nothing answers at 127.0.0.1:${port}`);
    expect(run.stderr).toMatch(/Start PostgreSQL at .*unset DATABASE_URL to use the embedded database/);
    expect(run.stdout + run.stderr).not.toContain('hunter2');
    noStack(run.stderr);
  }, 60_000);

  it('BLOG_DATABASE_URL unreachable: exit 69 before the blog process starts, naming the setting', async () => {
    const port = await closedPort();
    const run = await runMain(['--role', 'blog'], { BLOG_PORT: '0', BLOG_DATABASE_URL: `postgres://blog:hunter2@127.0.0.1:${port}/blog` });
    expect(run.code).toBe(69);
    expect(run.stderr).toContain(`BLOG_DATABASE_URL (postgres://blog:***@127.0.0.1:${port}/blog): cannot open PostgreSQL`);
    expect(run.stderr).toContain('unset BLOG_DATABASE_URL to keep the blog in SQLite');
    expect(run.stdout).not.toContain('blog: process started');
    expect(run.stdout + run.stderr).not.toContain('hunter2');
    noStack(run.stderr);
  }, 60_000);

  it('SHARED_STORE_URL unreachable with CACHE_STORE=redis: the API starts degraded (by design) and the warning names the setting', async () => {
    const port = await closedPort();
    const api = await spawnMain(['--role', 'api'], { DATA_DIR: await migratedDir(), CACHE_STORE: 'redis', SHARED_STORE_URL: `redis://127.0.0.1:${port}/0`, INDEXER_DISABLED: 'true' }, 120_000);
    apis.push(api);
    expect((await fetch(`${api.url}/api/health`)).status).toBe(200);
    expect(api.output()).toMatch(/shared store unreachable \(SHARED_STORE_URL, CACHE_STORE=redis\).*CACHE_STORE=memory/);
  }, 180_000);

  it('the data directory in use by another process: today\'s message, exit 69, no stack', async () => {
    const dir = dataDir();
    mkdirSync(path.join(dir, 'pglite'), { recursive: true });
    writeFileSync(path.join(dir, 'pglite', '.owner.pid'), String(process.pid));
    const run = await runMain(['--role', 'api'], { GENERAL_PORT: '0', DATA_DIR: dir });
    expect(run.code).toBe(69);
    expect(run.stderr).toContain(`is in use by process ${process.pid}`);
    expect(run.stderr).toContain('another DATA_DIR');
    noStack(run.stderr);
    noStack(run.stdout);
  }, 60_000);
});

describe('Node older than 22.12', () => {
  it('is refused in one line', () => {
    expect(nodeVersionProblem('22.12.0')).toBeNull();
    expect(nodeVersionProblem('23.1.0')).toBeNull();
    expect(nodeVersionProblem('22.11.0')).toMatch(/^Node 22\.11\.0 found; this backend requires Node 22\.12\+/);
  });

  // The machine's own node, when it is an older one (the node@22 dependency is what npm scripts run).
  const oldNode = ['/usr/bin/node', '/usr/local/bin/node'].find((p) => existsSync(p));
  it.skipIf(!oldNode)('a real older node: exit 78 with that one line', async () => {
    const run = await runMain([], {}, oldNode);
    const version = /Node (\S+) found/.exec(run.stderr)?.[1];
    if (!version) return expect(run.stderr).not.toContain('found; this backend requires'); // a new enough system node
    expect(run.code).toBe(78);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  }, 30_000);
});

describe('the development JWT key', () => {
  it('is per data directory: a token of one instance is refused by another', async () => {
    const env = { JWT_SECRET: '', CACHE_STORE: 'memory', INDEXER_DISABLED: 'true' };
    const first = await spawnMain(['--role', 'api'], { ...env, DATA_DIR: await migratedDir() }, 120_000);
    apis.push(first);
    const second = await spawnMain(['--role', 'api'], { ...env, DATA_DIR: await migratedDir() }, 120_000);
    apis.push(second);
    const { accessToken } = await loginWithKeypair(second.url);
    const me = (api: SpawnedApi) => fetch(`${api.url}/api/users/me`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect((await me(second)).status).toBe(200);
    const refused = await me(first);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('TOKEN_INVALID');
  }, 240_000);
});
