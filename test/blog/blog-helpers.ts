/** Shared helpers of the blog tests: Payload in the test process, fetching and parsing pages. */
import { execFileSync, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { JSDOM } from 'jsdom'
import type { Payload } from 'payload'
import { expect, inject } from 'vitest'

/**
 * Payload on the suite's SQLite file (the servers use the same file), with this process's CMS
 * settings pointed at the server's site and the suite's webhook secret (for cms/platform-server.ts).
 */
export async function openPayload(network: 'mainnet' | 'testnet' = 'mainnet'): Promise<Payload> {
  const server = network === 'mainnet' ? inject('blogMainnetUrl') : inject('blogTestnetUrl')
  process.env.DATA_DIR = inject('blogDataDir')
  process.env.PAYLOAD_SECRET = inject('blogPayloadSecret')
  process.env.NETWORK = network
  process.env.APP_URL = inject('blogAppUrl')
  process.env.BLOG_URL = `${server}/blog`
  process.env.BLOG_REVALIDATION_SECRET = inject('blogRevalidationSecret')
  process.env.WEBHOOK_SECRET = inject('blogWebhookSecret')
  delete process.env.BLOG_DATABASE_URL
  delete process.env.BLOG_PUBLISH_CI_TOKEN
  const [{ getPayload }, { default: config }] = await Promise.all([import('payload'), import('../../cms/payload.config')])
  return getPayload({ config })
}

/** The environment of a Next server of the suite's mainnet site, on the suite's data: what each extra server starts from. */
export function mainnetServerEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    NETWORK: 'mainnet',
    DATA_DIR: inject('blogDataDir'),
    PAYLOAD_SECRET: inject('blogPayloadSecret'),
    APP_URL: inject('blogAppUrl'),
  }
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

/**
 * A Python that has `mod`: `python3` on PATH, else Debian's `/usr/bin/python3` (where
 * `apt-get install python3-feedparser` puts it even when a pyenv shim comes first on PATH).
 */
const pythons = new Map<string, string | undefined>()
export function pythonWith(mod: string): string | undefined {
  if (pythons.has(mod)) return pythons.get(mod)
  pythons.set(mod, findPython(mod))
  return pythons.get(mod)
}

function findPython(mod: string): string | undefined {
  for (const py of ['python3', '/usr/bin/python3']) {
    try {
      execFileSync(py, ['-c', `import ${mod}`], { stdio: 'ignore' })
      return py
    } catch {
      // try the next one
    }
  }
  return undefined
}

export function hasPythonModule(mod: string): boolean {
  return pythonWith(mod) !== undefined
}

/**
 * Runs a tool with `input` on stdin, without blocking the event loop: a blocked loop cannot
 * notice that a server closed an idle keep-alive socket, and the next fetch would reuse it.
 */
export function runWithInput(cmd: string, args: string[], input: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (c: Buffer) => out.push(c))
    child.stderr.on('data', (c: Buffer) => err.push(c))
    child.on('error', reject)
    child.on('close', (code) =>
      code === 0 ? resolve(Buffer.concat(out).toString()) : reject(new Error(`${cmd} exited ${code}: ${Buffer.concat(err).toString()}`)),
    )
    child.stdin.end(input)
  })
}

async function feedparser(script: string, xml: string): Promise<unknown> {
  const py = pythonWith('feedparser')
  if (!py) throw new Error('python3-feedparser is not installed (.ci/install-system-deps.sh installs it)')
  return JSON.parse(await runWithInput(py, ['-c', script], xml))
}

/** Published posts in a feed according to Debian's python3-feedparser. */
export async function feedparserEntries(xml: string): Promise<{ version: string; bozo: number; links: string[] }> {
  return feedparser(
    'import sys,json,feedparser; d=feedparser.parse(sys.stdin.read()); print(json.dumps({"version": d.version, "bozo": int(d.bozo), "links": [e.get("link") for e in d.entries]}))',
    xml,
  ) as Promise<{ version: string; bozo: number; links: string[] }>
}

/** A feed field as a reader shows it: its text, and the HTML elements it would render (if any). */
export interface ReaderText {
  type: string
  text: string
  elements: string[]
}

export interface ParsedEntry {
  link: string
  title: ReaderText
  summary: ReaderText
  author: string
  tags: string[]
}

// feedparser gives text/plain values as they are and text/html values as (sanitized) HTML: the
// HTML is parsed again here so a test sees both the text a reader shows and any element it would render.
const ENTRY_DETAILS = `
import sys, json, feedparser
from html.parser import HTMLParser
class Reader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True); self.text = ''; self.elements = []
    def handle_starttag(self, tag, attrs): self.elements.append(tag)
    def handle_startendtag(self, tag, attrs): self.elements.append(tag)
    def handle_data(self, data): self.text += data
def shown(detail, value):
    kind = (detail or {}).get('type', 'text/plain')
    if kind in ('text/html', 'application/xhtml+xml'):
        r = Reader(); r.feed(value or ''); r.close()
        return {'type': kind, 'text': r.text, 'elements': r.elements}
    return {'type': kind, 'text': value or '', 'elements': []}
d = feedparser.parse(sys.stdin.read())
print(json.dumps({'version': d.version, 'bozo': int(d.bozo), 'bozoMessage': str(d.get('bozo_exception', '')), 'entries': [{
    'link': e.get('link'),
    'title': shown(e.get('title_detail'), e.get('title')),
    'summary': shown(e.get('summary_detail'), e.get('summary')),
    'author': e.get('author', ''),
    'tags': [t.get('term') for t in e.get('tags', [])],
} for e in d.entries]}))
`

/** Every entry of a feed as python3-feedparser reads it, with the reader-visible text of title and summary. */
export async function feedparserDetails(xml: string): Promise<{ version: string; bozo: number; bozoMessage: string; entries: ParsedEntry[] }> {
  return (await feedparser(ENTRY_DETAILS, xml)) as { version: string; bozo: number; bozoMessage: string; entries: ParsedEntry[] }
}

/** Well-formed XML according to libxml2's xmllint (rejects with its message otherwise). */
export async function xmllintWellFormed(xml: string): Promise<void> {
  await runWithInput('xmllint', ['--noout', '-'], xml)
}

export function xmllintSitemap(file: string, xsd: string): void {
  execFileSync('xmllint', ['--noout', '--schema', xsd, file], { stdio: 'pipe' })
}

/** The README's sample delivery (docs/sample-article.json), sent as its curl sends it; expects 201 and a refresh of the blog. */
export async function publishSampleArticle(api: string, secret: string): Promise<{ slug: string; title: string }> {
  const raw = readFileSync(new URL('../../docs/sample-article.json', import.meta.url))
  const res = await fetch(`${api}/api/blog/webhooks/contentpartner`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: raw,
  })
  const body = await res.json()
  expect(res.status, JSON.stringify(body)).toBe(201)
  // The revalidation secret reached the blog process too: the refresh through /blog succeeded.
  expect(body.refresh).toEqual([expect.objectContaining({ kind: 'revalidate', ok: true, status: 200 })])
  const { slug, title } = (JSON.parse(raw.toString('utf8')) as { article: { slug: string; title: string } }).article
  return { slug, title }
}
