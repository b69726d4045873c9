/**
 * The surfaces audit (scripts/surfaces-audit/audit.ts) against this project's own mainnet blog build and
 * the API's root files (sitemaps, robots, llms.txt) and legacy route redirects. First behind an
 * edge that routes those paths of the app host to the API, the fixture site standing in for the
 * app, docs and house codebases (built by the same rules); then with the API alone on the app host,
 * where only the app's pages and the docs site are missing. Public URLs stay those of the
 * deployment (`APP_URL` of the blog build); the audit reaches the app host through `connectTo`.
 */
import { execFile } from 'node:child_process'
import type { Payload } from 'payload'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { closeBlogPayload } from '../../cms/lifecycle'
import { auditSurfaces, type AuditReport } from '../../scripts/surfaces-audit/audit'
import { formatReport } from '../../scripts/surfaces-audit/audit-format'
import { APP_ROUTE_REDIRECTS } from '../../src/surfaces/shared/redirects'
import { readSitemap } from '../../scripts/surfaces-audit/sitemap-read'
import { articleDelivery } from '../fixtures/blog-articles'
import { startSurfacesSite, type FixtureSite } from '../fixtures/surfaces-site'
import { startApi, type TestApi } from '../helpers/api'
import { openPayload } from './blog-helpers'
import { builtScriptArgs } from '../helpers/built-main'

const SLUG = 'surfaces-audit-guide'
let payload: Payload
let site: FixtureSite
let api: TestApi
let blogUrl: string

beforeAll(async () => {
  blogUrl = `${inject('blogMainnetUrl')}/blog`
  payload = await openPayload('mainnet')
  const { handleContentPartnerDelivery } = await import('../../cms/publishing')
  const published = await handleContentPartnerDelivery(payload, articleDelivery('surfaces-1', SLUG, 21))
  expect(published).toMatchObject({ ok: true })
  site = await startSurfacesSite({ network: 'mainnet', appUrl: inject('blogAppUrl'), blogUrl })
  api = await startApi({ env: { NETWORK: 'mainnet', APP_URL: site.appUrl, BLOG_URL: blogUrl, HOUSE_URL: site.houseUrl } })
  site.routeToApi(api.url)
})

afterAll(async () => {
  await api?.close()
  await site?.close()
  if (payload) await closeBlogPayload(payload)
})

describe('surfaces audit of this project (mainnet blog build + API)', () => {
  it('finds no violation, and it crawled every page the blog sitemap lists', async () => {
    const report = await auditSurfaces({ ...site, concurrency: 4, timeoutMs: 10_000 })
    expect(report.violations, formatReport(report)).toEqual([])

    // The index the API serves names the real blog's sitemap, and the audit walked all of it.
    const index = readSitemap(await (await fetch(`${api.url}/sitemap_index.xml`)).text())
    expect(index.entries.map((e) => e.loc)).toContain(`${blogUrl}/sitemap.xml`)
    const blogMap = readSitemap(await (await fetch(`${blogUrl}/sitemap.xml`)).text())
    const blogPages = blogMap.entries.map((e) => e.loc)
    expect(blogPages).toEqual(expect.arrayContaining([`${blogUrl}/`, `${blogUrl}/posts/${SLUG}/`]))
    // index + 3 child sitemaps + house sitemap + 4 robots + llms + 4 route + 0 host redirects, then the pages.
    expect(report.requests).toBeGreaterThanOrEqual(14 + blogPages.length)
  })

  it('is not blind: the testnet build of the same blog, audited as a mainnet surface, is reported page by page', async () => {
    const testnetBlog = `${inject('blogTestnetUrl')}/blog`
    const report = await auditSurfaces({ ...site, blogUrl: testnetBlog, concurrency: 4, timeoutMs: 10_000 })
    const onBlog = report.violations.filter((v) => v.url.startsWith(testnetBlog))
    expect(onBlog.length, formatReport(report)).toBeGreaterThan(0)
    // Its robots.txt blocks crawlers and its root page says noindex: both are mainnet violations.
    expect(onBlog.map((v) => `${v.rule} ${v.url}`)).toEqual(expect.arrayContaining([`robots-allow ${testnetBlog}/robots.txt`]))
  })
})

/** `npm run surfaces:audit` as an operator runs it (the script under node), `--json` to read the report. */
function auditCli(args: string[]): Promise<{ code: number; report: AuditReport; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...builtScriptArgs('scripts/surfaces-audit.ts'), ...args, '--json'], { timeout: 120_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, report: JSON.parse(stdout || '{}') as AuditReport, stderr })
    })
  })
}

describe("surfaces audit of this project's own mainnet deployment, no stand-in for the app host", () => {
  let own: TestApi

  beforeAll(async () => {
    own = await startApi({ env: { NETWORK: 'mainnet', APP_URL: inject('blogAppUrl'), BLOG_URL: blogUrl } })
  })
  afterAll(async () => {
    await own?.close()
  })

  it('the audit command finds only the app pages and the docs site, which other deployments serve', async () => {
    const appUrl = inject('blogAppUrl')
    const { code, report, stderr } = await auditCli(['--network', 'mainnet', '--app-url', appUrl, '--blog-url', blogUrl, '--connect-to', `${appUrl}=${own.url}`])
    expect(code, stderr).toBe(1)
    // The app sitemap the API serves names the app's pages; the app (another codebase) is not running here.
    const appPages = readSitemap(await (await fetch(`${own.url}/sitemap.xml`)).text()).entries.map((e) => e.loc)
    expect(appPages).toEqual([`${appUrl}/`, `${appUrl}/weekly-race`, `${appUrl}/bonus`])
    const expected = [...appPages, `${appUrl}/docs/`, `${appUrl}/docs/sitemap.xml`].map((url) => `fetch ${url} HTTP 404`).sort()
    expect(report.violations.map((v) => `${v.rule} ${v.url} ${v.detail}`).sort(), formatReport(report)).toEqual(expected)
    // It did check what this project serves: robots, the sitemaps, llms.txt, the four legacy routes, the blog's pages.
    expect(report.summary['redirect-route']).toBe(0)
    expect(report.requests).toBeGreaterThanOrEqual(10 + Object.keys(APP_ROUTE_REDIRECTS).length)
  })
})
