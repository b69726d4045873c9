/**
 * The editorial gate through the partner webhook, over the API's real HTTP interface (the API
 * forwards to the suite's mainnet blog process): every blocking rule a partner article can break
 * answers 422 EDITORIAL_REJECTED naming the rule and saying the article was not published. A rule
 * about the article itself stores nothing (the partner corrects and resends); a repeated intro of
 * a published post (which the partner cannot see) keeps the article as a draft an editor can fix
 * and publish, the gate's reasons on it.
 */
import type { Payload } from 'payload'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { articleDelivery, articleHtml } from '../fixtures/blog-articles'
import { startApi, type TestApi } from '../helpers/api'
import { openPayload } from './blog-helpers'

const SECRET = inject('blogWebhookSecret')
let api: TestApi
let payload: Payload

beforeAll(async () => {
  payload = await openPayload('mainnet')
  api = await startApi({ env: { WEBHOOK_SECRET: SECRET, BLOG_REVALIDATION_SECRET: inject('blogRevalidationSecret'), NETWORK: 'mainnet', BLOG_CMS_URL: inject('blogMainnetUrl') } })
})

afterAll(async () => {
  await api?.close()
  await payload?.destroy()
})

const deliver = (body: unknown) =>
  fetch(`${api.url}/api/blog/webhooks/contentpartner`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${SECRET}` }, body: JSON.stringify(body) })

/** A valid delivery (its own seed: its own intro) with article fields replaced. */
const delivery = (id: string, seed: number, article: Record<string, unknown>) => {
  const base = articleDelivery(`gate-${id}`, `gate-${id}-guide`, seed)
  return { ...base, article: { ...(base.article as object), ...article } }
}

const claim = (over: Record<string, unknown>) => [{ claim: 'Quests reset weekly', source: '/docs/quests', kind: 'mechanics', checked_at: '2026-01-10', ...over }]
/** Distinct sentences from two words: no sentence repeats, yet the text is padding. */
const lowDiversity = Array.from({ length: 40 }, (_, i) => `${Array.from({ length: 10 }, (_, b) => ((i >> b) & 1 ? 'quest' : 'reward')).join(' ')}.`).join(' ')

// Each blocking rule a partner article can reach (slug, title and content rules; the contract
// gaps a partner cannot know are warnings for partner articles, cms/editorial/index.ts).
const RULES: ReadonlyArray<[rule: string, field: string, article: Record<string, unknown>]> = [
  ['slug_too_many_words', 'slug', { slug: 'one-two-three-four-five-six-seven-eight-nine' }],
  ['slug_not_readable', 'slug', { slug: '2026-01-15' }],
  ['title_too_short', 'title', { title: 'Quests' }],
  ['title_too_long', 'title', { title: 'A quest guide whose title runs well past what a search result shows' }],
  ['internal_link_invalid', 'internalLinks', { internal_links: [{ url: 'ftp://files.example.com/quests', label: 'Files' }] }],
  ['claim_incomplete', 'claimLedger.0', { claim_ledger: claim({ source: undefined }) }],
  ['claim_kind_invalid', 'claimLedger.0', { claim_ledger: claim({ kind: 'rumour' }) }],
  ['claim_unchecked', 'claimLedger.0', { claim_ledger: claim({ checked_at: 'last week' }) }],
  ['claim_checked_in_future', 'claimLedger.0', { claim_ledger: claim({ checked_at: '2999-01-01' }) }],
  ['audience_invalid', 'primaryAudience', { primary_audience: 'everyone' }],
  ['content_too_short', 'content', { html: '<p>Quests pay out weekly. That is all for now.</p>' }],
  ['filler_repeated_sentences', 'content', { html: `<p>${'Quests pay out every single week to players. '.repeat(60)}</p>` }],
  ['filler_low_diversity', 'content', { html: `<p>${lowDiversity}</p>` }],
  ['published_at_future', 'publishedAt', { published_at: '2999-01-01T00:00:00Z' }],
]

async function heldDraft(slug: string) {
  const found = await payload.find({ collection: 'blog_posts', where: { slug: { equals: slug } }, draft: true, limit: 1, depth: 0 })
  return found.docs[0]
}

const publishedCount = async (slug: string) => (await payload.count({ collection: 'blog_posts', where: { and: [{ slug: { equals: slug } }, { _status: { equals: 'published' } }] } })).totalDocs

describe('the editorial gate through the partner webhook', () => {
  it.each(RULES.map(([rule, field, article], i) => ({ rule, field, article, seed: 300 + i })))('$rule: 422 naming the rule, not published, nothing stored', async ({ rule, field, article, seed }) => {
    const id = rule.replace(/_/g, '-')
    const body = delivery(id, seed, article)
    const slug = (body.article as { slug: string }).slug
    const res = await deliver(body)
    const json = await res.json()
    expect(res.status, JSON.stringify(json)).toBe(422)
    expect(json.error).toMatchObject({ code: 'EDITORIAL_REJECTED', message: expect.stringContaining('not published'), details: { published: false } })
    expect(json.error.details.issues).toContainEqual({ field, rule, message: expect.any(String) })
    expect(json.error.details.draft).toBeUndefined()
    expect((await payload.find({ collection: 'blog_posts', where: { slug: { equals: slug } }, draft: true, depth: 0 })).totalDocs).toBe(0)
    expect((await payload.count({ collection: 'blog_webhook_deliveries', where: { deliveryId: { equals: `gate-${id}` } } })).totalDocs).toBe(0)
  })

  it('intro_repeated: a second article repeating a published intro is kept as a draft; an editor fixes and publishes it', async () => {
    // (without the fixture's heading: the first paragraph is the intro the rule compares)
    const opening = (id: string) => delivery(id, 340, { html: articleHtml(340).replace(/^<h1>.*<\/h1>\n/, '') })
    const first = await deliver(opening('intro-first'))
    expect(first.status).toBe(201)
    const body = opening('intro-second')
    const res = await deliver(body)
    const json = await res.json()
    expect(res.status, JSON.stringify(json)).toBe(422)
    expect(json.error).toMatchObject({
      code: 'EDITORIAL_REJECTED',
      message: expect.stringContaining('not published'),
      details: { published: false, issues: [{ field: 'content', rule: 'intro_repeated', message: expect.any(String) }], draft: { slug: 'gate-intro-second-guide', postId: expect.any(String) } },
    })
    const draft = await heldDraft('gate-intro-second-guide')
    expect(draft).toMatchObject({ id: Number(json.error.details.draft.postId), _status: 'draft', source: 'contentpartner' })
    expect(await publishedCount('gate-intro-second-guide')).toBe(0)
    expect(draft!.editorialWarnings).toContain('intro repeats the intro of another published post')

    // The same refused delivery again: the same draft, still not published.
    expect((await deliver(body)).status).toBe(422)
    expect((await payload.find({ collection: 'blog_posts', where: { slug: { equals: 'gate-intro-second-guide' } }, draft: true, depth: 0 })).totalDocs).toBe(1)

    // The editor rewrites the intro in the admin and publishes.
    const content = structuredClone(draft!.content) as { root: { children: Array<{ type: string; children?: Array<{ text?: string }> }> } }
    const intro = content.root.children.find((n) => n.children?.[0]?.text?.startsWith('Opening 340'))!
    intro.children = [{ ...intro.children![0], text: 'Our desk rewrote this opening so that readers meet a fresh angle on the weekly quest before the details.' }]
    // (and completes the editorial contract a partner cannot know: required of an editor's publish)
    const contract = {
      internalLinks: [{ url: '/quests', label: 'Quests' }],
      claimLedger: [{ claim: 'Quests reset weekly', source: '/docs/quests', kind: 'mechanics' as const, checkedAt: '2026-01-10T12:00:00.000Z' }],
      searchIntent: 'How the weekly quest pays',
      primaryAudience: 'player' as const,
      platformAngle: 'Quest rewards settle on chain.',
    }
    const published = await payload.update({ collection: 'blog_posts', id: draft!.id, data: { ...contract, content: content as never, _status: 'published' } })
    expect(published._status).toBe('published')
    expect(await publishedCount('gate-intro-second-guide')).toBe(1)
  })
})
