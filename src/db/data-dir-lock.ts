// PGlite has no multi-process access: a second process opening the same data dir would corrupt
// it. A pid file makes that fail loudly; a stale file (dead pid) is taken over.
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Another live process holds the data directory: a known condition, reported without a stack. */
export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
}

export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, '.owner.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fh = await open(file, 'wx');
      await fh.writeFile(String(process.pid));
      await fh.close();
      return () => rm(file, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number((await readFile(file, 'utf8').catch(() => '')).trim());
      if (pid && pid !== process.pid && alive(pid)) {
        throw new DataDirInUseError(`PGlite data dir ${dir} is in use by process ${pid}`);
      }
      if (pid === process.pid) throw new Error(`PGlite data dir ${dir} is already open in this process`);
      await rm(file, { force: true });
    }
  }
  throw new Error(`could not lock PGlite data dir ${dir}`);
}
