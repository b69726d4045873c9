import type { Payload } from 'payload';
import { AppError, type ERROR_STATUS } from '../errors';
import type { Logger } from '../observability/logger';
import type { DeliverySuccess } from '../../cms/publishing';
import { WEBHOOK_FAILURES, type WebhookFailureCode } from '../../cms/webhook/types';
import type { PublishedPost, PublishedPostPage } from '../../cms/posts-read';
import { isAuthorizedWebhook } from '../../cms/webhook-auth';

export interface BlogService {
  /** Constant-time check of `Authorization: Bearer <WEBHOOK_SECRET>` (or the older secret headers). */
  authorizeWebhook(headers: Record<string, string | string[] | undefined>): boolean;
  /** Handles one authenticated partner delivery; bad input throws an AppError and writes nothing. */
  handleDelivery(body: unknown): Promise<DeliverySuccess>;
  listPosts(opts: { page?: number; limit?: number }): Promise<PublishedPostPage>;
  postBySlug(slug: string): Promise<PublishedPost | null>;
  /** Starts Payload in the background so the first webhook does not pay for it. */
  warm(): void;
  close(): Promise<void>;
}

/**
 * The webhook's failure codes are AppError codes with the same status, so they reach the
 * partner unchanged in the one error shape. This fails to compile if the two lists drift.
 */
export const BLOG_WEBHOOK_FAILURES: { readonly [K in WebhookFailureCode]: (typeof ERROR_STATUS)[K] } = WEBHOOK_FAILURES;

/**
 * The blog's content lives in Payload (cms/); this process reaches it through Payload's
 * Local API on the same database. Payload (and its heavy imports) load on first use, so the
 * API boots without them.
 */
export function createBlogService(opts: { webhookSecret?: string; logger: Logger; loadPayload?: () => Promise<Payload> }): BlogService {
  let payload: Promise<Payload> | null = null;
  // Pending blog migrations are applied here too, so a webhook can land before the site has started.
  const load = opts.loadPayload ?? (async () => (await import('../../cms/lifecycle')).openBlogPayload({ migrate: true }));
  const cms = () => {
    if (!payload) {
      payload = load().catch((err: unknown) => {
        payload = null;
        throw new AppError('SERVICE_UNAVAILABLE', 'The blog CMS is not available', undefined, { cause: err });
      });
    }
    return payload;
  };

  return {
    authorizeWebhook: (headers) => isAuthorizedWebhook(headers, opts.webhookSecret),
    async handleDelivery(body) {
      const { handleContentPartnerDelivery } = await import('../../cms/publishing');
      const outcome = await handleContentPartnerDelivery(await cms(), body);
      if (outcome.ok) return outcome;
      throw new AppError(outcome.code, outcome.message, outcome.details ? { issues: outcome.details } : undefined);
    },
    listPosts: async (q) => (await import('../../cms/posts-read')).listPublishedPosts(q, await cms()),
    postBySlug: async (slug) => (await import('../../cms/posts-read')).getPublishedPostBySlug(slug, await cms()),
    warm() {
      cms().catch((err: unknown) => opts.logger.warn({ err: (err as AppError).cause ?? err }, 'blog CMS failed to start; will retry on first use'));
    },
    async close() {
      if (!payload) return;
      const p = await payload.catch(() => null);
      if (p) await (await import('../../cms/lifecycle')).closeBlogPayload(p);
    },
  };
}
