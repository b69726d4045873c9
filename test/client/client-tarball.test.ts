// The packed package in an empty project (no workspace links): installed from its tarball with the @mysten/sui
// the README names, type-checked there, and run (examples/node/flow.ts) against a running API.
import { execFile, spawn } from 'node:child_process';
import { copyFileSync, lstatSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packClient, stageClientPackage } from '../../packages/client/build';
import { startApi, type TestApi } from '../helpers/api';
import { until } from '../helpers/until';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

/** The version of README's `npm install @mysten/sui@…`. */
function readmeSuiVersion(): string {
  const match = /npm install @mysten\/sui@([\w.^~-]+)/.exec(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
  if (!match) throw new Error('README.md names no @mysten/sui version (npm install @mysten/sui@…)');
  return match[1]!;
}

/** npm from the npm cache when it has everything, else from the registry for what it lacks. */
async function npmInstall(cwd: string, args: string[]): Promise<void> {
  const common = ['install', ...args, '--no-audit', '--no-fund', '--no-update-notifier', '--loglevel=error'];
  try {
    await run('npm', [...common, '--offline'], { cwd, timeout: 120_000 });
  } catch {
    await run('npm', [...common, '--prefer-offline'], { cwd, timeout: 240_000 });
  }
}

describe('the packed @platform/client in an empty project', () => {
  let api: TestApi;
  let dir: string;
  let tarball: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'client-tarball-'));
    const staged = await stageClientPackage(path.join(dir, 'staged'));
    tarball = packClient(staged, dir);
    const project = path.join(dir, 'project');
    await run('mkdir', ['-p', project]);
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'client-proof', private: true, type: 'module' }));
    await npmInstall(project, [tarball, `@mysten/sui@${readmeSuiVersion()}`]);
    copyFileSync(path.join(ROOT, 'examples/node/flow.ts'), path.join(project, 'flow.ts'));
    api = await startApi();
  }, 360_000);
  afterAll(async () => {
    await api?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is a package of its own: no workspace link, its declarations type-check a consumer under nodenext', async () => {
    const project = path.join(dir, 'project');
    const installed = JSON.parse(readFileSync(path.join(project, 'node_modules/@platform/client/package.json'), 'utf8')) as { name: string; version: string };
    expect(installed.name).toBe('@platform/client');
    const manifest = JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(manifest.dependencies['@platform/client']).toMatch(/^file:.*\.tgz$/);
    expect(lstatSync(path.join(project, 'node_modules/@platform/client')).isSymbolicLink()).toBe(false);
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, allowImportingTsExtensions: true, types: ['node'], typeRoots: [path.join(ROOT, 'node_modules/@types')] },
        files: ['flow.ts'],
      }),
    );
    await run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project], { cwd: project });
  }, 120_000);

  it('runs the flow against the API: login, quests, activity, chat across transports, refresh, logout', async () => {
    const project = path.join(dir, 'project');
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'flow.ts'], { cwd: project, env: { ...process.env, API_URL: api.url }, stdio: ['ignore', 'pipe', 'pipe'] });
    const steps = new Map<string, Record<string, unknown>>();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const parsed = JSON.parse(line) as { step: string } & Record<string, unknown>;
      steps.set(parsed.step, parsed);
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      await until(() => steps.has('activity-subscribed') || child.exitCode !== null, 'the flow to subscribe to activity', 60_000);
      await until(
        async () => {
          await api.services.activity.publish({ kind: 'bet', player: '0x1', summary: 'tarball probe', at: new Date() });
          return steps.has('activity') || child.exitCode !== null;
        },
        'the flow to hear the activity event',
        20_000,
        200,
      );
      expect(await exited, stderr).toBe(0);
    } finally {
      child.kill();
    }
    expect(steps.get('logged-in')!.address).toBe(steps.get('logged-in')!.expected);
    expect(steps.get('quests')).toMatchObject({ campaigns: expect.any(Number), progress: expect.any(Array) });
    expect(steps.get('activity')).toMatchObject({ summary: 'tarball probe' });
    expect(steps.get('chat')).toMatchObject({ aliceHeardBob: true, bobHeardAlice: true });
    expect(steps.get('refreshed')).toMatchObject({ rotated: true });
    expect(steps.get('logged-out')).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(steps.has('done')).toBe(true);
  }, 90_000);
});
