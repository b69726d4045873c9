import { WEBHOOK_FAILURES, type WebhookEvent, type WebhookFailureCode, type WebhookRefreshKind, type WebhookResult } from '../../src/surfaces/shared/blog-webhook'

/** Result of handling one partner delivery. `status` is the HTTP status the backend route should send. */
export type DeliveryOutcome = DeliverySuccess | DeliveryFailure

export interface RefreshOutcome {
  kind: WebhookRefreshKind
  ok: boolean
  status: number
  error?: string
}

export interface DeliverySuccess {
  ok: true
  status: 200 | 201
  /** `webhook_test`: nothing written; `created`/`updated`: post written; `duplicate`: delivery seen before. */
  code: WebhookResult
  event: WebhookEvent
  deliveryId?: string
  slug?: string
  postId?: string
  warnings?: string[]
  refresh?: RefreshOutcome[]
}

// The failure codes and their statuses are the webhook's contract, shared with the API.
export { WEBHOOK_FAILURES, type WebhookFailureCode }

export interface DeliveryFailure {
  ok: false
  status: (typeof WEBHOOK_FAILURES)[WebhookFailureCode]
  /** Stable machine code. */
  code: WebhookFailureCode
  message: string
  /** Per field; `rule` is the editorial rule's code (cms/editorial/rules.ts) on `EDITORIAL_REJECTED`. */
  details?: { field: string; message: string; rule?: string }[]
  /** `EDITORIAL_REJECTED` by the gate: the article was not published; it is kept as this draft for an editor. */
  draft?: HeldDraft
}

/** A refused partner article kept as a draft post, the gate's reasons in its `editorialWarnings`. */
export interface HeldDraft {
  postId: string
  slug: string
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
