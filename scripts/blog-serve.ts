// The `blog` role: applies the blog migrations, builds the Next app once if no build exists
// (importmap + next build, about a minute), then runs `next start` on BLOG_PORT (default 3001).
// SIGINT/SIGTERM are passed on to the Next server.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const nextBin = path.join(root, 'node_modules/next/dist/bin/next')
const tsxArgs = (script: string): string[] => ['--import', 'tsx', path.join(root, 'scripts', script)]
const port = process.env.BLOG_PORT || '3001'
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' }

function step(label: string, args: string[], extraEnv: Record<string, string> = {}): void {
  const r = spawnSync(process.execPath, args, { cwd: root, env: { ...env, ...extraEnv }, stdio: 'inherit' })
  if (r.status !== 0) {
    console.error(`blog: ${label} failed (exit ${r.status ?? r.signal})`)
    process.exit(r.status ?? 1)
  }
}

step('migrations', tsxArgs('blog-migrate.ts'))
if (!existsSync(path.join(root, 'blog', process.env.BLOG_DIST_DIR || '.next', 'BUILD_ID'))) {
  console.log('blog: no build found, building once (npm run blog:build does the same)…')
  step('import map', tsxArgs('blog-importmap.ts'))
  step('next build', [nextBin, 'build', 'blog'], { NODE_ENV: 'production' })
}
const server = spawn(process.execPath, [nextBin, 'start', 'blog', '-p', port], {
  cwd: root,
  env: { ...env, NODE_ENV: 'production' },
  stdio: 'inherit',
})
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => server.kill(sig))
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
