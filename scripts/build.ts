// npm run build: what production runs. esbuild bundles our code (src/, the cms/ modules the API
// still loads, the cluster script) into dist/ as ESM chunks, leaves every package to node_modules
// and writes source maps, so `node --enable-source-maps dist/main.js` names .ts lines in stack
// traces; the operator console's browser bundle goes inside (CONSOLE_FILES below). `--if-stale`
// (what `npm start` runs first) builds only when a file the last build read has changed since its
// stamp (dist/build-stamp.json). docs/operations.md, "How production runs".
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { bundleConsole } from '../src/http/console/bundle';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const THIS_FILE = fileURLToPath(import.meta.url);

/** The operator scripts (`npm run ops:archive`, …), built too so the image runs them without tsx: `node dist/ops-archive.js`. */
export const OPERATOR_ENTRIES = {
  'gifts-load': 'scripts/gifts-load.ts',
  'indexer-rebuild': 'scripts/indexer-rebuild.ts',
  'ops-archive': 'scripts/ops-archive.ts',
  'quests-rebuild': 'scripts/quests-rebuild.ts',
  'quests-seed': 'scripts/quests-seed.ts',
  'surfaces-audit': 'scripts/surfaces-audit.ts',
} as const;

/** The processes production starts from dist/: every role (src/main.ts), `npm run start:cluster` and the operator scripts. */
export const DIST_ENTRIES: Record<string, string> = {
  main: 'src/main.ts',
  'start-cluster': 'scripts/start-cluster.ts',
  // The blog role's processes (src/runtime/script-command.ts starts them from beside main.js).
  'blog-serve': 'scripts/blog-serve.ts',
  'blog-migrate': 'scripts/blog-migrate.ts',
  'blog-importmap': 'scripts/blog-importmap.ts',
  ...OPERATOR_ENTRIES,
};
const STAMP = 'build-stamp.json';
/** Files that change the output without being bundled: the package list (what stays external), the compiler options, this script. */
const SETTINGS_FILES = ['package.json', 'tsconfig.json'];

export interface DistOptions {
  /** Paths in the stamp are relative to it; default the repository. */
  root?: string;
  /** Default `<root>/dist`. Inside the repository, so the built files find node_modules. */
  outdir?: string;
  /** Output name → source file relative to root; default DIST_ENTRIES. */
  entries?: Record<string, string>;
}

interface InputRecord {
  mtimeMs: number;
  size: number;
  sha256: string;
}
interface Stamp {
  entries: Record<string, string>;
  /** Every file the build read (relative to root), with what it held then. */
  inputs: Record<string, InputRecord>;
  outputs: string[];
}

