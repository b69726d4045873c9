// What a blog build (`next build blog`) reads from this repository, as one hash stored beside the
// build (`<distDir>/inputs-stamp.txt`): every file of blog/ and cms/, the repository files they import
// (followed through relative imports: src/config, src/surfaces/shared, …), the lockfile and the
// compiler options. A build whose stamp matches is current: `npm start` (scripts/blog-serve.ts)
// builds again only when it is not, and the test suite reuses a current build (its own from an
// earlier run, or `npm start`'s) instead of building.
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const STAMP = 'inputs-stamp.txt'
const SOURCE_DIRS = ['blog', 'cms']
const SETTINGS_FILES = ['package-lock.json', 'tsconfig.json']
/** Written by the build itself (`next build` rewrites it for its distDir) or never read by it. */
const SKIPPED = new Set(['.next', 'node_modules', 'next-env.d.ts'])
const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.mjs', '.js', '.jsx', '.json', '.css']
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g

function walk(dir: string, out: Set<string>): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) walk(full, out)
    else if (entry.isFile()) out.add(full)
  }
}

/** A relative specifier as the bundler resolves it: the file, with an extension added, or a folder's index. */
function resolveImport(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier)
  const candidates = [base, ...SOURCE_EXTENSIONS.map((ext) => base + ext), ...SOURCE_EXTENSIONS.map((ext) => path.join(base, `index${ext}`))]
  if (/\.js$/.test(base)) candidates.push(base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'))
  return candidates.find((file) => existsSync(file) && statSync(file).isFile())
}

/** Every repository file a blog build reads, sorted, relative to the root. */
export function blogBuildInputs(root = ROOT): string[] {
  const files = new Set<string>()
  for (const dir of SOURCE_DIRS) walk(path.join(root, dir), files)
  const queue = [...files]
  while (queue.length) {
    const file = queue.pop()!
    if (!/\.(m?[jt]sx?)$/.test(file)) continue
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolveImport(file, specifier!)
      if (!target || files.has(target) || target.includes(`${path.sep}node_modules${path.sep}`)) continue
      files.add(target)
      queue.push(target)
    }
  }
  for (const file of SETTINGS_FILES) files.add(path.join(root, file))
  return [...files].map((f) => path.relative(root, f)).sort()
}

export function blogBuildInputsHash(root = ROOT): string {
  const hash = createHash('sha256')
  // The one setting that changes what the build writes (a standalone build keeps ISR in memory).
  hash.update(`output:${process.env.BLOG_BUILD_OUTPUT ?? 'server'}\0`)
  for (const file of blogBuildInputs(root)) {
    hash.update(file).update('\0')
    const full = path.join(root, file)
    hash.update(existsSync(full) ? readFileSync(full) : 'missing').update('\0')
  }
  return hash.digest('hex')
}

/** `distDir` as next.config.mjs takes it (relative to blog/). */
const stampFile = (distDir: string, root: string) => path.join(root, 'blog', distDir, STAMP)

/** The build in `distDir` is complete and was made from these inputs. */
export function blogBuildIsCurrent(distDir: string, inputsHash: string, root = ROOT): boolean {
  const stamp = stampFile(distDir, root)
  return existsSync(path.join(root, 'blog', distDir, 'BUILD_ID')) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === inputsHash
}

/** Written after a build succeeds, with the hash of the inputs as the build left them. */
export function stampBlogBuild(distDir: string, inputsHash: string, root = ROOT): void {
  writeFileSync(stampFile(distDir, root), `${inputsHash}\n`)
}

// `npm run blog:build` stamps the build it just made (BLOG_DIST_DIR, as next.config.mjs reads it).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) && process.argv[2] === 'stamp') {
  stampBlogBuild(process.env.BLOG_DIST_DIR || '.next', blogBuildInputsHash())
}
