// A private PostgreSQL cluster (Debian's binaries) on a free loopback port, for tests that freeze or
// kill the server: never the machine's shared instance.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, waitFor } from './store';

/** initdb and postgres of the newest installed major version, or null. */
export const postgresBin: string | null = (() => {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const majors = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return majors[0] ? join(root, majors[0], 'bin') : null;
})();

/** PostgreSQL refuses to run as root: then as the `postgres` system user. */
const asPostgres = userInfo().uid === 0;
const command = (bin: string, args: string[]): [string, string[]] => (asPostgres ? ['runuser', ['-u', 'postgres', '--', join(postgresBin!, bin), ...args]] : [join(postgresBin!, bin), args]);

export class ThrowawayPostgres {
  private child: ChildProcess | undefined;
  private constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  static async start(): Promise<ThrowawayPostgres> {
    if (!postgresBin) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql');
    const dir = mkdtempSync(join(tmpdir(), 'private-pg-'));
    if (asPostgres) {
      const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim();
      const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim();
      chownSync(dir, Number(ids), Number(gid));
    }
    const [cmd, args] = command('initdb', ['-D', join(dir, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
    const init = spawnSync(cmd, args, { encoding: 'utf8' });
    if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
    const pgServer = new ThrowawayPostgres(await freePort(), dir);
    await pgServer.run();
    return pgServer;
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private async run(): Promise<void> {
    const settings = ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=60'];
    const [cmd, args] = command('postgres', ['-D', join(this.dir, 'data'), '-p', String(this.port), '-h', '127.0.0.1', '-k', this.dir, ...settings]);
    this.child = spawn(cmd, args, { stdio: 'ignore' });
    await waitFor(() => this.accepts(), 20_000, `postgres on ${this.port}`);
  }

  private async accepts(): Promise<boolean> {
    const c = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 1_000 });
    c.on('error', () => undefined);
    try {
      await c.connect();
      await c.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await c.end().catch(() => undefined);
    }
  }

  /** The postmaster and every server process it forked. */
  private serverPids(): number[] {
    const file = join(this.dir, 'data', 'postmaster.pid');
    if (!existsSync(file)) return [];
    const postmaster = Number(readFileSync(file, 'utf8').split('\n')[0]);
    return [postmaster, ...childrenOf(postmaster)];
  }

  private signal(sig: NodeJS.Signals): void {
    for (const pid of this.serverPids()) {
      try {
        process.kill(pid, sig);
      } catch {
        // already gone
      }
    }
  }

  /** SIGSTOP of every server process: connections stay open, nothing answers, new ones hang. */
  freeze(): void {
    this.signal('SIGSTOP');
  }

  /** SIGKILL of every server process (frozen or not): connections reset, new ones are refused. */
  async kill(): Promise<void> {
    const pids = this.serverPids();
    this.signal('SIGKILL');
    await waitFor(() => pids.every((pid) => !alive(pid)), 10_000, 'postgres processes to exit');
    rmSync(join(this.dir, 'data', 'postmaster.pid'), { force: true });
  }

  async stop(): Promise<void> {
    await this.kill();
    this.child?.kill('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Processes whose parent is `pid`, from /proc (field 4 of `stat`, after the parenthesised name). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return Number(readFileSync(`/proc/${entry}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !isZombie(pid);
  } catch {
    return false;
  }
}

function isZombie(pid: number): boolean {
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
