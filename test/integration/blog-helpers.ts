/** Shared helpers of the blog tests: Payload in the test process, fetching and parsing pages. */
import { execFileSync } from 'node:child_process'
import { JSDOM } from 'jsdom'
import type { Payload } from 'payload'
import { expect, inject } from 'vitest'

/** Payload on the suite's SQLite file (the servers use the same file). */
export async function openPayload(network: 'mainnet' | 'testnet' = 'mainnet'): Promise<Payload> {
  const server = network === 'mainnet' ? inject('blogMainnetUrl') : inject('blogTestnetUrl')
  process.env.DATA_DIR = inject('blogDataDir')
  process.env.PAYLOAD_SECRET = inject('blogPayloadSecret')
  process.env.NETWORK = network
  process.env.APP_URL = inject('blogAppUrl')
  process.env.BLOG_URL = `${server}/blog`
  process.env.BLOG_REVALIDATION_SECRET = inject('blogRevalidationSecret')
  delete process.env.BLOG_DATABASE_URL
  delete process.env.BLOG_PUBLISH_CI_TOKEN
  const [{ getPayload }, { default: config }] = await Promise.all([import('payload'), import('../../cms/payload.config')])
  return getPayload({ config })
}

export async function fetchDom(url: string): Promise<{ res: Response; html: string; doc: Document }> {
  const res = await fetch(url, { redirect: 'manual' })
  const html = await res.text()
  return { res, html, doc: new JSDOM(html).window.document }
}

export function meta(doc: Document, selector: string): string | null {
  return doc.querySelector(selector)?.getAttribute('content') ?? null
}

export function jsonLdTypes(doc: Document): string[] {
  const types: string[] = []
  for (const s of doc.querySelectorAll('script[type="application/ld+json"]')) {
    const data = JSON.parse(s.textContent ?? '{}') as { '@type'?: string; '@graph'?: { '@type': string }[] }
    if (data['@type']) types.push(data['@type'])
    for (const node of data['@graph'] ?? []) types.push(node['@type'])
  }
  return types
}

const SOCIAL_HOSTS = ['discord.gg', 't.me', 'x.com']

/** The rendered-page rules every blog page must pass. */
export function expectPageRules(doc: Document, html: string, opts: { canonical: string; indexable: boolean }): void {
  const title = doc.querySelector('title')?.textContent ?? ''
  expect(title.length).toBeGreaterThan(0)
  expect(title.length).toBeLessThan(60)
  const description = meta(doc, 'meta[name="description"]') ?? ''
  expect(description.length).toBeGreaterThan(0)
  expect(description.length).toBeLessThan(160)
  expect(doc.querySelectorAll('h1')).toHaveLength(1)
  expect(doc.querySelector('link[rel="alternate"][type="application/rss+xml"]')?.getAttribute('href')).toMatch(/\/blog\/rss\.xml$/)
  expect(doc.querySelector('link[rel="alternate"][type="application/atom+xml"]')?.getAttribute('href')).toMatch(/\/blog\/atom\.xml$/)
  expect(meta(doc, 'meta[property="og:image"]')).toMatch(/^https?:\/\/.+\.(png|jpe?g|webp)/)
  expect(meta(doc, 'meta[name="twitter:card"]')).toBe('summary_large_image')
  expect(meta(doc, 'meta[name="twitter:image"]')).toMatch(/^https?:\/\//)
  const canonical = doc.querySelector('link[rel="canonical"]')?.getAttribute('href')
  expect(canonical).toBe(opts.canonical)
  expect(canonical?.endsWith('/')).toBe(true)
  const robots = meta(doc, 'meta[name="robots"]')
  if (opts.indexable) expect(robots ?? 'index, follow').not.toMatch(/noindex/)
  else expect(robots).toBe('noindex, nofollow')
  expect(html).not.toContain('/blog/blog/')
  for (const el of doc.querySelectorAll('script[src], link[rel="stylesheet"], link[rel="preload"]')) {
    const src = el.getAttribute('src') ?? el.getAttribute('href') ?? ''
    if (!/^https?:/.test(src)) expect(src.startsWith('/blog/'), src).toBe(true)
  }
  const social = [...doc.querySelectorAll('a[href]')].filter((a) => SOCIAL_HOSTS.some((h) => new URL(a.getAttribute('href') ?? '', 'http://x/').hostname === h))
  expect(social.length).toBeGreaterThanOrEqual(3)
  for (const a of social) expect(a.getAttribute('rel')).toBe('nofollow noopener noreferrer')
}

export function hasCommand(cmd: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

export function hasPythonModule(mod: string): boolean {
  try {
    execFileSync('python3', ['-c', `import ${mod}`], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** Published posts in a feed according to Debian's python3-feedparser. */
export function feedparserEntries(xml: string): { version: string; bozo: number; links: string[] } {
  const out = execFileSync(
    'python3',
    ['-c', 'import sys,json,feedparser; d=feedparser.parse(sys.stdin.read()); print(json.dumps({"version": d.version, "bozo": int(d.bozo), "links": [e.get("link") for e in d.entries]}))'],
    { input: xml },
  )
  return JSON.parse(out.toString()) as { version: string; bozo: number; links: string[] }
}

export function xmllintSitemap(file: string, xsd: string): void {
  execFileSync('xmllint', ['--noout', '--schema', xsd, file], { stdio: 'pipe' })
}
