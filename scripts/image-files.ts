// The image's runtime files besides the blog's standalone build: every file the built processes
// (dist/main.js and the blog role's two helpers) load, as @vercel/nft traces them, their source
// maps, and what they read by path. Used by the Dockerfile:
//   tsx scripts/image-files.ts --out <dir>   copies them into <dir>, keeping the repository's layout
//   tsx scripts/image-files.ts               lists them
// The image would otherwise carry every production dependency (1.3 GB), most of them for building.
import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeFileTrace } from '@vercel/nft';
import { OPERATOR_ENTRIES } from './build';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The processes a container starts (scripts/build.ts builds them): the roles, the blog role's helpers, the operator scripts. */
export const IMAGE_ENTRIES = ['main', 'blog-serve', 'blog-migrate', ...Object.keys(OPERATOR_ENTRIES)].map((name) => `dist/${name}.js`);

/**
 * Read through a computed path, which no tracer follows: the migrator's SQL. (The operator console
 * is inside dist/: scripts/build.ts defines its bundled files into the server's code.)
 */
export const READ_BY_PATH = ['package.json', 'schema/migrations'];

/**
 * Left out of the trace: blog/ ships as Next's own trace (its standalone build); the sources, which the
 * build's `import.meta.url` rewrite names (scripts/build.ts) but nothing reads at run time; esbuild,
 * which only the development GraphQL IDE loads (src/graphql/ide; the blog's trace may still bring it).
 */
const notShipped = (file: string) =>
  /^(blog|test|bench|docs|src|scripts|cms|\.test-dist)\//.test(file) || file.includes('/.next/') || /^node_modules\/(esbuild|@esbuild)\//.test(file);

function filesUnder(relative: string): string[] {
  const full = path.join(ROOT, relative);
  if (!statSync(full).isDirectory()) return [relative];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}

export async function imageFiles(): Promise<string[]> {
  const { fileList, warnings } = await nodeFileTrace(
    IMAGE_ENTRIES.map((e) => path.join(ROOT, e)),
    { base: ROOT, processCwd: ROOT, ignore: notShipped },
  );
  // Unresolved requires inside packages (optional peers, platform branches) are common and harmless;
  // the container tests start every role from the image, which is what proves the set complete.
  if (process.env.IMAGE_FILES_VERBOSE) for (const warning of warnings) console.error(warning.message);
  const files = new Set(fileList);
  for (const file of [...files]) {
    if (file.startsWith('dist/') && existsSync(path.join(ROOT, `${file}.map`))) files.add(`${file}.map`);
  }
  for (const entry of READ_BY_PATH) for (const file of filesUnder(entry)) files.add(file);
  return [...files].sort();
}

function copyInto(out: string, files: string[]): void {
  for (const file of files) {
    const from = path.join(ROOT, file);
    const to = path.join(out, file);
    mkdirSync(path.dirname(to), { recursive: true });
    if (existsSync(to)) continue;
    if (lstatSync(from).isSymbolicLink()) symlinkSync(readlinkSync(from), to);
    else copyFileSync(from, to);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = await imageFiles();
  const outFlag = process.argv.indexOf('--out');
  if (outFlag === -1) {
    process.stdout.write(`${files.join('\n')}\n`);
  } else {
    const out = path.resolve(process.argv[outFlag + 1] ?? '');
    copyInto(out, files);
    console.log(`image files: ${files.length} copied into ${out}`);
  }
}
