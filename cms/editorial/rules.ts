import { BOILERPLATE_OPENERS, FILLER_PHRASES, LIMITS, SLUG_PATTERN } from './limits'
import { introOf, jaccard, movingTypeTokenRatio, normalize, sentences, shingles, words } from './text'
import { AUDIENCES, CLAIM_KINDS, type EditorialContext, type EditorialInput, type EditorialIssue } from './types'

type Rule = (input: EditorialInput, ctx: EditorialContext) => EditorialIssue[]

const err = (code: string, field: string, message: string): EditorialIssue => ({ code, field, severity: 'error', message })
const warn = (code: string, field: string, message: string): EditorialIssue => ({ code, field, severity: 'warning', message })
const blank = (s: string | null | undefined): boolean => !s || s.trim().length === 0
const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10)

export const checkSlug: Rule = ({ slug }) => {
  if (blank(slug)) return [err('slug_missing', 'slug', 'Slug is required.')]
  const s = slug as string
  const out: EditorialIssue[] = []
  if (!SLUG_PATTERN.test(s)) out.push(err('slug_format', 'slug', 'Slug must be lowercase words (a-z, 0-9) joined by single hyphens.'))
  if (s.length > LIMITS.slugMaxChars) out.push(err('slug_too_long', 'slug', `Slug must be at most ${LIMITS.slugMaxChars} characters.`))
  const parts = s.split('-').length
  if (parts > LIMITS.slugMaxWords) out.push(err('slug_too_many_words', 'slug', `Slug must have at most ${LIMITS.slugMaxWords} words.`))
  else if (parts > LIMITS.slugWarnWords) out.push(warn('slug_long', 'slug', `A slug of ${LIMITS.slugWarnWords} words or fewer reads better.`))
  if (/^\d+$/.test(s.replace(/-/g, ''))) out.push(err('slug_not_readable', 'slug', 'Slug must contain words, not only numbers.'))
  return out
}

export const checkTitle: Rule = ({ title }) => {
  if (blank(title)) return [err('title_missing', 'title', 'Title is required.')]
  const t = (title as string).trim()
  if (t.length < LIMITS.titleMinChars) return [err('title_too_short', 'title', `Title must be at least ${LIMITS.titleMinChars} characters.`)]
  if (t.length > LIMITS.titleMaxChars) return [err('title_too_long', 'title', `Title must be under 60 characters (${t.length} now).`)]
  if (t === t.toUpperCase() && /[A-Z]/.test(t)) return [warn('title_all_caps', 'title', 'Title is all capitals; write it naturally.')]
  return []
}

export const checkSeoDescription: Rule = ({ seoDescription }) => {
  if (blank(seoDescription)) return [err('seo_description_missing', 'seoDescription', 'SEO description is required.')]
  const d = (seoDescription as string).trim()
  if (d.length > LIMITS.seoDescriptionMaxChars)
    return [err('seo_description_too_long', 'seoDescription', `SEO description must be under 160 characters (${d.length} now).`)]
  if (d.length < LIMITS.seoDescriptionMinChars)
    return [warn('seo_description_short', 'seoDescription', `SEO description under ${LIMITS.seoDescriptionMinChars} characters rarely says what the reader gets.`)]
  return []
}

export const checkExcerpt: Rule = ({ excerpt }) => {
  if (blank(excerpt)) return [err('excerpt_missing', 'excerpt', 'Excerpt is required.')]
  if ((excerpt as string).trim().length > LIMITS.excerptMaxChars)
    return [warn('excerpt_long', 'excerpt', `Excerpt over ${LIMITS.excerptMaxChars} characters is shown truncated.`)]
  return []
}

export const checkAuthor: Rule = ({ author }) =>
  blank(author) ? [err('author_missing', 'author', 'A visible author (or context) is required.')] : []

export const checkTags: Rule = ({ tags }) =>
  !tags || tags.length === 0 ? [warn('tags_missing', 'tags', 'Add at least one tag for grouping.')] : []

export const checkInternalLinks: Rule = ({ internalLinks }) => {
  const links = (internalLinks ?? []).filter((l) => !blank(l.url))
  if (links.length === 0) return [err('internal_links_missing', 'internalLinks', 'Add at least one internal link to a product or docs page.')]
  const bad = links.filter((l) => !/^(\/|https?:\/\/)/.test((l.url as string).trim()))
  return bad.length > 0 ? [err('internal_link_invalid', 'internalLinks', 'Internal links must be absolute paths or http(s) URLs.')] : []
}

