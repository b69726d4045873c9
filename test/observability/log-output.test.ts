// The process's own log output, spawned as `npm start` runs it: JSON through a pipe, readable
// lines on a terminal (a pseudo-terminal from util-linux `script`). The blog upstream is a port
// nobody listens on (the blog still building), then a tiny server (the blog answering).
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { migratedDataDir } from '../helpers/db';
import { BUILT_MAIN_ARGS } from '../helpers/built-main';
import { spawnMain } from '../helpers/process';
import { freePort } from '../helpers/store';
import { until } from '../helpers/until';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A DATA_DIR whose embedded database is already migrated: the subject here is the output, not the first start. */
async function tempDir(): Promise<string> {
  const dir = await migratedDataDir('log-output-');
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A stand-in for the blog's Next server: any path answers 200. */
async function blogAnswering(port: number): Promise<Server> {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/javascript' }).end('// asset'));
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return server;
}

// eslint-disable-next-line no-control-regex -- ANSI colour sequences
const stripAnsi = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

describe('log output of the spawned process', () => {
  it('through a pipe: JSON lines; the blog still building is one short warning without a stack; assets and health checks stay below info', async () => {
    const blogPort = await freePort();
    const api = await spawnMain(['--role', 'api'], { DATA_DIR: await tempDir(), LOG_LEVEL: 'info', BLOG_UPSTREAM_URL: `http://127.0.0.1:${blogPort}`, INDEXER_DISABLED: 'true' }, 150_000);
    cleanups.push(() => api.stop());
    await until(() => api.output().includes('"msg":"ready"'), 'the ready line', 30_000);

    const building = await fetch(`${api.url}/blog/`);
    expect(building.status).toBe(503);
    await building.arrayBuffer();
    await blogAnswering(blogPort);
    const asset = await fetch(`${api.url}/blog/_next/static/chunks/main.js`);
    expect(asset.status).toBe(200);
    await asset.arrayBuffer();
    expect((await fetch(`${api.url}/api/health`)).status).toBe(200);
    await (await fetch(`${api.url}/api/health/ready`)).arrayBuffer();
    await api.stop();

    const lines = api.output().split('\n').filter((l) => l.startsWith('{'));
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown> & { level: number; msg: string });
    expect(entries.map((e) => e.msg)).toEqual(expect.arrayContaining(['started', 'ready', 'stopped']));
    const proxyLines = lines.filter((l) => l.includes('/blog/') || l.includes('remote server') || l.includes('response'));
    expect(proxyLines).toHaveLength(1);
    const warning = JSON.parse(proxyLines[0]!) as Record<string, unknown>;
    expect(warning).toMatchObject({ level: 40, msg: 'blog proxy: upstream unavailable', url: '/blog/', cause: `connect ECONNREFUSED 127.0.0.1:${blogPort}` });
    expect(warning).not.toHaveProperty('err');
    expect(proxyLines[0]).not.toContain('stack');
    expect(lines.filter((l) => l.includes('/api/health'))).toEqual([]);
  }, 240_000);

  it('on a terminal: one readable coloured line per event, no JSON, and the ready banner with every address', async () => {
    const blogPort = await freePort();
    const dataDir = await tempDir();
    // A terminal as a developer has it: Node reports no colours on a terminal when CI is set.
    const { CI: _ci, NO_COLOR: _noColor, ...outerEnv } = process.env;
    const env: NodeJS.ProcessEnv = {
      ...outerEnv,
      NODE_ENV: 'test',
      TERM: 'xterm-256color',
      'GENERAL.PORT': '0',
      LOG_LEVEL: 'info',
      LOG_FORMAT: '',
      DATA_DIR: dataDir,
      BLOG_UPSTREAM_URL: `http://127.0.0.1:${blogPort}`,
      INDEXER_DISABLED: 'true',
    };
    // `script` gives the process a pseudo-terminal as its stdout; its own group, so the test can stop both.
    const child = spawn('script', ['-qec', `${[process.execPath, ...BUILT_MAIN_ARGS].join(' ')} --role api`, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let out = '';
    child.stdout!.on('data', (c) => (out += c));
    child.stderr!.on('data', (c) => (out += c));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    cleanups.push(() => {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
    });

    const port = await until(() => /api:\s+http:\/\/localhost:(\d+)\/api\/health/.exec(out)?.[1] ?? (child.exitCode !== null && 'exited'), 'the ready banner', 150_000, 100);
    expect(port).not.toBe('exited');
    const banner = out.slice(out.indexOf('Ready. Running roles'));
    for (const address of ['/api/health', '/graphql', '/api/docs', '/socket.io/', '/blog/', '/blog/admin/']) expect(banner).toContain(`http://localhost:${port}${address}`);

    const building = await fetch(`http://127.0.0.1:${port}/blog/`);
    expect(building.status).toBe(503);
    await building.arrayBuffer();
    await until(() => out.includes('blog proxy: upstream unavailable'), 'the warning', 10_000);
    process.kill(-child.pid!, 'SIGTERM');
    await exited;

    const lines = out.split(/\r?\n/).filter(Boolean);
    expect(lines.filter((l) => l.startsWith('{'))).toEqual([]);
    const logLines = lines.filter((l) => /^\[\d\d:\d\d:\d\d\.\d{3}\] /.test(stripAnsi(l)));
    expect(logLines.length).toBeGreaterThan(2);
    for (const line of logLines) expect(line).toContain('\x1b[');
    const warning = lines.findIndex((l) => l.includes('blog proxy: upstream unavailable'));
    expect(stripAnsi(lines[warning]!)).toMatch(/WARN: blog proxy: upstream unavailable .*"cause":"connect ECONNREFUSED 127\.0\.0\.1:\d+"/);
    // The next line is another event (or the end), never a stack frame.
    expect(lines.slice(warning + 1).find((l) => /^\s+at /.test(l))).toBeUndefined();
    expect(out).not.toContain('response errored');
  }, 240_000);
});
