export type Severity = 'error' | 'warning'

export interface EditorialIssue {
  /** Stable machine code, e.g. `slug_format`. */
  code: string
  /** Field path the issue belongs to. */
  field: string
  severity: Severity
  message: string
}

export const CLAIM_KINDS = ['fact', 'date', 'product_state', 'odds', 'mechanics'] as const
export type ClaimKind = (typeof CLAIM_KINDS)[number]

export const AUDIENCES = [
  'player',
  'affiliate',
  'partner',
  'ecosystem_reader',
  'builder',
  'liquidity_participant',
  'existing_user',
] as const
export type Audience = (typeof AUDIENCES)[number]

export interface ClaimEntry {
  claim?: string | null
  source?: string | null
  kind?: string | null
  checkedAt?: string | Date | null
}

export interface LinkEntry {
  url?: string | null
  label?: string | null
}

/** Everything the checks look at; `bodyText` is the visible plain text of the content. */
export interface EditorialInput {
  slug?: string | null
  title?: string | null
  excerpt?: string | null
  seoDescription?: string | null
  author?: string | null
  tags?: ReadonlyArray<string | { tag?: string | null }> | null
  internalLinks?: ReadonlyArray<LinkEntry> | null
  claimLedger?: ReadonlyArray<ClaimEntry> | null
  searchIntent?: string | null
  primaryAudience?: string | null
  platformAngle?: string | null
  publishedAt?: string | Date | null
  bodyText: string
}

export interface EditorialContext {
  /** Intro fingerprints (see `introOf`) of other published posts. */
  otherIntros?: readonly string[]
  /** Where the post comes from; partner deliveries get contract gaps as warnings. */
  source?: 'editor' | 'contentpartner'
  now?: Date
}
