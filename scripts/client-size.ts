// The browser bundle of @platform/client, minified and gzipped, as an application's bundler makes it from the
// packed package: what a page that only queries loads, and what graphql-ws and Socket.IO add when first used.
// `npm run client:size` prints the table docs/client.md quotes; test/client/client-bundle.test.ts holds the split.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { stageClientPackage } from '../packages/client/build';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Three pages: one that queries, one that also subscribes, one that also chats over Socket.IO. */
const PROBES = {
  core: `import { createClient, ServerStatusDocument } from '@platform/client';
const client = createClient({ url: location.origin });
client.query(ServerStatusDocument).then(console.log);`,
  'core + graphql-ws': `import { createClient, ActivityDocument } from '@platform/client';
const client = createClient({ url: location.origin });
client.subscribe(ActivityDocument, {}, { next: console.log });`,
  'core + socket.io': `import { createClient } from '@platform/client';
const client = createClient({ url: location.origin });
client.chat({ transport: 'socket.io' }).then((chat) => chat.join('global', { message: console.log }));`,
};

export interface LoadSize {
  /** Bytes of JavaScript, minified. */
  minified: number;
  /** The same files gzipped one by one. */
  gzip: number;
  /** The packages whose code is in it. */
  packages: string[];
}

export interface ProbeSize {
  /** What the page loads at start. */
  initial: LoadSize;
  /** What loads on first use of the realtime transport (nothing for core). */
  onFirstUse: LoadSize;
}

const packageOf = (input: string): string => {
  const at = input.lastIndexOf('node_modules/');
  if (at < 0) return '@platform/client';
  const rest = input.slice(at + 'node_modules/'.length).split('/');
  return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
};

/** Bundles each probe with esbuild (browser, ESM, code splitting, minified) against a staged build of the package. */
export async function measureClientBundles(): Promise<Record<keyof typeof PROBES, ProbeSize>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'client-size-'));
  try {
    const staged = await stageClientPackage(path.join(dir, 'package'));
    const entries: Record<string, string> = {};
    for (const [name, code] of Object.entries(PROBES)) {
      const file = path.join(dir, `${name.replace(/\W+/g, '-')}.js`);
      writeFileSync(file, code);
      entries[name] = file;
    }
    const out = path.join(dir, 'out');
    const result = await esbuild.build({
      entryPoints: entries,
      outdir: out,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      minify: true,
      metafile: true,
      write: true,
      nodePaths: [path.join(ROOT, 'node_modules')],
      plugins: [{ name: 'packed-client', setup: (b) => b.onResolve({ filter: /^@platform\/client$/ }, () => ({ path: path.join(staged, 'dist/index.js') })) }],
      logLevel: 'error',
    });
    const outputs = result.metafile.outputs;
    const key = (file: string) => path.relative(process.cwd(), path.resolve(file));
    const closure = (start: string[]): Set<string> => {
      const seen = new Set<string>();
      const walk = (file: string) => {
        if (seen.has(file)) return;
        seen.add(file);
        for (const imp of outputs[file]!.imports) if (imp.kind === 'import-statement' && !imp.external) walk(imp.path);
      };
      start.forEach(walk);
      return seen;
    };
    const size = (files: Set<string>): LoadSize => {
      let minified = 0;
      let gzip = 0;
      const packages = new Set<string>();
      for (const file of files) {
        const body = readFileSync(path.resolve(file));
        minified += body.length;
        gzip += gzipSync(body, { level: 9 }).length;
        for (const input of Object.keys(outputs[file]!.inputs)) packages.add(packageOf(input));
      }
      return { minified, gzip, packages: [...packages].sort() };
    };
    const sizes = {} as Record<keyof typeof PROBES, ProbeSize>;
    for (const name of Object.keys(PROBES) as Array<keyof typeof PROBES>) {
      const entry = Object.keys(outputs).find((file) => outputs[file]!.entryPoint && path.resolve(outputs[file]!.entryPoint!) === entries[name]);
      if (!entry) throw new Error(`no output for the ${name} probe (${key(entries[name]!)})`);
      const initial = closure([entry]);
      const dynamic = [...initial].flatMap((file) => outputs[file]!.imports.filter((i) => i.kind === 'dynamic-import' && !i.external).map((i) => i.path));
      // a probe uses one transport: what its own dynamic imports bring that the page has not loaded yet
      const used = name === 'core' ? [] : dynamic.filter((file) => [...closure([file])].some((f) => Object.keys(outputs[f]!.inputs).some((i) => i.includes(name === 'core + graphql-ws' ? 'node_modules/graphql-ws' : 'node_modules/socket.io-client'))));
      const lazy = new Set([...closure(used)].filter((file) => !initial.has(file)));
      sizes[name] = { initial: size(initial), onFirstUse: size(lazy) };
    }
    return sizes;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const sizes = await measureClientBundles();
  const lines = ['| Page uses | Loaded at start (min / gzip) | Loaded on first use (min / gzip) | Packages loaded on first use |', '|---|---|---|---|'];
  for (const [name, s] of Object.entries(sizes)) {
    const later = s.onFirstUse.minified ? `${kb(s.onFirstUse.minified)} / ${kb(s.onFirstUse.gzip)}` : '—';
    lines.push(`| ${name} | ${kb(s.initial.minified)} / ${kb(s.initial.gzip)} | ${later} | ${s.onFirstUse.packages.join(', ') || '—'} |`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
