/**
 * The README's quick start, executed: `npm start`'s entry on defaults (a copy of the suite's blog
 * build, so the first-start build is skipped), every URL of its table fetched, its curl sent as
 * written (URL, headers, body file) and its login snippet run as written with the project's node.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawnMain, type SpawnedApi } from '../helpers/process'
import { waitFor } from '../helpers/store'
import { MAIN_DIST } from './blog-global-setup'
import { copyBuild, freePort, ROOT } from './blog-server'

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8')
const QUICK_START = README.slice(README.indexOf('## Quick start'), README.indexOf('## Reference'))
const DEFAULT_ORIGIN = 'http://localhost:3000'
const DIST = '.next/test-readme'
const UNSET = ['DATABASE_URL', 'SHARED_STORE_URL', 'REDIS_URL', 'CACHE_STORE', 'BLOG_DATABASE_URL', 'BLOG_URL', 'BLOG_REVALIDATE_URL', 'BLOG_UPSTREAM_URL', 'NETWORK', 'PAYLOAD_SECRET', 'WEBHOOK_SECRET', 'BLOG_REVALIDATION_SECRET', 'JWT_SECRET', 'CHAIN_SUI_URL', 'CHAIN.SUI_URL', 'BLOG_PUBLISH_CI_TOKEN']

const codeBlocks = (lang: string) => [...QUICK_START.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!)

let work: string
let platform: SpawnedApi
let api: string

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'blog-readme-'))
  copyBuild(MAIN_DIST, DIST)
  const port = await freePort()
  api = `http://localhost:${port}`
  platform = await spawnMain(
    [],
    {
      ...Object.fromEntries(UNSET.map((k) => [k, ''])),
      NODE_ENV: 'development',
      'GENERAL.PORT': String(port),
      APP_URL: api,
      BLOG_PORT: String(await freePort()),
      DATA_DIR: path.join(work, 'data'),
      BLOG_DIST_DIR: DIST,
    },
    120_000,
  )
  await waitFor(() => platform.output().includes('blog: ready'), 90_000, 'blog: ready')
}, 240_000)

afterAll(async () => {
  await platform?.stop()
  rmSync(path.join(ROOT, 'blog', DIST), { recursive: true, force: true })
  if (work) rmSync(work, { recursive: true, force: true })
})

describe('README quick start', () => {
  it('names the two commands (and the development one), which are the scripts npm runs', () => {
    const [commands] = codeBlocks('sh')
    expect(commands!.split('\n').map((l) => l.replace(/#.*/, '').trim()).filter(Boolean)).toEqual(['npm install', 'npm start', 'npm run dev', 'npm test'])
    const scripts = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts
    // npm start runs the build (test/runtime/dist-build.test.ts starts it); npm run dev is what spawnMain runs
    expect(scripts.start).toMatch(/scripts\/build\.ts --if-stale && exec node --enable-source-maps dist\/main\.js$/)
    expect(scripts.dev).toBe('exec node --import tsx src/main.ts')
    expect(scripts.test).toBe('vitest run')
  })

  it('every URL of the table answers on the started platform', async () => {
    const urls = [...QUICK_START.matchAll(/^\| (http:\/\/localhost:3000\/\S*) \|/gm)].map((m) => m[1]!)
    expect(urls.length).toBeGreaterThanOrEqual(6)
    for (const url of urls) {
      const at = url.replace(DEFAULT_ORIGIN, api)
      // Socket.IO answers its engine.io handshake at the path; a browser opens the GraphQL IDE
      const target = at.endsWith('/socket.io/') ? `${at}?EIO=4&transport=polling` : at
      const res = await fetch(target, { headers: { accept: 'text/html,application/json;q=0.9,*/*;q=0.8' } })
      expect(res.status, url).toBe(200)
      if (at.endsWith('/socket.io/')) expect(await res.text()).toMatch(/^0\{"sid":/)
    }
  })

  it("the publish curl is accepted as written, and the post shows at the README's address", async () => {
    const curl = codeBlocks('sh').find((b) => b.startsWith('curl '))!.replace(/\\\n\s*/g, ' ')
    const url = /curl -X POST (\S+)/.exec(curl)![1]!.replace(DEFAULT_ORIGIN, api)
    const headers = Object.fromEntries(
      [...curl.matchAll(/-H (?:"([^"]+)"|'([^']+)')/g)].map((m) => {
        const header = (m[1] ?? m[2]!).replace(/\$\(cat \.data\/([^)]+)\)/, (_, file: string) => readFileSync(path.join(work, 'data', file), 'utf8').trim())
        const i = header.indexOf(':')
        return [header.slice(0, i).trim(), header.slice(i + 1).trim()]
      }),
    )
    const body = readFileSync(path.join(ROOT, /-d @(\S+)/.exec(curl)![1]!))
    const res = await fetch(url, { method: 'POST', headers, body })
    expect(res.status, await res.clone().text()).toBe(201)
    const post = /It shows at (http:\/\/localhost:3000\/\S+\/)/.exec(QUICK_START)![1]!.replace(DEFAULT_ORIGIN, api)
    const page = await fetch(post)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain((JSON.parse(body.toString('utf8')) as { article: { title: string } }).article.title)
  })

  it('the login snippet runs as written with @mysten/sui 2.x and prints the profile', async () => {
    const [snippet] = codeBlocks('js')
    expect(snippet).toContain("process.env.API_URL ?? 'http://localhost:3000'")
    const sui = JSON.parse(readFileSync(path.join(ROOT, 'node_modules/@mysten/sui/package.json'), 'utf8')) as { version: string }
    expect(sui.version).toMatch(/^2\./)
    // inside the repository so `@mysten/sui` resolves from its node_modules, as in a client project
    const dir = mkdtempSync(path.join(ROOT, '.readme-login-'))
    try {
      writeFileSync(path.join(dir, 'login.mjs'), snippet!)
      const { stdout } = await promisify(execFile)(process.execPath, ['login.mjs'], { cwd: dir, env: { ...process.env, API_URL: api } })
      expect(stdout).toMatch(/^200 /)
      expect(stdout).toMatch(/0x[0-9a-f]{64}/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
