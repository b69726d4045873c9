/**
 * Global setup of the blog suite: one `next build` into blog/.next/test-mainnet (skipped when a build
 * of the same inputs exists there or in `npm start`'s blog/.next: scripts/blog-build-inputs.ts), then a mainnet server and a testnet server
 * (a copy of the same build in blog/.next/test-testnet) on random free ports, sharing one
 * temporary DATA_DIR. The APIs the tests start read posts from the mainnet server and forward the
 * partner webhook to it (BLOG_CMS_URL), as `npm start`'s API does with its blog process.
 *
 * Vitest runs every project's global setup before the first test file, so this one only starts
 * that work (niced) and returns: the build runs while the backend files run, and each blog file
 * waits for it in test/blog/blog-ready.ts (the outcome is written to the file `blogReadyFile`).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { BLOG_DELIVERY_PATH, BLOG_PUBLISHED_POSTS_PATH } from '../../src/surfaces/shared/blog-webhook'
import { blogBuildInputsHash, blogBuildIsCurrent } from '../../scripts/blog-build-inputs'
import { builtNodeArgs } from '../helpers/built-main'
import { copyBuild, freePort, ROOT, run, startNext, type StartedServer } from './blog-server'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Written once the servers answer: `{ ok: true }` or `{ ok: false, error }`. */
    blogReadyFile: string
    blogMainnetUrl: string
    blogTestnetUrl: string
    blogDataDir: string
    blogRevalidationSecret: string
    blogPayloadSecret: string
    blogAppUrl: string
    blogWebhookSecret: string
  }
}

const ARTIFACTS = path.join(ROOT, 'test-artifacts')
const REVALIDATION_SECRET = 'blog-test-revalidation-secret'
const PAYLOAD_SECRET = 'blog-test-payload-secret-0123456789abcdef'
/** The partner webhook's secret on both servers: the suite's APIs forward deliveries to the mainnet one with it. */
const WEBHOOK_SECRET = 'blog-test-contentpartner-webhook-secret-0123'
const APP_URL = 'https://app.example.test'
/** Test builds live beside (not in) the regular blog/.next build, so `npm start` never serves test pages. */
export const MAIN_DIST = '.next/test-mainnet'
const TEST_DIST = '.next/test-testnet'
/** `npm start`'s build (scripts/blog-serve.ts on defaults). */
const START_DIST = '.next'

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  mkdirSync(ARTIFACTS, { recursive: true })
  const work = mkdtempSync(path.join(tmpdir(), 'blog-test-'))
  const dataDir = path.join(work, 'data')
  const readyFile = path.join(work, 'ready.json')
  const [mainPort, testPort] = [await freePort(), await freePort()]
  const base: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    DATA_DIR: dataDir,
    PAYLOAD_SECRET,
    APP_URL,
    BLOG_REVALIDATION_SECRET: REVALIDATION_SECRET,
    WEBHOOK_SECRET,
    // A development-only setting: ignored under NODE_ENV=production (blog-production-settings.test.ts).
    BLOG_MEDIA_ALLOW_PRIVATE_HOSTS: 'true',
  }
  delete base.BLOG_DATABASE_URL
  const mainEnv = { ...base, NETWORK: 'mainnet', BLOG_URL: `http://127.0.0.1:${mainPort}/blog`, BLOG_DIST_DIR: MAIN_DIST }
  const testEnv = { ...base, NETWORK: 'testnet', BLOG_URL: `http://127.0.0.1:${testPort}/blog`, BLOG_DIST_DIR: TEST_DIST }

  const servers: StartedServer[] = []
  const prepared = prepare(mainEnv, testEnv, [mainPort, testPort], servers).then(
    () => writeFileSync(readyFile, JSON.stringify({ ok: true })),
    (err: unknown) => writeFileSync(readyFile, JSON.stringify({ ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) })),
  )

  project.provide('blogReadyFile', readyFile)
  project.provide('blogMainnetUrl', `http://127.0.0.1:${mainPort}`)
  project.provide('blogTestnetUrl', `http://127.0.0.1:${testPort}`)
  project.provide('blogDataDir', dataDir)
  project.provide('blogRevalidationSecret', REVALIDATION_SECRET)
  project.provide('blogPayloadSecret', PAYLOAD_SECRET)
  project.provide('blogAppUrl', APP_URL)
  project.provide('blogWebhookSecret', WEBHOOK_SECRET)
  return async () => {
    await prepared
    await Promise.all(servers.map((s) => s.stop()))
    rmSync(work, { recursive: true, force: true })
  }
}

