import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedTarget, type MigratedTarget } from '../helpers/db';
import { builtScriptArgs } from '../helpers/built-main';

// `npm run gifts:load -- <project> <file>` as its own process against the test database
// (a scratch PostgreSQL database, or a PGlite data directory).

let target: MigratedTarget;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gifts-load-'));
  target = await migratedTarget('gifts-load-data-');
});
afterAll(async () => {
  await target?.cleanup();
  await rm(dir, { recursive: true, force: true });
});

function load(...args: string[]) {
  const r = spawnSync(process.execPath, [...builtScriptArgs('scripts/gifts-load.ts'), ...args], {
    env: { ...process.env, NODE_ENV: 'test', ...target.env },
    encoding: 'utf8',
    timeout: 90_000,
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

async function rows(): Promise<Array<{ project: string; url: string }>> {
  const db = await target.open();
  try {
    return await db.prisma.getStashedGift.findMany({ select: { project: true, url: true }, orderBy: { url: 'asc' } });
  } finally {
    await db.close();
  }
}

describe('gifts:load', () => {
  it('loads the URLs of a file once (comments, blanks and repeats skipped); a second run adds nothing', async () => {
    const file = join(dir, 'gifts.txt');
    await writeFile(file, ['# launch batch', 'https://gifts.example/a', '', '  https://gifts.example/b  ', 'https://gifts.example/a', 'https://gifts.example/c', ''].join('\n'));
    expect(load('launch', file)).toMatchObject({ code: 0, out: expect.stringContaining('3 URL(s) added to "launch", 1 already stashed or repeated (4 read)') });
    expect(load('launch', file)).toMatchObject({ code: 0, out: expect.stringContaining('0 URL(s) added to "launch", 4 already stashed or repeated') });
    expect(await rows()).toEqual(['a', 'b', 'c'].map((x) => ({ project: 'launch', url: `https://gifts.example/${x}` })));
  }, 180_000);

  it('a bad line, a bad project name or a missing file adds nothing and exits non-zero', async () => {
    const file = join(dir, 'bad.txt');
    await writeFile(file, 'https://gifts.example/d\nnot a url\n');
    expect(load('launch', file)).toMatchObject({ code: 1, out: expect.stringContaining('line 2') });
    expect(load('Bad Name', join(dir, 'gifts.txt'))).toMatchObject({ code: 1, out: expect.stringContaining('VALIDATION_FAILED') });
    expect(load('launch', join(dir, 'missing.txt'))).toMatchObject({ code: 1, out: expect.stringContaining('cannot read') });
    expect(load('launch')).toMatchObject({ code: 2, out: expect.stringContaining('usage') });
    expect((await rows()).map((r) => r.url)).not.toContain('https://gifts.example/d');
  }, 180_000);
});
