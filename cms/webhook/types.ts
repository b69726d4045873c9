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

export interface DeliveryFailure {
  ok: false
  status: 400 | 409 | 413 | 422 | 500
  /** Stable machine code. */
  code:
    | 'invalid_body'
    | 'unknown_event'
    | 'missing_delivery_id'
    | 'invalid_article'
    | 'editorial_rejected'
    | 'slug_taken'
    | 'payload_too_large'
    | 'internal_error'
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
