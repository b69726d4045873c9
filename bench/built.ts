// The bench's servers run built, as production runs dist/main.js (scripts/build.ts's esbuild bundle,
// every package left in node_modules): no tsx module hooks in the measured processes, ours or the
// references'. Built into .bench-dist/ when their sources changed (about a second).
import path from 'node:path';

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
  // the soak's API, jobs and indexer processes: src/main.ts as production runs it
  main: 'src/main.ts',
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
