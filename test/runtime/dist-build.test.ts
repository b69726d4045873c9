// What production runs (scripts/build.ts): src/ built once into a scratch dist folder and started as
// `npm start` and the image start it (node --enable-source-maps <dist>/main.js). It answers health
// and GraphQL (the committed schema), stops with exit 0 on SIGTERM, and a start-up failure's stack
// names the .ts lines; the blog role's processes are built beside it.
// The stamp: a build is reused until a file it read changes, then rebuilt.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildClientSchema, buildSchema, getIntrospectionQuery, lexicographicSortSchema, printSchema, type IntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDist, buildIfStale, staleReason } from '../../scripts/build';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/db';
import { testEnv } from '../helpers/env';
import { spawnMain } from '../helpers/process';

const root = path.resolve(import.meta.dirname, '../..');
// Inside the repository, as dist/ is: the built files find node_modules from there.
const artifacts = path.join(root, 'test-artifacts');
const scratchDirs: string[] = [];
const scratchDir = (parent: string, prefix: string) => {
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(path.join(parent, prefix));
  scratchDirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
});

describe('the built server', () => {
  let outdir: string;
  let database: ScratchDatabase | undefined;
  beforeAll(async () => {
    outdir = scratchDir(artifacts, 'dist-');
    await buildDist({ outdir });
    // Production's database when the test machine has one; the embedded PGlite otherwise.
    if (testEnv.databaseUrl) database = await createScratchDatabase(testEnv.databaseUrl);
  }, 60_000);
  afterAll(async () => database?.drop());

  it('starts from the build, answers /api/health and GraphQL, and exits 0 on SIGTERM', async () => {
    const env: Record<string, string> = { DATA_DIR: scratchDir(tmpdir(), 'dist-run-') };
    if (database) env.DATABASE_URL = database.url;
    const api = await spawnMain(['--role', 'api'], env, 90_000, path.join(outdir, 'main.js'));
    try {
      const health = await fetch(`${api.url}/api/health`);
      expect(health.status).toBe(200);
      expect(((await health.json()) as { status: string }).status).toBe('ok');
      const graphql = await fetch(`${api.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }) });
      expect(await graphql.json()).toEqual({ data: { __typename: 'Query' } });
      // The bundle keeps the class names type-graphql names its types after: the same schema as the sources'.
      const introspection = await fetch(`${api.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: getIntrospectionQuery() }) });
      const served = buildClientSchema(((await introspection.json()) as { data: IntrospectionQuery }).data);
      const committed = buildSchema(readFileSync(path.join(root, 'schema/schema.graphql'), 'utf8'));
      expect(printSchema(lexicographicSortSchema(served))).toBe(printSchema(lexicographicSortSchema(committed)));
    } finally {
      await api.stop();
    }
    expect(api.child.exitCode).toBe(0);
    expect(api.output()).toMatch(/"exitCode":0,.*"msg":"stopped"/);
  }, 120_000);

  it("names the .ts file and line in a start-up failure's stack (source maps on)", async () => {
    // A PGlite data directory of another PostgreSQL version: PGlite refuses it, the process logs the error with its stack and exits 70.
    const dataDir = scratchDir(tmpdir(), 'dist-broken-');
    mkdirSync(path.join(dataDir, 'pglite'));
    writeFileSync(path.join(dataDir, 'pglite', 'PG_VERSION'), '99\n');
    const child = spawn(process.execPath, ['--enable-source-maps', path.join(outdir, 'main.js'), '--role', 'api'], {
      env: { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, 'GENERAL.PORT': '0', DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, out).toBe(70);
    const failure = out.split('\n').find((line) => line.includes('"msg":"start-up failed"'));
    expect(failure, out).toBeDefined();
    const stack = (JSON.parse(failure!) as { err: { stack: string } }).err.stack;
    // The frame that awaited PGlite, at the line that calls it in the source.
    const source = readFileSync(path.join(root, 'src/db/client.ts'), 'utf8').split('\n');
    const line = source.findIndex((l) => l.includes('await PGlite.create(dir,')) + 1;
    expect(line).toBeGreaterThan(0);
    expect(stack).toContain(`at async createPgliteDb (${path.join(root, 'src/db/client.ts')}:${line}:`);
    expect(stack).toMatch(/at async runProcess \(.*src\/runtime\/process\.ts:\d+:\d+\)/);
    // No frame names the bundle itself.
    expect(stack).not.toContain(outdir);
  }, 60_000);

  it("holds the blog role's processes: blog-migrate.js migrates a new blog database without tsx", async () => {
    const dataDir = scratchDir(tmpdir(), 'dist-blog-');
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, PAYLOAD_SECRET: 'dist-test-payload-secret-0123456789' };
    delete env.BLOG_DATABASE_URL;
    const child = spawn(process.execPath, ['--enable-source-maps', path.join(outdir, 'blog-migrate.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    expect(await new Promise<number | null>((resolve) => child.once('exit', resolve)), out).toBe(0);
    const applied = readdirSync(path.join(root, 'cms/migrations/sqlite')).filter((f) => /^\d{8}_\d{6}_\w+\.ts$/.test(f));
    expect(applied.length).toBeGreaterThan(0);
    for (const file of applied) expect(out).toContain(`Migrated:  ${file.replace(/\.ts$/, '')}`);
    expect(existsSync(path.join(dataDir, 'blog.db'))).toBe(true);
    for (const name of ['blog-serve', 'blog-importmap']) expect(existsSync(path.join(outdir, `${name}.js`))).toBe(true);
  }, 60_000);
});

describe('the build stamp', () => {
  it('reuses a build until a file it read changes, then rebuilds', async () => {
    // A two-file program: the entry imports a value from a module.
    const project = scratchDir(artifacts, 'stamp-');
    const opts = { root: project, outdir: path.join(project, 'dist'), entries: { main: 'entry.ts' } };
    writeFileSync(path.join(project, 'entry.ts'), "import { value } from './value';\nconsole.log(value);\n");
    writeFileSync(path.join(project, 'value.ts'), "export const value: string = 'first';\n");
    const run = () => spawn(process.execPath, [path.join(opts.outdir, 'main.js')], { stdio: ['ignore', 'pipe', 'inherit'] });
    const output = async () => {
      const child = run();
      let out = '';
      child.stdout.on('data', (c) => (out += c));
      await new Promise((resolve) => child.once('exit', resolve));
      return out.trim();
    };

    expect(staleReason(opts)).toBe('no build yet');
    expect(await buildIfStale(opts)).toEqual({ built: true, reason: 'no build yet' });
    expect(await output()).toBe('first');
    expect(staleReason(opts)).toBeNull();
    expect((await buildIfStale(opts)).built).toBe(false);

    // A newer time with the same content (a checkout, `touch`) is no change.
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(project, 'value.ts'), later, later);
    expect(staleReason(opts)).toBeNull();

    // Same size, other content.
    writeFileSync(path.join(project, 'value.ts'), "export const value: string = 'again';\n");
    expect(staleReason(opts)).toBe('value.ts changed');
    expect(await buildIfStale(opts)).toEqual({ built: true, reason: 'value.ts changed' });
    expect(await output()).toBe('again');
    expect(staleReason(opts)).toBeNull();

    // A file of the build removed from dist, a changed entry point list.
    rmSync(path.join(opts.outdir, 'main.js.map'));
    expect(staleReason(opts)).toBe('dist/main.js.map is missing');
    expect(staleReason({ ...opts, entries: { server: 'entry.ts' } })).toBe('the entry points changed');
  });
});
