import { z } from 'zod';
import { WEBHOOK_EVENTS, WEBHOOK_FAILURES, WEBHOOK_REFRESH_KINDS, WEBHOOK_RESULTS, type WebhookFailureCode } from '../../surfaces/shared/blog-webhook';

/** The partner webhook's events. */
export const webhookEvent = z.enum(WEBHOOK_EVENTS);
/** What a delivery did: `webhook_test` wrote nothing; `created`/`updated` wrote the post; `duplicate` was seen before. */
export const webhookResult = z.enum(WEBHOOK_RESULTS);
/** The blog refresh calls made after a write. */
export const refreshKind = z.enum(WEBHOOK_REFRESH_KINDS);

const failureCode = z.enum(Object.keys(WEBHOOK_FAILURES) as [WebhookFailureCode, ...WebhookFailureCode[]]);

/** A delivery the blog process handled (cms/webhook/types.ts DeliverySuccess). */
export const deliverySuccess = z.object({
  ok: z.literal(true),
  status: z.union([z.literal(200), z.literal(201)]),
  code: webhookResult,
  event: webhookEvent,
  deliveryId: z.string().optional(),
  slug: z.string().optional(),
  warnings: z.array(z.string()).optional(),
  refresh: z.array(z.object({ kind: refreshKind, ok: z.boolean(), status: z.number().int(), error: z.string().optional() })).optional(),
});
export type DeliverySuccess = z.infer<typeof deliverySuccess>;

/** A delivery the blog process refused (cms/webhook/types.ts DeliveryFailure); `UNAUTHENTICATED` when it does not share the API's secret. */
export const deliveryOutcome = z.discriminatedUnion('ok', [
  deliverySuccess,
  z.object({
    ok: z.literal(false),
    code: z.union([failureCode, z.literal('UNAUTHENTICATED')]),
    message: z.string(),
    details: z.array(z.object({ field: z.string(), message: z.string(), rule: z.string().optional() })).optional(),
    /** EDITORIAL_REJECTED by the gate: not published, kept as this draft for an editor. */
    draft: z.object({ postId: z.string(), slug: z.string() }).optional(),
  }),
]);

/** A published post as the API shows it (the blog process's cms/posts-read.ts view, less what only the site uses). */
export const publishedPostSummary = z.object({
  slug: z.string(),
  title: z.string(),
  excerpt: z.string(),
  seoDescription: z.string(),
  author: z.string(),
  tags: z.array(z.string()),
  publishedAt: z.string(),
  updatedAt: z.string(),
  /** Canonical URL, with trailing slash. */
  url: z.string(),
  imageUrl: z.string().nullable(),
});
export type PublishedPostSummary = z.infer<typeof publishedPostSummary>;

export const publishedPost = publishedPostSummary.extend({
  /** Rendered body HTML. */
  html: z.string(),
  internalLinks: z.array(z.object({ url: z.string(), label: z.string() })),
});
export type PublishedPost = z.infer<typeof publishedPost>;
/** The blog process's answer for one slug: null when no published post has it. */
export const publishedPostAnswer = z.object({ post: publishedPost.nullable() });

export const publishedPostPage = z.object({
  docs: z.array(publishedPostSummary),
  page: z.number().int(),
  limit: z.number().int(),
  totalDocs: z.number().int(),
  totalPages: z.number().int(),
  hasNextPage: z.boolean(),
});
export type PublishedPostPage = z.infer<typeof publishedPostPage>;
