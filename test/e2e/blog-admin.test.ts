/**
 * Browser test (playwright-core + Debian chromium): an editor logs into the Payload admin,
 * is refused when publishing an incomplete post, completes the editorial contract, publishes,
 * and the post appears on the index, its page, both feeds and the sitemap — all under the
 * site's Content-Security-Policy, with no violation reported by the browser.
 * Screenshots go to test-artifacts/.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Payload } from 'payload'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { editorParagraphs } from '../fixtures/blog-articles'
import { openPayload } from '../blog/blog-helpers'
import { closeBlogPayload } from '../../cms/lifecycle'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-artifacts')
const EMAIL = 'editor@example.test'
const PASSWORD = 'correct-horse-battery-staple'
const SLUG = 'daily-streak-rewards-explained'
const TITLE = 'Daily streak rewards explained'

let browser: BrowserContext
let page: Page
let payload: Payload
let profileDir: string
let blogUrl: string
/** CSP violations seen by the browser: `securitypolicyviolation` events and console reports. */
const violations: string[] = []
/** Content-Security-Policy of every HTML document the browser loaded, by URL. */
const documentPolicies = new Map<string, string | null>()

const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `blog-admin-${name}.png`), fullPage: true })

describe.skipIf(!existsSync(CHROMIUM))('editor publishes through the admin', () => {
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true })
    blogUrl = `${inject('blogMainnetUrl')}/blog`
    payload = await openPayload('mainnet')
    const existing = await payload.find({ collection: 'users', where: { email: { equals: EMAIL } } })
    if (existing.docs.length === 0) await payload.create({ collection: 'users', data: { email: EMAIL, password: PASSWORD, name: 'Eda Editor' } })
    profileDir = mkdtempSync(path.join(tmpdir(), 'blog-chromium-'))
    browser = await chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1400, height: 1000 },
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    })
    await browser.exposeBinding('reportCspViolation', (_source, text: string) => void violations.push(text))
    await browser.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        const report = (window as unknown as { reportCspViolation: (text: string) => void }).reportCspViolation
        void report(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} in ${e.sourceFile || e.documentURI}:${e.lineNumber} ${e.sample}`)
      })
    })
    page = browser.pages()[0] ?? (await browser.newPage())
    page.setDefaultTimeout(20_000)
    page.on('console', (msg) => {
      if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) violations.push(`console: ${msg.text()}`)
    })
    page.on('response', (res) => {
      if (res.request().resourceType() === 'document') documentPolicies.set(res.url(), res.headers()['content-security-policy'] ?? null)
    })
  })

  afterAll(async () => {
    await browser?.close()
    if (payload) await closeBlogPayload(payload)
    if (profileDir) rmSync(profileDir, { recursive: true, force: true })
  })

  it('logs in', async () => {
    await page.goto(`${blogUrl}/admin/`)
    await page.locator('#field-email').fill(EMAIL)
    await page.locator('#field-password').fill(PASSWORD)
    await shot('01-login')
    await page.locator('button[type="submit"]').click()
    await page.waitForURL(/\/blog\/admin\/?$/)
    await expect.poll(() => page.getByText('Blog posts').first().isVisible()).toBe(true)
    await shot('02-dashboard')
  }, 60_000)

  it('refuses to publish an incomplete post with the editorial errors', async () => {
    await page.goto(`${blogUrl}/admin/collections/blog_posts/create/`)
    await page.locator('#field-title').fill(TITLE)
    await page.locator('#field-slug').fill(SLUG)
    await page.locator('#action-save').click()
    const toast = page.getByText(/fields? (is|are) invalid/i).first()
    await toast.waitFor({ state: 'visible', timeout: 15_000 })
    await shot('03-publish-refused')
    expect(await toast.textContent()).toMatch(/excerpt|SEO description|author/i)
    const drafts = await payload.find({ collection: 'blog_posts', where: { slug: { equals: SLUG } } })
    expect(drafts.docs.every((d) => d._status !== 'published')).toBe(true)
  }, 60_000)

  it('completes the contract and publishes', async () => {
    await page.locator('#field-excerpt').fill('How the daily streak counts your play, what each day pays in XP and when a missed day resets it.')
    const editor = page.locator('[data-lexical-editor="true"]').first()
    await editor.click()
    for (const para of editorParagraphs(100)) {
      await page.keyboard.insertText(para)
      await page.keyboard.press('Enter')
    }
    await page.locator('#field-author').fill('Eda Editor')
    await page.getByRole('tab', { name: 'Editorial contract' }).or(page.getByText('Editorial contract', { exact: true })).first().click()
    await page.locator('#field-seoDescription').fill('What the daily streak pays in XP on Platform, how days are counted in UTC and what resets a streak.')
    await page.locator('#field-searchIntent').fill('how do daily streak rewards work')
    await page.locator('#field-primaryAudience').click()
    await page.getByText('Player', { exact: true }).first().click()
    await page.locator('#field-platformAngle').fill('Streaks are counted from on-chain bet results by our indexer.')
    await page.getByRole('button', { name: /Add Link/i }).click()
    await page.locator('#field-internalLinks__0__url').fill('/bonus')
    await page.locator('#field-internalLinks__0__label').fill('Bonus page')
    await page.getByRole('button', { name: /Add Claim/i }).click()
    await page.locator('#field-claimLedger__0__claim').fill('A streak day is counted once per UTC day.')
    await page.locator('#field-claimLedger__0__source').fill('docs/streaks.md')
    await page.locator('#field-claimLedger__0__kind').click()
    await page.getByText('Mechanics', { exact: true }).first().click()
    await page.locator('#field-claimLedger__0__checkedAt input').click()
    await page.locator('.react-datepicker__day--today').first().click()
    await shot('04-contract-filled')
    await page.locator('#action-save').click()
    // Until the post is stored, the admin's toast (if any) is what the poll reports, so a refused save fails with its reason.
    const statusOrToast = async () =>
      (await payload.find({ collection: 'blog_posts', where: { slug: { equals: SLUG } } })).docs[0]?._status ??
      (await page.locator('.payload-toast-container').first().innerText().catch(() => 'no toast'))
    await expect.poll(statusOrToast, { timeout: 30_000 }).toBe('published')
    await shot('05-published')
  }, 120_000)

  it('shows the post on the index, its page, both feeds and the sitemap', async () => {
    await page.goto(`${blogUrl}/`)
    await expect.poll(() => page.locator(`a[href="/blog/posts/${SLUG}/"]`).count()).toBeGreaterThan(0)
    await shot('06-index')
    await page.goto(`${blogUrl}/posts/${SLUG}/`)
    expect(await page.locator('h1').textContent()).toBe(TITLE)
    expect(await page.locator('h1').count()).toBe(1)
    await shot('07-post')
    const rss = await (await fetch(`${blogUrl}/rss.xml`)).text()
    const atom = await (await fetch(`${blogUrl}/atom.xml`)).text()
    const sitemap = await (await fetch(`${blogUrl}/sitemap.xml`)).text()
    const url = `${blogUrl}/posts/${SLUG}/`
    expect(rss).toContain(`<link>${url}</link>`)
    expect(atom).toContain(`href="${url}"`)
    expect(sitemap).toContain(`<loc>${url}</loc>`)
  }, 60_000)

  it('ran the admin and the public pages under their policies with no CSP violation', async () => {
    const admin = [...documentPolicies].filter(([url]) => new URL(url).pathname.startsWith('/blog/admin'))
    const pub = [...documentPolicies].filter(([url]) => !new URL(url).pathname.startsWith('/blog/admin'))
    expect(admin.length).toBeGreaterThan(0)
    expect(pub.length).toBeGreaterThan(0)
    for (const [url, csp] of [...admin, ...pub]) {
      expect(csp, url).toMatch(/default-src 'self'/)
      expect(csp, url).toMatch(/frame-ancestors 'none'/)
      expect(csp, url).not.toMatch(/unsafe-eval/)
    }
    for (const [url, csp] of admin) expect(csp, url).toMatch(/worker-src 'self' blob:/)
    expect(violations).toEqual([])
  })

  it('reports a violation when a page breaks the policy (the recorder works)', async () => {
    await page.goto(`${blogUrl}/`)
    await page.evaluate(() => {
      const script = document.createElement('script')
      script.src = 'https://cdn.example.test/tracker.js'
      document.head.append(script)
    })
    // Both channels see it: the securitypolicyviolation event and Chromium's console report.
    await expect.poll(() => violations.join('\n')).toMatch(/script-src(-elem)? blocked https:\/\/cdn\.example\.test\/tracker\.js/)
    await expect.poll(() => violations.join('\n')).toMatch(/console: .*cdn\.example\.test\/tracker\.js.*Content Security Policy/)
  })
})
