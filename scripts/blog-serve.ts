// The `blog` role: applies the blog migrations, builds the Next app once if no build exists
// (importmap + next build, about a minute), then runs `next start` on BLOG_PORT (default 3001).
// Run by src/main.ts under supervision (src/runtime/supervisor.ts): SIGINT/SIGTERM stop the
// current step or the Next server; when the supervising process dies (its IPC channel closes),
// this process stops too, so a blog never outlives the platform that started it.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ConfigError, loadConfig, type Config } from '../src/config'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const nextBin = path.join(root, 'node_modules/next/dist/bin/next')
const tsxArgs = (script: string): string[] => ['--import', 'tsx', path.join(root, 'scripts', script)]

// The same settings schema and start-up rules as src/main.ts (run directly, nothing checked them yet).
let config: Config
try {
  config = loadConfig({ envDir: path.join(root, 'env') })
} catch (err) {
  if (!(err instanceof ConfigError)) throw err
  console.error(err.message)
  process.exit(78)
}
const port = String(config.blog.port)
// The children parse the same inputs (env files included). Plain-Node Payload has no Next dev
// server to follow: no HMR websocket (it would dial localhost:3000).
const env = { ...process.env, ...config.sourceEnv, NEXT_TELEMETRY_DISABLED: '1', DISABLE_PAYLOAD_HMR: 'true' }

let current: ChildProcess | null = null
let stopping = false

function stop(signal: NodeJS.Signals): void {
  stopping = true
  if (current && current.exitCode === null) current.kill(signal)
  else process.exit(0)
}
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => stop(sig))
process.on('disconnect', () => stop('SIGTERM'))

/** Runs one child to its end; its exit code (or 1 for a signal). */
function run(args: string[], extraEnv: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, env: { ...env, ...extraEnv }, stdio: ['ignore', 'inherit', 'inherit'] })
    current = child
    child.on('error', (err) => {
      console.error(`blog: ${err.message}`)
      resolve(1)
    })
    child.on('exit', (code, signal) => {
      current = null
      resolve(code ?? (signal ? 1 : 0))
    })
  })
}

async function step(label: string, args: string[], extraEnv: Record<string, string> = {}): Promise<void> {
  const code = await run(args, extraEnv)
  if (stopping) process.exit(0)
  if (code !== 0) {
    console.error(`blog: ${label} failed (exit ${code})`)
    process.exit(code)
  }
}

await step('migrations', tsxArgs('blog-migrate.ts'))
console.log('blog: migrations applied')
// The supervising platform process waits for this before it opens the blog database itself.
process.send?.({ type: 'blog-migrated' })
if (!existsSync(path.join(root, 'blog', config.blog.distDir, 'BUILD_ID'))) {
  console.log('blog: no build found, building once (npm run blog:build does the same)…')
  await step('import map', tsxArgs('blog-importmap.ts'))
  await step('next build', [nextBin, 'build', 'blog'], { NODE_ENV: 'production' })
}
const code = await run([nextBin, 'start', 'blog', '-p', port], { NODE_ENV: 'production' })
process.exit(stopping ? 0 : code)
