import { describe, expect, it } from 'vitest'
import { blocking, checkEditorial, formatIssues, introOf, LIMITS, warnings, type EditorialInput } from '../../cms/editorial'
import { slugify } from '../../cms/collections/BlogPosts/slugify'
import { rewriteLinks, socialHosts } from '../../cms/render/links'
import { demoteH1 } from '../../cms/render/html'
import { parseArticleDelivery, seoFrom } from '../../cms/webhook/parse'
import { articleDelivery, sentences, WRONG_TYPED_FIELDS } from '../fixtures/blog-articles'

const NOW = new Date('2026-06-01T12:00:00Z')
const body = (n = 420, seed = 0): string => {
  const s = sentences(Math.ceil(n / 9), seed)
  const paras: string[] = [`Opening ${seed}: what this guide covers for players this season.`]
  for (let i = 0; i < s.length; i += 5) paras.push(s.slice(i, i + 5).join(' '))
  return paras.join('\n\n')
}

function valid(over: Partial<EditorialInput> = {}): EditorialInput {
  return {
    slug: 'daily-streak-rewards',
    title: 'Daily streak rewards explained',
    excerpt: 'How the daily streak counts your play and what it pays.',
    seoDescription: 'What the daily streak pays in XP, how days are counted in UTC and what resets a streak.',
    author: 'Eda Editor',
    tags: ['quests'],
    internalLinks: [{ url: '/bonus', label: 'Bonus' }],
    claimLedger: [{ claim: 'One streak day per UTC day', source: 'docs/streaks.md', kind: 'mechanics', checkedAt: '2026-05-20' }],
    searchIntent: 'how do daily streak rewards work',
    primaryAudience: 'player',
    platformAngle: 'Streaks are counted from on-chain bet results.',
    bodyText: body(),
    ...over,
  }
}

const codes = (input: EditorialInput, ctx = {}) => checkEditorial(input, { now: NOW, ...ctx }).map((i) => `${i.severity}:${i.code}`)

