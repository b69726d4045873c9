import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Defined as `true` by scripts/build.ts in every bundle it builds (dist/, .test-dist/). */
declare const DIST_BUILD: boolean | undefined;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Node arguments that run one of the scripts/ processes (`blog-serve`, `blog-migrate`,
 * `blog-importmap`): built, its bundle beside the running one (this module's chunk, in dist/ or
 * .test-dist/); from source, under tsx.
 */
export function scriptNodeArgs(name: 'blog-serve' | 'blog-migrate' | 'blog-importmap'): string[] {
  if (typeof DIST_BUILD !== 'undefined') return ['--enable-source-maps', path.join(path.dirname(import.meta.filename), `${name}.js`)];
  return ['--import', 'tsx', path.join(ROOT, 'scripts', `${name}.ts`)];
}