function resolved(opts: DistOptions) {
  const root = opts.root ?? ROOT;
  return { root, outdir: opts.outdir ?? path.join(root, 'dist'), entries: opts.entries ?? DIST_ENTRIES };
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

function record(file: string): InputRecord {
  const { mtimeMs, size } = statSync(file);
  return { mtimeMs, size, sha256: sha256(file) };
}

/**
 * Keeps `import.meta.url` meaning the source file's URL once bundled: code that finds files next
 * to itself (the migrations, the blog's scripts, the CMS folder) runs unchanged from a dist/ chunk.
 * Every output sits directly in outdir, so one relative path per source file is enough.
 */
function sourceUrlPlugin(outdir: string): esbuild.Plugin {
  return {
    name: 'source-import-meta-url',
    setup(build) {
      build.onLoad({ filter: /\.tsx?$/ }, (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const relative = path.relative(outdir, args.path).split(path.sep).join('/');
        return {
          contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(relative)}, import.meta.url).href`),
          loader: args.path.endsWith('x') ? 'tsx' : 'ts',
        };
      });
    },
  };
}

/** Builds dist/ (or opts.outdir) and writes its stamp; returns how long it took. */
export async function buildDist(opts: DistOptions = {}): Promise<{ ms: number }> {
  const { root, outdir, entries } = resolved(opts);
  const started = Date.now();
  mkdirSync(outdir, { recursive: true });
  // No stamp while the files change: an interrupted build reads as stale.
  rmSync(path.join(outdir, STAMP), { force: true });
  // The operator console (src/http/console/app, TypeScript for the browser): bundled first, its files
  // then defined into the server's code, so dist/ serves them with no file beside it to find or ship.
  const consoleBundle = await bundleConsole();
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, path.join(root, file)])),
    outdir,
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node22',
    // Chunks keep what src/ loads lazily (the runtime after the configuration check, the CMS, the
    // roles) out of start-up: their packages load only when a chunk is imported.
    splitting: true,
    // Class and function names as tsx keeps them in development and tests: type-graphql names
    // GraphQL types after their classes, and the bundle's scope may rename a class that collides.
    keepNames: true,
    sourcemap: 'linked',
    sourcesContent: false,
    // scripts/start-cluster.ts starts its replicas from dist/main.js when it runs built itself;
    // src/http/console/index.ts serves CONSOLE_FILES.
    define: { DIST_BUILD: 'true', CONSOLE_FILES: JSON.stringify(consoleBundle.files) },
    plugins: [sourceUrlPlugin(outdir)],
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((file) => path.relative(outdir, path.resolve(root, file)));
  // Chunks of earlier builds (their names carry a content hash) are removed.
  for (const name of readdirSync(outdir)) if (!outputs.includes(name)) rmSync(path.join(outdir, name), { recursive: true, force: true });
  const read = [...Object.keys(result.metafile.inputs).map((file) => path.resolve(root, file)), ...consoleBundle.inputs, ...SETTINGS_FILES.map((file) => path.join(root, file)), THIS_FILE];
  const inputs: Record<string, InputRecord> = {};
  for (const file of read) {
    try {
      inputs[path.relative(root, file)] = record(file);
    } catch {
      // a settings file this root does not have
    }
  }
  const stamp: Stamp = { entries, inputs, outputs };
  writeFileSync(path.join(outdir, STAMP), `${JSON.stringify(stamp, null, 1)}\n`);
  return { ms: Date.now() - started };
}

/** Why dist/ must be rebuilt (the first difference found), or null when it matches the sources. */
export function staleReason(opts: DistOptions = {}): string | null {
  const { root, outdir, entries } = resolved(opts);
  let stamp: Stamp;
  try {
    stamp = JSON.parse(readFileSync(path.join(outdir, STAMP), 'utf8')) as Stamp;
  } catch {
    return 'no build yet';
  }
  if (JSON.stringify(stamp.entries) !== JSON.stringify(entries)) return 'the entry points changed';
  for (const [file, was] of Object.entries(stamp.inputs)) {
    const at = path.resolve(root, file);
    let now: { mtimeMs: number; size: number };
    try {
      now = statSync(at);
    } catch {
      return `${file} was removed`;
    }
    // Same time and size: unchanged. Otherwise the content decides (a checkout touches times only).
    if (now.mtimeMs === was.mtimeMs && now.size === was.size) continue;
    if (now.size !== was.size || sha256(at) !== was.sha256) return `${file} changed`;
  }
  for (const file of stamp.outputs) {
    try {
      statSync(path.join(outdir, file));
    } catch {
      return `${path.relative(root, path.join(outdir, file))} is missing`;
    }
  }
  return null;
}

/** Builds when stale; says so on stderr (stdout stays the server's). */
export async function buildIfStale(opts: DistOptions = {}): Promise<{ built: boolean; reason: string | null }> {
  const reason = staleReason(opts);
  if (reason === null) return { built: false, reason };
  process.stderr.write(`build: ${reason}, building dist/…\n`);
  const { ms } = await buildDist(opts);
  process.stderr.write(`build: done in ${(ms / 1000).toFixed(1)} s\n`);
  return { built: true, reason };
}

if (process.argv[1] === THIS_FILE) {
  try {
    if (process.argv.includes('--if-stale')) await buildIfStale();
    else {
      const { ms } = await buildDist();
      process.stdout.write(`dist/ built in ${(ms / 1000).toFixed(1)} s\n`);
    }
  } catch (err) {
    // esbuild has printed the errors themselves.
    process.stderr.write(`build failed: ${(err as Error).message.split('\n')[0]}\n`);
    process.exit(1);
  }
}