describe('editorial contract checks', () => {
  it('a complete post has no blocking issue', () => {
    expect(blocking(checkEditorial(valid(), { now: NOW }))).toEqual([])
  })

  it.each([
    ['Daily_Streak', 'error:slug_format'],
    ['daily--streak', 'error:slug_format'],
    ['UPPER-case', 'error:slug_format'],
    ['one-two-three-four-five-six-seven-eight-nine', 'error:slug_too_many_words'],
    ['one-two-three-four-five-six-seven', 'warning:slug_long'],
    ['2026-11-22', 'error:slug_not_readable'],
    ['', 'error:slug_missing'],
  ])('slug %j → %s', (slug, code) => {
    expect(codes(valid({ slug }))).toContain(code)
  })

  it('titles must be 10-59 characters', () => {
    expect(codes(valid({ title: 'Short' }))).toContain('error:title_too_short')
    expect(codes(valid({ title: 'x'.repeat(60) }))).toContain('error:title_too_long')
    expect(codes(valid({ title: 'x'.repeat(59) }))).not.toContain('error:title_too_long')
    expect(codes(valid({ title: 'SHOUTING TITLE HERE' }))).toContain('warning:title_all_caps')
  })

  it('SEO description must be present and under 160 characters', () => {
    expect(codes(valid({ seoDescription: '' }))).toContain('error:seo_description_missing')
    expect(codes(valid({ seoDescription: 'y'.repeat(160) }))).toContain('error:seo_description_too_long')
    expect(codes(valid({ seoDescription: 'y'.repeat(159) }))).not.toContain('error:seo_description_too_long')
    expect(codes(valid({ seoDescription: 'Too short.' }))).toContain('warning:seo_description_short')
  })

  it('requires excerpt, author, internal links, claim ledger, intent, audience and angle', () => {
    const c = codes(valid({ excerpt: ' ', author: null, internalLinks: [], claimLedger: [], searchIntent: '', primaryAudience: null, platformAngle: '' }))
    expect(c).toEqual(
      expect.arrayContaining([
        'error:excerpt_missing',
        'error:author_missing',
        'error:internal_links_missing',
        'error:claim_ledger_missing',
        'error:search_intent_missing',
        'error:audience_missing',
        'error:platform_angle_missing',
      ]),
    )
    expect(codes(valid({ primaryAudience: 'whale' }))).toContain('error:audience_invalid')
    expect(codes(valid({ internalLinks: [{ url: 'javascript:alert(1)', label: 'x' }] }))).toContain('error:internal_link_invalid')
    expect(codes(valid({ tags: [] }))).toContain('warning:tags_missing')
  })

  it('checks each claim: complete, known kind, dated, not in the future, stale is a warning', () => {
    const claim = valid().claimLedger![0]!
    expect(codes(valid({ claimLedger: [{ ...claim, source: '' }] }))).toContain('error:claim_incomplete')
    expect(codes(valid({ claimLedger: [{ ...claim, kind: 'rumour' }] }))).toContain('error:claim_kind_invalid')
    expect(codes(valid({ claimLedger: [{ ...claim, checkedAt: null }] }))).toContain('error:claim_unchecked')
    expect(codes(valid({ claimLedger: [{ ...claim, checkedAt: '2026-07-01' }] }))).toContain('error:claim_checked_in_future')
    expect(codes(valid({ claimLedger: [{ ...claim, checkedAt: '2025-01-01' }] }))).toContain('warning:claim_stale')
  })

  it('reads a check date as a calendar day: the admin stores noon UTC of the picked day, so "today" is never in the future', () => {
    const claim = valid().claimLedger![0]!
    const at = (now: string, checkedAt: string) => codes(valid({ claimLedger: [{ ...claim, checkedAt }] }), { now: new Date(now) })
    // Just after midnight UTC, today's noon is 11.5 hours ahead and still today.
    expect(at('2026-06-01T00:30:00Z', '2026-06-01T12:00:00Z')).not.toContain('error:claim_checked_in_future')
    // An editor in UTC+14 is already on June 2 at 10:00 UTC on June 1.
    expect(at('2026-06-01T10:00:00Z', '2026-06-02T12:00:00Z')).not.toContain('error:claim_checked_in_future')
    // A day that has begun nowhere yet is in the future.
    expect(at('2026-06-01T09:59:00Z', '2026-06-02T12:00:00Z')).toContain('error:claim_checked_in_future')
    expect(at('2026-06-01T23:00:00Z', '2026-06-03T00:00:00Z')).toContain('error:claim_checked_in_future')
  })

  it(`needs at least ${LIMITS.minWords} words of visible content`, () => {
    expect(codes(valid({ bodyText: body(150) }))).toContain('error:content_too_short')
    expect(codes(valid({ bodyText: body(350) }))).toContain('warning:content_short')
    expect(codes(valid({ bodyText: body(700) }))).not.toContain('warning:content_short')
  })

  it('detects an intro repeated from another published post, and stock openers', () => {
    const text = body(420, 3)
    expect(codes(valid({ bodyText: text }), { otherIntros: [introOf(text)] })).toContain('error:intro_repeated')
    expect(codes(valid({ bodyText: text }), { otherIntros: [introOf(body(420, 4))] })).not.toContain('error:intro_repeated')
    const stock = `In today's fast-paced world, players want rewards.\n\n${body()}`
    expect(codes(valid({ bodyText: stock }))).toContain('warning:intro_boilerplate')
  })

  it('detects word-count filler: repeated sentences, low diversity, filler phrases', () => {
    const repeated = Array.from({ length: 40 }, () => 'The streak pays more on day seven than on day one.').join(' ')
    expect(codes(valid({ bodyText: `${body(320)}\n\n${repeated}` }))).toContain('error:filler_repeated_sentences')
    const padded = Array.from({ length: 400 }, (_, i) => ['win', 'big', 'now', 'play'][i % 4]).join(' ')
    expect(codes(valid({ bodyText: padded }))).toContain('error:filler_low_diversity')
    const fluff = `${body()}\n\nNeedless to say, it is important to note that at the end of the day you play. In conclusion, play.`
    expect(codes(valid({ bodyText: fluff }))).toContain('warning:filler_phrases')
  })

  it('refuses a future publish date (fake freshness)', () => {
    expect(codes(valid({ publishedAt: '2026-06-02T00:00:00Z' }))).toContain('error:published_at_future')
    expect(codes(valid({ publishedAt: '2026-05-31T00:00:00Z' }))).not.toContain('error:published_at_future')
  })

  it('partner deliveries get contract gaps as warnings, not form errors', () => {
    const issues = checkEditorial(valid({ internalLinks: [], claimLedger: [], searchIntent: '', slug: 'Bad Slug' }), { now: NOW, source: 'contentpartner' })
    expect(blocking(issues).map((i) => i.code)).toEqual(['slug_format'])
    expect(warnings(issues).map((i) => i.code)).toEqual(expect.arrayContaining(['internal_links_missing', 'claim_ledger_missing', 'search_intent_missing']))
    expect(formatIssues(issues)).toMatch(/^\[error\] slug: /m)
  })
})

