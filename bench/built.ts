// The bench's servers run built, as production runs dist/main.js (scripts/build.ts's esbuild bundle,
// every package left in node_modules): no tsx module hooks in the measured processes, ours or the
// references'. Built into .bench-dist/ when their sources changed (about a second).
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';

const ROOT = path.resolve(import.meta.dirname, '..');
const BENCH_DIST = path.join(ROOT, '.bench-dist');

/** Output name → the server script it is built from. */
const ENTRIES: Record<string, string> = {
  api: 'bench/reference/servers/api.ts',
  apollo: 'bench/reference/servers/apollo.ts',
  'mercurius-pg': 'bench/reference/servers/mercurius-pg.ts',
  'mercurius-schema': 'bench/reference/servers/mercurius-schema.ts',
  raw: 'bench/reference/servers/raw.ts',
  fanout: 'bench/fanout.ts',
  'fanout-mix': 'bench/fanout-mix.ts',
  'fanout-load': 'bench/fanout-load.ts',
  'sio-reference': 'bench/sio-reference.ts',
  // the soak's API, jobs, indexer and blog processes: src/main.ts as production runs it, and the
  // blog role's scripts, which a built main starts from beside itself (src/runtime/script-command.ts)
  main: 'src/main.ts',
  'blog-serve': 'scripts/blog-serve.ts',
  'blog-migrate': 'scripts/blog-migrate.ts',
  'blog-importmap': 'scripts/blog-importmap.ts',
};

export async function buildBenchServers(): Promise<void> {
  // (imported here: a server built from this file's importers never loads esbuild)
  const { buildIfStale } = await import('../scripts/build');
  await buildIfStale({ outdir: BENCH_DIST, entries: ENTRIES });
}

/** Node arguments that run a server script: its build when it has one, else the source under tsx. */
export function nodeArgsFor(script: string): string[] {
  const name = Object.keys(ENTRIES).find((key) => ENTRIES[key] === script);
  return name ? ['--enable-source-maps', path.join(BENCH_DIST, `${name}.js`)] : ['--import', 'tsx', script];
}

/**
 * Spawns a bench server (`script` as built, with `args`) that prints `READY <port>` once it listens;
 * resolves with its URL, or rejects if it exits first. `nodeArgs` go before the script (e.g. --cpu-prof).
 */
export function startReady(script: string, args: string[], env: Record<string, string>, nodeArgs: readonly string[] = []): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [...nodeArgs, ...nodeArgsFor(script), ...args], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c) => {
      out += c;
      const m = /READY (\d+)/.exec(out);
      if (m) resolve({ url: `http://127.0.0.1:${m[1]}`, child });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}
