import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, testLogger, type TestDb } from '../helpers/db';
import { ArchiveVerificationError, createJobRunArchiveService, manifestPathOf, type JobRunArchiveService } from '../../src/services/system/job-run-archive';
import type { ArchiveManifest } from '../../src/services/system/job-run-archive-file';
import { builtScriptArgs } from '../helpers/built-main';

// The run-log archive against a real database (PostgreSQL with DATABASE_URL, else PGlite): rows
// past the hot window go to gzip NDJSON, are read back, verified and compared before any delete;
// corrupted archives are caught and nothing is pruned.

const DAY = 86_400_000;
const NOW = new Date('2026-06-15T12:00:00.000Z');
const OLD_ROWS = 300;
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

let t: TestDb;
let dir: string;
let archive: JobRunArchiveService;

/** Old rows of three jobs (sampled successes, failures with details, skips) and a few recent ones. */
async function seed(): Promise<void> {
  await t.prisma.opsJobRun.deleteMany();
  const old = NOW.getTime() - 20 * DAY;
  await t.prisma.opsJobRun.createMany({
    data: Array.from({ length: OLD_ROWS }, (_, i) => {
      const startedAt = new Date(old + i * 60_000);
      const status = i % 7 === 0 ? 'failed' : i % 11 === 0 ? 'skipped' : 'ok';
      return {
        jobKey: ['price-poll', 'gift-reset', 'ops-archive'][i % 3],
        status,
        startedAt,
        finishedAt: new Date(startedAt.getTime() + (i % 13) * 17),
        durationMs: (i % 13) * 17,
        detail: { tick: startedAt.toISOString(), reason: 'scheduled', n: i, ...(status === 'failed' ? { error: `boom "${i}" ✗` } : {}), nested: { list: [i, null, true] } },
        sampled: status === 'ok',
        sampleWindow: status === 'ok' ? startedAt : null,
      };
    }),
  });
  await t.prisma.opsJobRun.createMany({
    data: Array.from({ length: 5 }, (_, i) => ({ jobKey: 'price-poll', status: 'failed', startedAt: new Date(NOW.getTime() - i * DAY), finishedAt: NOW, durationMs: 1 })),
  });
}

const oldCount = () => t.prisma.opsJobRun.count({ where: { startedAt: { lt: new Date(NOW.getTime() - 14 * DAY) } } });
const snapshot = async () => (await t.prisma.opsJobRun.findMany({ orderBy: { id: 'asc' } })).map((r) => ({ ...r, id: r.id.toString() }));

beforeAll(async () => {
  t = await createTestDb();
  dir = await mkdtemp(join(tmpdir(), 'ops-archive-'));
  archive = createJobRunArchiveService({ db: t.db, logger: testLogger, archiveDir: dir, hotDays: 14, batchRows: 200 });
});

afterAll(async () => {
  await t?.cleanup();
  await rm(dir, { recursive: true, force: true });
});

async function expectRejectedWith(promise: Promise<unknown>, pattern: RegExp): Promise<ArchiveVerificationError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ArchiveVerificationError);
  const verification = err as ArchiveVerificationError;
  expect(verification.problems.join('\n')).toMatch(pattern);
  return verification;
}

