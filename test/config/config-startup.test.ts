// `NETWORK=mainnet npm start` without the public URL and the secrets: every role exits 78 before
// starting anything, naming each missing setting. Real processes, a clean environment (only PATH
// and HOME from this one, NODE_ENV=development), the project's own env/ directory as `npm start` would read it.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAINNET_REQUIRED } from '../../src/config';
import { BUILT_MAIN_ARGS } from '../helpers/built-main';

const ROOT = path.resolve(import.meta.dirname, '../..');

function run(command: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve, reject) => {
    // NODE_ENV as `npm start` has it when unset.
    const clean: NodeJS.ProcessEnv = { NODE_ENV: 'development', PATH: process.env.PATH, HOME: process.env.HOME, ...env };
    const child = spawn(command, args, { cwd: ROOT, env: clean, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stderr, stdout }));
  });
}

const main = (role: string, env: Record<string, string>) => run(process.execPath, [...BUILT_MAIN_ARGS, '--role', role], env);

describe('start-up refuses an incomplete mainnet configuration', () => {
  it.each(['api', 'indexer', 'jobs', 'blog', 'all'])('--role %s: exit 78 naming APP_URL and every missing secret', async (role) => {
    const { code, stderr, stdout } = await main(role, { NETWORK: 'mainnet' });
    expect(code).toBe(78);
    for (const name of MAINNET_REQUIRED) expect(stderr).toMatch(new RegExp(`^  - ${name} is required on mainnet`, 'm'));
    // nothing started: no listener, no banner
    expect(stdout).not.toContain('Running roles');
  }, 120_000);

  it('--role blog: a loopback APP_URL is refused like a missing one', async () => {
    const { code, stderr } = await main('blog', {
      NETWORK: 'mainnet',
      APP_URL: 'http://localhost:3000',
      JWT_SECRET: 'j'.repeat(32),
      PAYLOAD_SECRET: 'p',
      WEBHOOK_SECRET: 'w',
      BLOG_REVALIDATION_SECRET: 'r',
    });
    expect(code).toBe(78);
    expect(stderr).toContain('APP_URL must be the public URL of the app on mainnet, not a loopback host (got "http://localhost:3000")');
  }, 120_000);

  it('`npm start` itself: exit 78 naming APP_URL', async () => {
    const { code, stderr } = await run('npm', ['start', '--silent'], { NETWORK: 'mainnet', JWT_SECRET: 'j'.repeat(32), PAYLOAD_SECRET: 'p', WEBHOOK_SECRET: 'w', BLOG_REVALIDATION_SECRET: 'r' });
    expect(code).toBe(78);
    expect(stderr).toContain('APP_URL is required on mainnet');
    expect(stderr).not.toMatch(/JWT_SECRET is required|WEBHOOK_SECRET is required/);
  }, 120_000);

  it('the blog process started directly (scripts/blog-serve.ts) checks the same settings', async () => {
    const { code, stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/blog-serve.ts'], { NETWORK: 'mainnet' });
    expect(code).toBe(78);
    for (const name of MAINNET_REQUIRED) expect(stderr).toContain(`${name} is required on mainnet`);
  }, 120_000);
});
