// The blog's Payload lifecycle (cms/lifecycle.ts) in real processes: open + migrate + close 20
// times in a row must leave nothing behind. Regression for `blog: migrations failed (exit 13)`:
// the close path waited on pool.end(), which never settles (Payload's postgres adapter keeps a
// client checked out), cut by an unref'd timer; when the server had closed that connection,
// nothing held the event loop and the awaiting script ended with exit 13.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, postgresUrl, type ScratchDatabase } from '../helpers/db';
import { needsService } from '../helpers/env';
import { builtNodeArgs, builtScriptArgs } from '../helpers/built-main';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CYCLES = 20;

/** Runs a built script (its node arguments) to its end; resolves with its exit code and output. */
function runScript(nodeArgs: string[], args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeArgs, ...args], {
      cwd: ROOT,
      env: { ...process.env, PAYLOAD_SECRET: 'cms-lifecycle-test-secret-0123456789abcdef', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

function expectCycles(result: { code: number | null; output: string }, terminated: boolean): void {
  expect(result.output).not.toContain('unsettled top-level await');
  expect(result.code, result.output.slice(-2000)).toBe(0);
  const lines = result.output.split('\n').filter((l) => /^cycle \d+:/.test(l));
  expect(lines).toHaveLength(CYCLES);
  if (terminated) for (const line of lines) expect(line).toMatch(/, [1-9]\d* connections terminated, closed$/);
}

describe('blog Payload open/migrate/close, 20 times in a row in one process that must exit by itself', () => {
  const dirs: string[] = [];
  const scratches: ScratchDatabase[] = [];
  afterAll(async () => {
    for (const s of scratches) await s.drop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('on the embedded SQLite database (development mode: Payload also opens its HMR websocket)', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cms-lifecycle-'));
    dirs.push(dataDir);
    const result = await runScript(builtScriptArgs('test/fixtures/blog-lifecycle-cycles.ts'), [String(CYCLES)], { NODE_ENV: 'development', DATA_DIR: dataDir, BLOG_DATABASE_URL: '' });
    expectCycles(result, false);
  }, 600_000);

  it.runIf(needsService('DATABASE_URL'))('on PostgreSQL, with the server terminating every blog connection before each close', async () => {
    const scratch = await createScratchDatabase(postgresUrl()!);
    scratches.push(scratch);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cms-lifecycle-pg-'));
    dirs.push(dataDir);
    const result = await runScript(builtScriptArgs('test/fixtures/blog-lifecycle-cycles.ts'), [String(CYCLES)], {
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      BLOG_DATABASE_URL: scratch.url,
      TERMINATE_ADMIN_URL: postgresUrl()!,
    });
    expectCycles(result, true);
  }, 600_000);

  it.runIf(needsService('DATABASE_URL'))('the blog role’s migration step (scripts/blog-migrate.ts) exits 0 on a fresh and on a migrated database', async () => {
    const scratch = await createScratchDatabase(postgresUrl()!);
    scratches.push(scratch);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cms-lifecycle-migrate-'));
    dirs.push(dataDir);
    for (let run = 1; run <= 2; run++) {
      const result = await runScript(builtNodeArgs('blog-migrate'), [], { DATA_DIR: dataDir, BLOG_DATABASE_URL: scratch.url, DISABLE_PAYLOAD_HMR: 'true' });
      expect(result.code, result.output.slice(-2000)).toBe(0);
      expect(result.output).toMatch(run === 1 ? /Migrated:/ : /^(?![\s\S]*Migrated:)/);
    }
  }, 600_000);
});