describe('run-log archive', () => {
  it('archives rows past the hot window with file, content and row hashes, prunes only them, and restores them identically', async () => {
    await seed();
    const before = await snapshot();
    const progress: string[] = [];
    const result = await archive.archive({ now: NOW, onProgress: (e) => progress.push(e.phase) });
    expect(result.files).toHaveLength(2); // batches of 200
    expect(result.pruned).toBe(OLD_ROWS);
    expect(await oldCount()).toBe(0);
    expect(await t.prisma.opsJobRun.count()).toBe(5);
    expect(new Set(progress)).toEqual(new Set(['write', 'read back', 'compare and prune']));

    for (const f of result.files) {
      const gz = await readFile(f.file);
      const manifest = JSON.parse(await readFile(manifestPathOf(f.file), 'utf8')) as ArchiveManifest;
      expect(manifest.compressedSha256).toBe(sha256(gz));
      const ndjson = gunzipSync(gz).toString('utf8');
      expect(manifest.contentSha256).toBe(sha256(ndjson));
      const lines = ndjson.trimEnd().split('\n');
      expect(lines).toHaveLength(manifest.rows);
      expect(manifest.rowDigests).toEqual(lines.map((l) => ({ id: (JSON.parse(l) as { id: string }).id, sha256: sha256(l) })));
    }

    const restored = await Promise.all(result.files.map((f) => archive.restore(f.file)));
    expect(restored.map((r) => r.inserted).reduce((a, b) => a + b)).toBe(OLD_ROWS);
    expect(await snapshot()).toEqual(before);
    // A second restore finds every row present and leaves them as they are.
    const again = await archive.restore(result.files[0].file);
    expect(again).toMatchObject({ rows: 200, inserted: 0, alreadyPresent: 200 });
    expect(await snapshot()).toEqual(before);
  });

  it('one flipped byte in the archive file: detected, reported, nothing pruned', async () => {
    await seed();
    const written = await archive.writeNext({ now: NOW });
    expect(written).not.toBeNull();
    const gz = await readFile(written!.file);
    gz[Math.floor(gz.length / 2)] ^= 0x01;
    await writeFile(written!.file, gz);
    await expectRejectedWith(archive.verifyAndPrune(written!.file), /file SHA-256/);
    expect(await oldCount()).toBe(OLD_ROWS);
    await expectRejectedWith(archive.restore(written!.file), /file SHA-256/);
  });

  it('one altered row with the file and content hashes recomputed: the row digest catches it, nothing pruned', async () => {
    await seed();
    const written = await archive.writeNext({ now: NOW });
    const lines = gunzipSync(await readFile(written!.file)).toString('utf8').trimEnd().split('\n');
    const victim = JSON.parse(lines[42]) as { id: string; durationMs: number };
    lines[42] = JSON.stringify({ ...victim, durationMs: victim.durationMs + 1 });
    const ndjson = `${lines.join('\n')}\n`;
    const gz = gzipSync(ndjson);
    await writeFile(written!.file, gz);
    const manifestPath = manifestPathOf(written!.file);
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as ArchiveManifest;
    await writeFile(manifestPath, JSON.stringify({ ...manifest, compressedSha256: sha256(gz), contentSha256: sha256(ndjson) }));

    const err = await expectRejectedWith(archive.verifyAndPrune(written!.file), new RegExp(`row ${victim.id} \\(line 43\\): digest mismatch`));
    expect(err.problems).toHaveLength(1);
    expect(await oldCount()).toBe(OLD_ROWS);
  });

  it('a source row changed after the file was written: the TEMP-table compare refuses the prune (same transaction)', async () => {
    await seed();
    const written = await archive.writeNext({ now: NOW });
    const first = await t.prisma.opsJobRun.findFirst({ orderBy: { id: 'asc' } });
    await t.prisma.opsJobRun.update({ where: { id: first!.id }, data: { detail: { changed: true } } });
    await expectRejectedWith(archive.verifyAndPrune(written!.file), new RegExp(`differ from the source rows: ids ${first!.id}`));
    expect(await oldCount()).toBe(OLD_ROWS);
  });

  it('npm run ops:archive and ops:restore: archive, a corrupted file refused with exit 1, the good file restored', async () => {
    const cli = await createTestDb({ onDisk: true });
    const cliDir = await mkdtemp(join(tmpdir(), 'ops-archive-cli-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'test',
      JOBS_ARCHIVE_DIR: cliDir,
      JOBS_RUN_HOT_DAYS: '14',
      ...(cli.url ? { DATABASE_URL: cli.url } : { DATA_DIR: cli.dataDir! }),
    };
    if (!cli.url) delete env.DATABASE_URL;
    try {
      const old = new Date(Date.now() - 30 * DAY);
      await cli.prisma.opsJobRun.createMany({
        data: Array.from({ length: 50 }, (_, i) => ({ jobKey: 'price-poll', status: 'failed', startedAt: new Date(old.getTime() + i), finishedAt: old, durationMs: 0, detail: { i } })),
      });
      // The CLI opens the database itself (on PGlite the test's handle must be closed first).
      if (!cli.url) await cli.db.close();
      const run = promisify(execFile);
      const opsArchive = (args: string[]) => run(process.execPath, [...builtScriptArgs('scripts/ops-archive.ts'), ...args], { env, cwd: process.cwd() });
      const archived = await opsArchive([]);
      expect(archived.stdout).toMatch(/50 rows started before .* archived, verified and pruned \(1 file\(s\)\)/);
      const file = /archived 50 rows to (\S+)/.exec(archived.stdout)![1];
      const good = await readFile(file);
      const bad = Buffer.from(good);
      bad[bad.length - 10] ^= 0x80;
      await writeFile(file, bad);
      const refused = await opsArchive(['restore', file]).then(
        () => null,
        (e: unknown) => e as { code: number; stderr: string },
      );
      expect(refused?.code).toBe(1);
      expect(refused?.stderr).toMatch(/failed verification; nothing of it was restored/);
      await writeFile(file, good);
      const restored = await opsArchive(['restore', file]);
      expect(restored.stdout).toMatch(/50 rows verified \(50 inserted, 0 already present\)/);
    } finally {
      if (cli.url) await cli.cleanup();
      else await rm(cli.dataDir!, { recursive: true, force: true });
      await rm(cliDir, { recursive: true, force: true });
    }
  }, 120_000);
});