export const checkClaimLedger: Rule = ({ claimLedger }, ctx) => {
  const claims = claimLedger ?? []
  if (claims.length === 0) return [err('claim_ledger_missing', 'claimLedger', 'Add the claim ledger (facts, dates, product state, odds, mechanics with sources).')]
  const out: EditorialIssue[] = []
  const now = (ctx.now ?? new Date()).getTime()
  claims.forEach((c, i) => {
    const field = `claimLedger.${i}`
    if (blank(c.claim) || blank(c.source)) out.push(err('claim_incomplete', field, `Claim ${i + 1} needs the claim text and its source.`))
    if (!c.kind || !(CLAIM_KINDS as readonly string[]).includes(c.kind)) out.push(err('claim_kind_invalid', field, `Claim ${i + 1} needs a kind (${CLAIM_KINDS.join(', ')}).`))
    const checked = c.checkedAt ? new Date(c.checkedAt).getTime() : NaN
    if (Number.isNaN(checked)) out.push(err('claim_unchecked', field, `Claim ${i + 1} needs the date it was checked.`))
    else if (utcDay(checked) > utcDay(now + LIMITS.earliestZoneOffsetHours * 3_600_000)) out.push(err('claim_checked_in_future', field, `Claim ${i + 1} is dated in the future.`))
    else if (now - checked > LIMITS.claimStaleDays * 86_400_000) out.push(warn('claim_stale', field, `Claim ${i + 1} was last checked over ${LIMITS.claimStaleDays} days ago.`))
  })
  return out
}

export const checkPositioning: Rule = ({ searchIntent, primaryAudience, platformAngle }) => {
  const out: EditorialIssue[] = []
  if (blank(searchIntent)) out.push(err('search_intent_missing', 'searchIntent', 'State the search intent this post answers.'))
  if (blank(primaryAudience)) out.push(err('audience_missing', 'primaryAudience', 'Choose the primary audience.'))
  else if (!(AUDIENCES as readonly string[]).includes(primaryAudience as string))
    out.push(err('audience_invalid', 'primaryAudience', `Primary audience must be one of ${AUDIENCES.join(', ')}.`))
  if (blank(platformAngle)) out.push(err('platform_angle_missing', 'platformAngle', 'State the platform-specific angle.'))
  return out
}

export const checkLength: Rule = ({ bodyText }) => {
  const n = words(bodyText).length
  if (n < LIMITS.minWords) return [err('content_too_short', 'content', `Content has ${n} words; at least ${LIMITS.minWords} original words are required.`)]
  if (n < LIMITS.warnWords) return [warn('content_short', 'content', `Content has ${n} words; ${LIMITS.warnWords}+ usually serves readers better.`)]
  return []
}

export const checkRepeatedIntro: Rule = ({ bodyText }, ctx) => {
  const intro = introOf(bodyText)
  const out: EditorialIssue[] = []
  const n = normalize(intro)
  if (BOILERPLATE_OPENERS.some((o) => n.startsWith(normalize(o))))
    out.push(warn('intro_boilerplate', 'content', 'The intro opens with a stock phrase; start with what the reader gets.'))
  const mine = shingles(intro)
  const clash = (ctx.otherIntros ?? []).some((other) => jaccard(mine, shingles(other)) >= LIMITS.repeatedIntroJaccard)
  if (clash) out.push(err('intro_repeated', 'content', 'The intro repeats the intro of another published post.'))
  return out
}

export const checkFiller: Rule = ({ bodyText }) => {
  const out: EditorialIssue[] = []
  const list = sentences(bodyText).map(normalize)
  if (list.length >= 5) {
    const seen = new Set<string>()
    let dupes = 0
    for (const s of list) {
      if (seen.has(s)) dupes++
      else seen.add(s)
    }
    if (dupes / list.length > LIMITS.duplicateSentenceRatio)
      out.push(err('filler_repeated_sentences', 'content', `${dupes} sentences are repeated; remove word-count filler.`))
  }
  const w = words(bodyText)
  if (w.length >= LIMITS.minWords && movingTypeTokenRatio(w) < LIMITS.minLexicalDiversity)
    out.push(err('filler_low_diversity', 'content', 'The text repeats the same few words; it reads as padding.'))
  const norm = normalize(bodyText)
  const hits = FILLER_PHRASES.reduce((acc, p) => acc + (norm.split(normalize(p)).length - 1), 0)
  if (hits >= LIMITS.fillerPhraseWarnCount) out.push(warn('filler_phrases', 'content', `${hits} filler phrases found (e.g. "needless to say").`))
  return out
}

export const checkFreshness: Rule = ({ publishedAt }, ctx) => {
  if (!publishedAt) return []
  const t = new Date(publishedAt).getTime()
  const now = (ctx.now ?? new Date()).getTime()
  return t > now + LIMITS.futureSkewMinutes * 60_000
    ? [err('published_at_future', 'publishedAt', 'Publish date lies in the future; fake freshness is not allowed.')]
    : []
}

export const RULES: readonly Rule[] = [
  checkSlug,
  checkTitle,
  checkSeoDescription,
  checkExcerpt,
  checkAuthor,
  checkTags,
  checkInternalLinks,
  checkClaimLedger,
  checkPositioning,
  checkLength,
  checkRepeatedIntro,
  checkFiller,
  checkFreshness,
]
