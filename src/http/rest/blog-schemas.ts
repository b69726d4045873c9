import type { ErrorCode } from '../../errors';
import { BLOG_WEBHOOK_FAILURES, refreshKind, webhookEvent, webhookResult } from '../../services/blog';
import { modelSchema } from './input-schema';
import { COMMON_ERRORS, errorResponses } from './responses';

const text = { type: 'string' } as const;

/**
 * The partner's article. A field of another type is refused (400 INVALID_ARTICLE naming it), never
 * coerced; `null` counts as absent. Which fields are required (per event), the slug format,
 * the 900 kB html limit and the editorial checks are enforced by cms/webhook/parse.ts, which
 * answers with per-field `details.issues`. Unknown fields are kept and ignored.
 */
const articleSchema = {
  type: 'object',
  properties: {
    slug: { ...text, description: 'lowercase words joined by hyphens, at most 60 characters; default: from the title' },
    title: text,
    excerpt: text,
    description: { ...text, description: 'accepted for excerpt' },
    seo_description: text,
    html: { ...text, description: 'the article body, at most 900 kB; each <img> is fetched into the media collection or dropped with a warning' },
    content_html: { ...text, description: 'accepted for html' },
    tags: { type: 'array', items: text },
    author: { anyOf: [text, { type: 'object', properties: { name: text } }] },
    published_at: { ...text, description: 'ISO 8601' },
    image_url: { ...text, description: 'http(s) URL of the hero image, fetched into the media collection (an image that cannot be fetched is dropped with a warning)' },
    search_intent: text,
    primary_audience: text,
    platform_angle: text,
    internal_links: { type: 'array', items: { type: 'object', properties: { url: text, label: text } } },
    claim_ledger: {
      type: 'array',
      items: { type: 'object', properties: { claim: text, source: text, kind: text, checked_at: text } },
    },
  },
} as const;

const webhookBodySchema = {
  type: 'object',
  description: '`webhook.test` writes nothing; `article.published` (with `delivery_id` and `article`) creates or updates a published post.',
  properties: {
    event: modelSchema(webhookEvent),
    type: { type: 'string', description: 'accepted for event' },
    delivery_id: { ...text, description: '1–128 of A-Z a-z 0-9 . _ : -; a repeated id is answered `duplicate` and writes nothing' },
    deliveryId: { ...text, description: 'accepted for delivery_id' },
    article: articleSchema,
  },
} as const;

const webhookResultSchema = {
  type: 'object',
  required: ['received', 'event', 'result', 'deliveryId', 'slug', 'warnings', 'refresh'],
  properties: {
    received: { type: 'boolean', enum: [true] },
    event: modelSchema(webhookEvent),
    result: modelSchema(webhookResult),
    deliveryId: { type: ['string', 'null'] },
    slug: { type: ['string', 'null'] },
    warnings: { type: 'array', items: text, description: 'editorial findings that did not block publishing' },
    refresh: {
      type: 'array',
      description: 'blog refresh calls made after a write; a failed refresh never fails the delivery',
      items: {
        type: 'object',
        required: ['kind', 'ok', 'status'],
        properties: { kind: modelSchema(refreshKind), ok: { type: 'boolean' }, status: { type: 'integer' }, error: text },
      },
    },
  },
} as const;

/**
 * Error codes the webhook answers with: its own contract (BLOG_WEBHOOK_FAILURES, one code per
 * failure, see docs/decisions.md, Blog), the secret check, transport-level refusals of a body
 * that is not JSON, and the CMS being down.
 */
const WEBHOOK_ERRORS: readonly ErrorCode[] = [
  ...(Object.keys(BLOG_WEBHOOK_FAILURES) as (keyof typeof BLOG_WEBHOOK_FAILURES)[]),
  'UNAUTHENTICATED',
  'BAD_REQUEST',
  'UNSUPPORTED_MEDIA_TYPE',
  'SERVICE_UNAVAILABLE',
  ...COMMON_ERRORS,
];

export const webhookRouteSchema = {
  tags: ['blog'],
  operationId: 'contentPartnerWebhook',
  summary: "The content partner's article webhook",
  security: [{ webhookSecret: [] }],
  body: webhookBodySchema,
  response: {
    200: { ...webhookResultSchema, description: '`webhook_test`, `updated` or `duplicate`' },
    201: { ...webhookResultSchema, description: '`created`' },
    ...errorResponses(WEBHOOK_ERRORS),
  },
} as const;
