// The `blog` role: applies the blog migrations, builds the Next app when no current build exists
// (importmap + next build, about a minute; scripts/blog-build-inputs.ts says what current means),
// then runs `next start` on BLOG_PORT (default 3001).
// Run by src/main.ts under supervision (src/runtime/supervisor.ts): SIGINT/SIGTERM stop the
// current step or the Next server; when the supervising process dies (its IPC channel closes),
// this process stops too, so a blog never outlives the platform that started it.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { setPriority } from 'node:os'
import { createInterface } from 'node:readline'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { childProcessEnv, ConfigError, loadConfig, type Config } from '../src/config'
import { withDevelopmentSecrets } from '../src/config/development-secrets'
import { scriptNodeArgs } from '../src/runtime/script-command'
import { BLOG_DELIVERY_PATH, BLOG_PUBLISHED_POSTS_PATH } from '../src/surfaces/shared/blog-webhook'
import { blogBuildInputsHash, blogBuildIsCurrent, stampBlogBuild } from './blog-build-inputs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const nextBin = path.join(root, 'node_modules/next/dist/bin/next')

// The same settings schema and start-up rules as src/main.ts (run directly, nothing checked them yet).
let config: Config
try {
  // Run alone, it generates (or reads back) the same development secrets in DATA_DIR as src/main.ts.
  config = withDevelopmentSecrets(loadConfig({ envDir: path.join(root, 'env') })).config
} catch (err) {
  if (!(err instanceof ConfigError)) throw err
  console.error(err.message)
  process.exit(78)
}
const port = String(config.blog.port)
// The children parse the same inputs (env files included). Plain-Node Payload has no Next dev
// server to follow: no HMR websocket (it would dial localhost:3000).
// Next sets NODE_ENV for itself: the platform's own travels as PLATFORM_NODE_ENV (src/config/platform-env.ts).
const env = { ...process.env, ...config.sourceEnv, ...childProcessEnv(config), NEXT_TELEMETRY_DISABLED: '1', DISABLE_PAYLOAD_HMR: 'true' }

let current: ChildProcess | null = null
let stopping = false

function stop(signal: NodeJS.Signals): void {
  stopping = true
  if (current && current.exitCode === null) current.kill(signal)
  else process.exit(0)
}
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => stop(sig))
process.on('disconnect', () => stop('SIGTERM'))

/** The first build's niceness: it yields the CPU to the API (and everything else) on a busy machine. */
const BUILD_NICENESS = 10
const PROGRESS_EVERY_MS = 15_000

interface RunOptions {
  extraEnv?: Record<string, string>
  /** Background work: lower CPU priority, output prefixed with the label, a progress line every 15 s. */
  background?: string
}

/** Runs one child to its end; its exit code (or 1 for a signal). */
function run(args: string[], opts: RunOptions = {}): Promise<number> {
  return new Promise((resolve) => {
    const label = opts.background
    const child = spawn(process.execPath, args, { cwd: root, env: { ...env, ...opts.extraEnv }, stdio: ['ignore', label ? 'pipe' : 'inherit', label ? 'pipe' : 'inherit'] })
    current = child
    let progress: NodeJS.Timeout | undefined
    if (label) {
      // Next's workers are forked by this child and inherit its priority.
      if (child.pid) setPriority(child.pid, BUILD_NICENESS)
      for (const [stream, out] of [[child.stdout, process.stdout], [child.stderr, process.stderr]] as const) {
        if (stream) createInterface({ input: stream }).on('line', (line) => out.write(`blog ${label} | ${line}\n`))
      }
      const started = Date.now()
      progress = setInterval(() => console.log(`blog: ${label} still running (${Math.round((Date.now() - started) / 1000)} s elapsed, at low CPU priority)`), PROGRESS_EVERY_MS)
    }
    child.on('error', (err) => {
      console.error(`blog: ${err.message}`)
      resolve(1)
    })
    child.on('exit', (code, signal) => {
      clearInterval(progress)
      current = null
      resolve(code ?? (signal ? 1 : 0))
    })
  })
}

