/** Result of handling one partner delivery. `status` is the HTTP status the backend route should send. */
export type DeliveryOutcome = DeliverySuccess | DeliveryFailure

export interface RefreshOutcome {
  kind: 'revalidate' | 'ci_dispatch'
  ok: boolean
  status: number
  error?: string
}

export interface DeliverySuccess {
  ok: true
  status: 200 | 201
  /** `webhook_test`: nothing written; `created`/`updated`: post written; `duplicate`: delivery seen before. */
  code: 'webhook_test' | 'created' | 'updated' | 'duplicate'
  event: 'webhook.test' | 'article.published'
  deliveryId?: string
  slug?: string
  postId?: string
  warnings?: string[]
  refresh?: RefreshOutcome[]
}

/**
 * Every way a delivery can fail, with its HTTP status: the webhook's error contract. The API
 * answers these as `error.code` in its one error shape (see docs/decisions.md, Blog).
 */
export const WEBHOOK_FAILURES = {
  /** The JSON body is not an object. */
  INVALID_BODY: 400,
  /** `event` is neither `webhook.test` nor `article.published`. */
  UNKNOWN_EVENT: 400,
  /** `delivery_id` is missing or not 1–128 of A-Z a-z 0-9 . _ : - */
  MISSING_DELIVERY_ID: 400,
  /** `article` is missing or a field is invalid or of another type (`details.issues`, one per field; nothing is coerced). */
  INVALID_ARTICLE: 400,
  /** The slug belongs to an editor-written post. */
  SLUG_TAKEN: 409,
  /** `article.html` is over 900 kB. */
  PAYLOAD_TOO_LARGE: 413,
  /** Form, length or filler checks failed (`details.issues`). */
  EDITORIAL_REJECTED: 422,
  /** Our fault: the article could not be stored. */
  INTERNAL: 500,
} as const

export type WebhookFailureCode = keyof typeof WEBHOOK_FAILURES

export interface DeliveryFailure {
  ok: false
  status: (typeof WEBHOOK_FAILURES)[WebhookFailureCode]
  /** Stable machine code. */
  code: WebhookFailureCode
  message: string
  details?: { field: string; message: string }[]
}

/** A validated `article.published` delivery. */
export interface ArticleDelivery {
  deliveryId: string
  slug: string
  title: string
  excerpt: string
  seoDescription: string
  html: string
  tags: string[]
  author: string
  publishedAt: string | undefined
  imageUrl: string | undefined
  searchIntent: string | undefined
  primaryAudience: string | undefined
  platformAngle: string | undefined
  internalLinks: { url: string; label: string }[]
  claimLedger: { claim: string; source: string; kind: string; checkedAt: string }[]
}
