/**
 * The partner webhook's contract, shared by the API (its route, its OpenAPI entry, its error
 * codes) and the CMS (cms/webhook, in the blog process, which handles the deliveries the API
 * forwards): one list, so the two cannot drift. docs/decisions.md (Blog) has the rules.
 */

/** The events a delivery may carry. */
export const WEBHOOK_EVENTS = ['webhook.test', 'article.published'] as const;
/** What a delivery did: `webhook_test` wrote nothing; `created`/`updated` wrote the post; `duplicate` was seen before. */
export const WEBHOOK_RESULTS = ['webhook_test', 'created', 'updated', 'duplicate'] as const;
/** The blog refresh calls made after a write. */
export const WEBHOOK_REFRESH_KINDS = ['revalidate', 'ci_dispatch'] as const;

/**
 * Every way a delivery can fail, with its HTTP status. The API answers these as `error.code` in
 * its one error shape (src/errors.ts declares each with the same status).
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
  /** The editorial gate refused it, not published (`details.issues`; a repeated intro is kept as a draft: `details.draft`). */
  EDITORIAL_REJECTED: 422,
  /** Our fault: the article could not be stored. */
  INTERNAL: 500,
} as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export type WebhookResult = (typeof WEBHOOK_RESULTS)[number];
export type WebhookRefreshKind = (typeof WEBHOOK_REFRESH_KINDS)[number];
export type WebhookFailureCode = keyof typeof WEBHOOK_FAILURES;

/**
 * Where the blog process takes the deliveries the API forwards (under the blog's base path
 * `/blog`; the same `Authorization: Bearer <WEBHOOK_SECRET>`): it answers the delivery's
 * outcome as JSON, with the outcome's status.
 */
export const BLOG_DELIVERY_PATH = '/blog/api/platform/contentpartner/';
/** Published posts for the API: `?page=&limit=` (a page), `<slug>/` (`{ post }`, null when absent). */
export const BLOG_PUBLISHED_POSTS_PATH = '/blog/api/platform/published-posts/';
