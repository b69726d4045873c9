import { BLOG_DESCRIPTION_MAX, BLOG_TITLE_MAX } from '../../src/surfaces/shared/blog'

/** Editorial thresholds (each one is recorded in docs/decisions.md under "## Blog"). */
export const LIMITS = {
  slugMaxChars: 60,
  slugMaxWords: 8,
  slugWarnWords: 6,
  titleMinChars: 10,
  titleMaxChars: BLOG_TITLE_MAX,
  seoDescriptionMinChars: 50,
  seoDescriptionMaxChars: BLOG_DESCRIPTION_MAX,
  excerptMaxChars: 300,
  minWords: 300,
  warnWords: 500,
  /** Intro shingle similarity with another published post that counts as a repeated intro. */
  repeatedIntroJaccard: 0.6,
  /** Share of sentences that are exact repeats (after normalisation) that counts as filler. */
  duplicateSentenceRatio: 0.1,
  /** Moving-average type/token ratio (100-word windows) below which text counts as padded. */
  minLexicalDiversity: 0.4,
  fillerPhraseWarnCount: 3,
  claimStaleDays: 180,
  futureSkewMinutes: 5,
  /**
   * A claim's check date is a calendar day (the admin's date picker stores noon UTC of the day the
   * editor picked): it is in the future only when that day has not begun anywhere, i.e. in UTC+14.
   */
  earliestZoneOffsetHours: 14,
} as const

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** Openers that signal a generic, repeated intro. */
export const BOILERPLATE_OPENERS = [
  "in today's fast paced world",
  'in todays fast paced world',
  'in the ever evolving world of',
  'in the ever changing world of',
  'welcome to our blog',
  'in this article we will',
  'in this blog post we will',
  'are you looking for',
  'look no further',
  'have you ever wondered',
]

/** Phrases that pad word count without saying anything. */
export const FILLER_PHRASES = [
  'it is important to note that',
  'it is worth noting that',
  'needless to say',
  'at the end of the day',
  'without further ado',
  'in conclusion',
  'all in all',
  'last but not least',
  'as we all know',
  'it goes without saying',
  'when it comes to',
]