/** A build made from the current inputs: the suite's own from an earlier run, else `npm start`'s. */
function reusableBuild(inputsHash: string): 'the suite' | 'npm start' | undefined {
  if (blogBuildIsCurrent(MAIN_DIST, inputsHash)) return 'the suite'
  if (blogBuildIsCurrent(START_DIST, inputsHash)) return 'npm start'
  return undefined
}

/** Builds (or reuses) the Next app, starts both servers (pushed to `servers` as they start) and warms them. */
async function prepare(mainEnv: NodeJS.ProcessEnv, testEnv: NodeJS.ProcessEnv, [mainPort, testPort]: [number, number], servers: StartedServer[]): Promise<void> {
  const buildLog = path.join(ARTIFACTS, 'blog-build.log')
  rmSync(buildLog, { force: true })
  // next build rewrites blog/next-env.d.ts to point at the test distDir: keep the committed one.
  const nextEnv = path.join(ROOT, 'blog/next-env.d.ts')
  const nextEnvText = existsSync(nextEnv) ? readFileSync(nextEnv, 'utf8') : undefined
  const started = Date.now()
  const reused = reusableBuild(blogBuildInputsHash())
  if (reused === 'npm start') copyBuild(START_DIST, MAIN_DIST)
  // Niced: the backend files running meanwhile keep the CPU they need; the build takes what is left.
  // (built: test/build-global-setup.ts, which runs first, has built the blog role's processes)
  if (reused) await run(process.execPath, builtNodeArgs('blog-migrate'), mainEnv, buildLog)
  else await run('nice', ['-n', '10', 'npm', 'run', 'blog:build'], mainEnv, buildLog)
  if (nextEnvText !== undefined) writeFileSync(nextEnv, nextEnvText)
  console.log(`[blog] ${reused ? `migrated (${reused}'s build reused: its inputs are unchanged)` : 'built'} in ${Math.round((Date.now() - started) / 1000)} s`)

  copyBuild(MAIN_DIST, TEST_DIST)
  servers.push(await startNext(mainPort, mainEnv, path.join(ARTIFACTS, 'blog-server-mainnet.log')))
  servers.push(await startNext(testPort, testEnv, path.join(ARTIFACTS, 'blog-server-testnet.log')))
  // The testnet copy holds pages prerendered for mainnet, a reused build those of another data
  // directory: refresh them all.
  for (const server of reused ? servers : servers.slice(1)) {
    const res = await fetch(`${server.url}/blog/api/revalidate/`, { method: 'POST', headers: { authorization: `Bearer ${REVALIDATION_SECRET}` } })
    if (res.status !== 200) throw new Error(`revalidation of ${server.url} answered ${res.status}`)
  }
  // As blog-serve does before `blog: ready`: the routes the APIs read and forward through are loaded
  // (a `webhook.test` delivery writes nothing), so a test's first delivery does not load them within
  // the API's 5 s request timeout.
  const warm = await fetch(`${servers[0]!.url}${BLOG_DELIVERY_PATH}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${WEBHOOK_SECRET}`, 'content-type': 'application/json' },
    body: JSON.stringify({ event: 'webhook.test', delivery_id: 'blog-suite-warm-up' }),
  })
  if (warm.status !== 200) throw new Error(`the mainnet server's delivery route answered ${warm.status}`)
  await fetch(`${servers[0]!.url}${BLOG_PUBLISHED_POSTS_PATH}?limit=1`).then((r) => r.arrayBuffer())
}
