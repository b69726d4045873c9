/**
 * `npm start` in development on another port than 3000 and no APP_URL (the README's defaults
 * otherwise): the blog process keeps the platform's NODE_ENV though `next start` runs it under
 * NODE_ENV=production, so the development-only settings work there (a partner image from this
 * machine is kept with BLOG_MEDIA_ALLOW_PRIVATE_HOSTS=true; the blog listens on GENERAL_HOST's
 * default 127.0.0.1 as the API does); the URL defaults follow the port, so a publish's
 * revalidation reaches the blog; the log is JSON throughout when written to a file.
 * The production side (the setting ignored): blog-production-settings.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { articleDelivery } from '../fixtures/blog-articles'
import { startImageServer, type ImageServer } from '../fixtures/image-server'
import { spawnMain, type SpawnedApi } from '../helpers/process'
import { waitFor } from '../helpers/store'
import { MAIN_DIST } from './blog-global-setup'
import { copyBuild, freePort, ROOT } from './blog-server'
import { listeningAddresses } from './listening'

const DIST = '.next/test-start-port'
const UNSET = ['DATABASE_URL', 'SHARED_STORE_URL', 'REDIS_URL', 'CACHE_STORE', 'BLOG_DATABASE_URL', 'APP_URL', 'BLOG_URL', 'BLOG_REVALIDATE_URL', 'BLOG_UPSTREAM_URL', 'BLOG_CMS_URL', 'GENERAL_HOST', 'GENERAL.HOST', 'NETWORK', 'PAYLOAD_SECRET', 'WEBHOOK_SECRET', 'BLOG_REVALIDATION_SECRET', 'JWT_SECRET', 'CHAIN_SUI_URL', 'CHAIN.SUI_URL', 'BLOG_PUBLISH_CI_TOKEN', 'LOG_FORMAT']

let work: string
let platform: SpawnedApi
let images: ImageServer
let api: string
let blogPort: number

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'blog-start-port-'))
  copyBuild(MAIN_DIST, DIST)
  images = await startImageServer()
  const port = await freePort()
  expect(port).not.toBe(3000)
  api = `http://localhost:${port}`
  blogPort = await freePort()
  platform = await spawnMain(
    [],
    {
      ...Object.fromEntries(UNSET.map((k) => [k, ''])),
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      'GENERAL.PORT': String(port),
      BLOG_PORT: String(blogPort),
      BLOG_MEDIA_ALLOW_PRIVATE_HOSTS: 'true',
      DATA_DIR: path.join(work, 'data'),
      BLOG_DIST_DIR: DIST,
    },
    120_000,
  )
  await waitFor(() => platform.output().includes('blog: ready'), 120_000, 'blog: ready')
}, 240_000)

afterAll(async () => {
  await platform?.stop()
  await images?.close()
  rmSync(path.join(ROOT, 'blog', DIST), { recursive: true, force: true })
  if (work) rmSync(work, { recursive: true, force: true })
})

describe(`npm start on GENERAL_PORT ≠ 3000, no APP_URL, development`, () => {
  it('a publish is revalidated and keeps a partner image from this machine (BLOG_MEDIA_ALLOW_PRIVATE_HOSTS=true)', async () => {
    const secret = readFileSync(path.join(work, 'data', '.webhook-secret'), 'utf8').trim()
    const slug = 'start-port-image-guide'
    const base = articleDelivery('start-port-1', slug, 320)
    const hero = `${images.url}/hero.png?for=${slug}`
    const res = await fetch(`${api}/api/blog/webhooks/contentpartner`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...base, article: { ...(base.article as object), image_url: hero } }),
    })
    const body = await res.json()
    expect(res.status, JSON.stringify(body)).toBe(201)
    expect(body.refresh).toEqual([{ kind: 'revalidate', ok: true, status: 200 }])
    expect(body.warnings ?? []).not.toContainEqual(expect.stringContaining(hero))
    const page = await fetch(`${api}/blog/posts/${slug}/`).then((r) => r.text())
    expect(page).toMatch(/\/blog\/assets\/blog\/db\/[^"]*start-port-image-guide-1\.png/)
  })

  it('the blog listens on 127.0.0.1 only, as the API does', () => {
    expect(listeningAddresses(blogPort)).toEqual(['127.0.0.1'])
  })

  it('the ready banner lists the console; migrations are announced once; every line of the log is JSON', () => {
    const out = platform.output()
    expect(out).toContain(`console:   ${api}/console/`)
    expect(out.split('blog: migrations applied').length - 1).toBe(1)
    // The ready banner and the publish command are printed for people, on purpose; every other line is a log event.
    const forPeople = (l: string) => /^\s/.test(l) || l.startsWith('Ready. ') || l.startsWith('Webhook: development secret')
    const notJson = out.split('\n').filter((l) => l.trim() && !forPeople(l)).filter((l) => {
      try {
        return typeof JSON.parse(l) !== 'object'
      } catch {
        return true
      }
    })
    expect(notJson).toEqual([])
    expect(out).not.toContain('\u001b[')
  })
})
