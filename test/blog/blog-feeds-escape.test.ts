/**
 * Feeds carry what partners send as text: a hostile title, excerpt, author and tags published
 * through the real webhook arrive in RSS and Atom exactly as sent, as text, with no element a
 * feed reader would render (checked with python3-feedparser), and both feeds stay well-formed XML
 * (checked with xmllint).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { articleDelivery } from '../fixtures/blog-articles'
import { startApi, type TestApi } from '../helpers/api'
import { feedparserDetails, xmllintWellFormed } from './blog-helpers'

const SECRET = inject('blogWebhookSecret')
const SLUG = 'hostile-partner-feed-guide'
const HOSTILE = {
  title: '<script>alert("t")</script> & ]]> Guide</title>',
  excerpt: 'Read <img src=x onerror=alert(1)> this ]]> & "that" <b>now</b>, it&amp;s fine.',
  author: '<i>Eve</i> & "Mallory" ]]> <script>x</script>',
  tags: ['<script>alert(2)</script>', 'a"b\'c', 'x & y', ']]>'],
}
// Control characters cannot be carried by XML: they are removed at the webhook, the rest arrives as sent.
const CONTROL = '\u0001\u0008\u001b'

let api: TestApi
let rss: string
let atom: string
let postUrl: string

beforeAll(async () => {
  const blog = `${inject('blogMainnetUrl')}/blog`
  postUrl = `${blog}/posts/${SLUG}/`
  // The API forwards the delivery to the mainnet blog server, which stores it.
  api = await startApi({ env: { WEBHOOK_SECRET: SECRET, BLOG_REVALIDATION_SECRET: inject('blogRevalidationSecret'), NETWORK: 'mainnet', BLOG_CMS_URL: inject('blogMainnetUrl') } })
  const base = articleDelivery('hostile-feed-1', SLUG, 81)
  const body = {
    ...base,
    article: { ...(base.article as object), title: `${HOSTILE.title}${CONTROL}`, excerpt: `${CONTROL}${HOSTILE.excerpt}`, author: HOSTILE.author, tags: HOSTILE.tags },
  }
  const res = await fetch(`${api.url}/api/blog/webhooks/contentpartner`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${SECRET}` },
    body: JSON.stringify(body),
  })
  expect(res.status, await res.clone().text()).toBe(201)
  expect((await res.json()).refresh).toEqual([expect.objectContaining({ kind: 'revalidate', ok: true })])
  rss = await (await fetch(`${blog}/rss.xml`)).text()
  atom = await (await fetch(`${blog}/atom.xml`)).text()
})

afterAll(async () => {
  await api?.close()
})

describe.each([
  ['RSS 2.0', 'rss20', () => rss],
  ['Atom 1.0', 'atom10', () => atom],
] as const)('%s with a hostile partner article', (_name, version, xml) => {
  it('is well-formed XML (xmllint)', async () => {
    await expect(xmllintWellFormed(xml())).resolves.toBeUndefined()
  })

  it('parses cleanly and carries title, excerpt, author and tags as literal text, with no element injected', async () => {
    const feed = await feedparserDetails(xml())
    expect(feed).toMatchObject({ version, bozo: 0 })
    const entry = feed.entries.find((e) => e.link === postUrl)
    expect(entry, `no entry for ${postUrl}`).toBeDefined()
    expect(entry!.title).toMatchObject({ text: HOSTILE.title, elements: [] })
    expect(entry!.summary).toMatchObject({ text: HOSTILE.excerpt, elements: [] })
    expect(entry!.author).toContain(HOSTILE.author)
    expect(entry!.tags).toEqual(HOSTILE.tags)
  })

  it('has no script element anywhere but inside escaped text', () => {
    expect(xml()).not.toMatch(/<script/i)
    expect(xml()).not.toContain('<![CDATA[')
  })
})
