import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, readFile, rename, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip, createGzip } from 'node:zlib';

/** One ops_job_run row as archived: one JSON line, fields in this order, timestamps ISO 8601, id a decimal string. */
export interface ArchivedRun {
  id: string;
  jobKey: string;
  status: string;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  detail: unknown;
  sampled: boolean;
  sampleWindow: string | null;
}

export const ARCHIVE_FORMAT = 'ops_job_run/ndjson+gzip/v1';

/** The sidecar `<archive>.manifest.json`: what the archive must hash to, file and rows. */
export interface ArchiveManifest {
  format: typeof ARCHIVE_FORMAT;
  /** The archive's file name (same directory). */
  file: string;
  createdAt: string;
  /** Rows started before this were archived. */
  cutoff: string;
  rows: number;
  firstId: string | null;
  lastId: string | null;
  /** SHA-256 (hex) of the gzip file as stored. */
  compressedSha256: string;
  /** SHA-256 (hex) of the uncompressed NDJSON. */
  contentSha256: string;
  /** SHA-256 (hex) of each line (without its newline), in file order. */
  rowDigests: Array<{ id: string; sha256: string }>;
}

export const manifestPathOf = (archivePath: string) => `${archivePath}.manifest.json`;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Feeds whatever passes through into a hash. */
const hashing = (hash: Hash) =>
  new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });

async function syncAndRename(tmp: string, target: string): Promise<void> {
  const handle = await open(tmp, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, target);
}

/**
 * Writes rows as gzip NDJSON through node:zlib streams, hashing the NDJSON and the gzip bytes on
 * the way, then the manifest. Both files appear under their final names only once complete (fsync,
 * rename).
 */
export async function writeArchive(path: string, rows: readonly ArchivedRun[], meta: { cutoff: Date; onRow?: () => void }): Promise<ArchiveManifest> {
  const content = createHash('sha256');
  const compressed = createHash('sha256');
  const rowDigests: ArchiveManifest['rowDigests'] = [];
  function* lines() {
    for (const row of rows) {
      const line = JSON.stringify(row);
      rowDigests.push({ id: row.id, sha256: sha256(line) });
      meta.onRow?.();
      yield `${line}\n`;
    }
  }
  const tmp = `${path}.partial`;
  await pipeline(Readable.from(lines()), hashing(content), createGzip(), hashing(compressed), createWriteStream(tmp));
  await syncAndRename(tmp, path);
  const manifest: ArchiveManifest = {
    format: ARCHIVE_FORMAT,
    file: basename(path),
    createdAt: new Date().toISOString(),
    cutoff: meta.cutoff.toISOString(),
    rows: rows.length,
    firstId: rows[0]?.id ?? null,
    lastId: rows.at(-1)?.id ?? null,
    compressedSha256: compressed.digest('hex'),
    contentSha256: content.digest('hex'),
    rowDigests,
  };
  await writeFile(`${manifestPathOf(path)}.partial`, `${JSON.stringify(manifest, null, 1)}\n`);
  await syncAndRename(`${manifestPathOf(path)}.partial`, manifestPathOf(path));
  return manifest;
}

export interface VerifiedArchive {
  manifest: ArchiveManifest;
  rows: ArchivedRun[];
}

export class ArchiveVerificationError extends Error {
  override name = 'ArchiveVerificationError';
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`archive ${file} failed verification: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''}`);
  }
}

const MAX_PROBLEMS = 50;

/**
 * Reads an archive back from disk (gunzip stream), checks the file hash, the content hash and
 * every row's digest against the manifest, and returns the rows. Any mismatch, an unreadable
 * gzip or an unparsable line throws ArchiveVerificationError listing the problems.
 */
export async function readVerifiedArchive(path: string, onRow?: () => void): Promise<VerifiedArchive> {
  const problems: string[] = [];
  let manifest: ArchiveManifest;
  try {
    manifest = JSON.parse(await readFile(manifestPathOf(path), 'utf8')) as ArchiveManifest;
  } catch (err) {
    throw new ArchiveVerificationError(path, [`manifest ${manifestPathOf(path)} unreadable: ${(err as Error).message}`]);
  }
  if (manifest.format !== ARCHIVE_FORMAT) throw new ArchiveVerificationError(path, [`unknown archive format ${String(manifest.format)}`]);
  const compressed = createHash('sha256');
  const content = createHash('sha256');
  const rows: ArchivedRun[] = [];
  const ndjson = hashing(content);
  const reading = pipeline(createReadStream(path), hashing(compressed), createGunzip(), ndjson);
  reading.catch(() => undefined);
  let index = 0;
  const rowProblems: string[] = [];
  let rowProblemCount = 0;
  const note = (problem: string) => {
    if (++rowProblemCount <= MAX_PROBLEMS) rowProblems.push(problem);
  };
  const take = (line: string) => {
    const expected = manifest.rowDigests[index];
    let row: ArchivedRun | null = null;
    try {
      row = JSON.parse(line) as ArchivedRun;
    } catch {
      note(`line ${index + 1} is not JSON`);
    }
    if (!expected) note(`line ${index + 1} is not in the manifest`);
    else if (expected.sha256 !== sha256(line) || (row && row.id !== expected.id)) note(`row ${expected.id} (line ${index + 1}): digest mismatch`);
    if (row) rows.push(row);
    index++;
    onRow?.();
  };
  try {
    const decoder = new StringDecoder('utf8');
    let pending = '';
    for await (const chunk of ndjson) {
      pending += decoder.write(chunk as Buffer);
      let start = 0;
      for (let newline = pending.indexOf('\n'); newline >= 0; newline = pending.indexOf('\n', start)) {
        take(pending.slice(start, newline));
        start = newline + 1;
      }
      pending = pending.slice(start);
    }
    pending += decoder.end();
    if (pending) note(`line ${index + 1} has no newline`);
    await reading;
  } catch (err) {
    problems.push(`archive unreadable: ${(err as Error).message}`);
  }
  const compressedSha256 = compressed.digest('hex');
  if (compressedSha256 !== manifest.compressedSha256) problems.unshift(`file SHA-256 ${compressedSha256} ≠ manifest ${manifest.compressedSha256}`);
  const contentSha256 = content.digest('hex');
  if (contentSha256 !== manifest.contentSha256) problems.push(`content SHA-256 ${contentSha256} ≠ manifest ${manifest.contentSha256}`);
  if (index !== manifest.rows || manifest.rowDigests.length !== manifest.rows) problems.push(`${index} rows read, manifest says ${manifest.rows}`);
  problems.push(...rowProblems);
  if (rowProblemCount > rowProblems.length) problems.push(`… and ${rowProblemCount - rowProblems.length} more row problems`);
  if (problems.length) throw new ArchiveVerificationError(path, problems);
  return { manifest, rows };
}