async function step(label: string, args: string[], opts: RunOptions = {}): Promise<void> {
  const started = Date.now()
  const code = await run(args, opts)
  if (stopping) process.exit(0)
  if (code !== 0) {
    console.error(`blog: ${label} failed (exit ${code})`)
    process.exit(code)
  }
  if (opts.background) console.log(`blog: ${label} done in ${Math.round((Date.now() - started) / 1000)} s`)
}

await step('migrations', scriptNodeArgs('blog-migrate'))
// A supervising platform process logs it (npm run start:cluster starts the API replicas then).
if (process.send) process.send({ type: 'blog-migrated' })
else console.log('blog: migrations applied')
const distDir = config.blog.distDir
const hasBuild = existsSync(path.join(root, 'blog', distDir, 'BUILD_ID'))
if (!config.blog.buildOnStart) {
  // The image: its build is the one to serve (its sources are not there to compare with).
  if (!hasBuild) {
    console.error(`blog: no build in blog/${distDir} and BLOG_BUILD_ON_START=false: build it first (npm run blog:build)`)
    process.exit(70)
  }
} else if (!blogBuildIsCurrent(distDir, blogBuildInputsHash())) {
  const why = hasBuild ? 'the build is older than its sources, building again' : 'no build found, building once'
  console.log(`blog: ${why} (npm run blog:build does the same; a few minutes on a busy machine)…`)
  await step('import map', scriptNodeArgs('blog-importmap'), { background: 'import map' })
  await step('next build', [nextBin, 'build', 'blog'], { extraEnv: { NODE_ENV: 'production' }, background: 'build' })
  // (after the build: next build may add its distDir to blog/tsconfig.json, an input)
  stampBlogBuild(distDir, blogBuildInputsHash())
}
const server = run(...serverCommand())
void warmUp()
const code = await server
process.exit(stopping ? 0 : code)

/**
 * A standalone build laid out at the root (the image: blog/server.js beside blog/.next) runs its own
 * server, otherwise `next start`; either listens on GENERAL_HOST, as the API does (127.0.0.1 outside production).
 */
function serverCommand(): [string[], RunOptions] {
  const standalone = path.join(root, 'blog', 'server.js')
  const extraEnv = { NODE_ENV: 'production' }
  if (!existsSync(standalone)) return [[nextBin, 'start', 'blog', '-p', port, '-H', config.http.host], { extraEnv }]
  return [[standalone], { extraEnv: { ...extraEnv, PORT: port, HOSTNAME: config.http.host } }]
}

/**
 * Once Next answers, one request for a post page opens the site's Payload and loads the post
 * route, so the first reader after a publish does not pay for that (seconds on a cold process);
 * then the routes the API reads and forwards the partner webhook through (cms/platform-api.ts)
 * are loaded the same way (a `webhook.test` delivery writes nothing), so the first delivery
 * does not pay for them inside the API's request timeout.
 */
async function warmUp(): Promise<void> {
  const origin = `http://127.0.0.1:${port}`
  const base = `${origin}/blog`
  const started = Date.now()
  while (!stopping) {
    const ok = await fetch(`${base}/robots.txt`).then((r) => r.ok, () => false)
    if (ok) break
    await new Promise((r) => setTimeout(r, 250))
  }
  if (stopping) return
  await fetch(`${base}/posts/warm-up/`).then((r) => r.arrayBuffer(), () => undefined)
  await fetch(`${origin}${BLOG_PUBLISHED_POSTS_PATH}?limit=1`).then((r) => r.arrayBuffer(), () => undefined)
  if (config.blog.webhookSecret) {
    await fetch(`${origin}${BLOG_DELIVERY_PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${config.blog.webhookSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'webhook.test', delivery_id: 'blog-serve-warm-up' }),
    }).then((r) => r.arrayBuffer(), () => undefined)
  }
  console.log(`blog: ready on port ${port} (${Math.round((Date.now() - started) / 100) / 10} s after start)`)
  // The platform prints its ready banner (all URLs) only once the blog answers too.
  process.send?.({ type: 'blog-answering' })
}