describe('slugs, links and partner payloads', () => {
  it('slugify makes short readable slugs', () => {
    expect(slugify('The Complete Guide to Daily Streak Rewards in 2026!')).toBe('complete-guide-daily-streak-rewards-2026')
    expect(slugify('Ünïcödé Çafé Guide')).toBe('unicode-cafe-guide')
  })

  it('rewrites rel on provider links and collapses /blog/blog/', () => {
    const hosts = socialHosts({ chat_platform: 'https://discord.gg/x', messaging_platform: 'https://t.me/x', social_network: 'https://social.example/x' })
    const out = rewriteLinks(
      '<a href="https://discord.gg/a" rel="noopener">d</a><a href="https://social.example/p">s</a><a href="https://docs.example.com">o</a><a href="/blog/blog/posts/x/">i</a>',
      hosts,
    )
    expect(out).toBe(
      '<a href="https://discord.gg/a" rel="nofollow noopener noreferrer">d</a><a href="https://social.example/p" rel="nofollow noopener noreferrer">s</a><a href="https://docs.example.com" rel="noopener noreferrer">o</a><a href="/blog/posts/x/">i</a>',
    )
    expect(demoteH1('<h1 class="a">T</h1>')).toBe('<h2 class="a">T</h2>')
  })

  it('SEO descriptions from partner excerpts stay under 160 characters', () => {
    const long = 'word '.repeat(80)
    expect(seoFrom(long).length).toBeLessThan(160)
    expect(seoFrom('Short one.')).toBe('Short one.')
  })

  it('parses a partner article and reports every invalid field', () => {
    const ok = parseArticleDelivery({ delivery_id: 'd1', article: { title: 'A partner title', description: 'Desc', html: '<p>x</p>', author: { name: 'Desk' }, tags: ['a', ' '], seo_description: null } })
    expect(ok).toMatchObject({ deliveryId: 'd1', slug: 'partner-title', excerpt: 'Desc', author: 'Desk', tags: ['a'] })
    const bad = parseArticleDelivery({ delivery_id: 'd2', article: { slug: 'Bad!', published_at: 'soon', image_url: 'ftp://x' } })
    expect(bad).toMatchObject({ ok: false, code: 'INVALID_ARTICLE', status: 400 })
    expect('details' in bad && bad.details?.map((d) => d.field)).toEqual(
      expect.arrayContaining(['article.title', 'article.html', 'article.excerpt', 'article.author', 'article.slug', 'article.published_at', 'article.image_url']),
    )
    expect(parseArticleDelivery({ delivery_id: 'has space', article: {} })).toMatchObject({ code: 'MISSING_DELIVERY_ID', status: 400 })
  })

  it.each(WRONG_TYPED_FIELDS)('refuses $field of another type, naming it, instead of coercing or dropping it', ({ field, article }) => {
    const base = articleDelivery('typed', 'typed-article', 3)
    const out = parseArticleDelivery({ ...base, article: { ...(base.article as object), ...article } })
    expect(out).toEqual({ ok: false, status: 400, code: 'INVALID_ARTICLE', message: expect.any(String), details: [{ field, message: expect.stringMatching(/^must be /) }] })
  })

  it('names a top-level field of another type in the refusal', () => {
    expect(parseArticleDelivery({ delivery_id: 5, article: {} })).toMatchObject({ code: 'MISSING_DELIVERY_ID', details: [{ field: 'delivery_id' }] })
    expect(parseArticleDelivery({ delivery_id: 'd4', article: 'text' })).toMatchObject({ code: 'INVALID_ARTICLE', details: [{ field: 'article', message: 'must be an object' }] })
  })

  it('removes characters XML cannot carry from every partner text field, keeping the rest as sent', () => {
    const a = parseArticleDelivery({
      delivery_id: 'd3',
      article: { title: 'A <b>bold</b>\u0001 partner\u001b title', excerpt: '\u0000Desc & more\uFFFE', html: '<p>x\u0008y</p>', author: 'Desk\uD800', tags: ['t\u0007ag'] },
    })
    expect(a).toMatchObject({ title: 'A <b>bold</b> partner title', excerpt: 'Desc & more', html: '<p>xy</p>', author: 'Desk', tags: ['tag'] })
  })
})
