import { LRUCache } from 'lru-cache';
import type { z } from 'zod';
import { AppError, type ERROR_STATUS } from '../../errors';
import type { Logger } from '../../observability/logger';
import { BLOG_DELIVERY_PATH, BLOG_PUBLISHED_POSTS_PATH, WEBHOOK_FAILURES, type WebhookFailureCode } from '../../surfaces/shared/blog-webhook';
import type { ReadCacheService } from '../read-cache';
import { deliveryOutcome, publishedPostAnswer, publishedPostPage, type DeliverySuccess, type PublishedPost, type PublishedPostPage } from './model';
import { isAuthorizedWebhook } from './webhook-auth';

export interface BlogService {
  /** Constant-time check of `Authorization: Bearer <WEBHOOK_SECRET>` (or the older secret headers). */
  authorizeWebhook(headers: Record<string, string | string[] | undefined>): boolean;
  /** Hands one authenticated partner delivery to the blog process; a refusal throws its AppError (nothing written). */
  handleDelivery(body: unknown): Promise<DeliverySuccess>;
  listPosts(opts: { page?: number; limit?: number }): Promise<PublishedPostPage>;
  postBySlug(slug: string): Promise<PublishedPost | null>;
}

/**
 * The webhook's failure codes are AppError codes with the same status, so they reach the
 * partner unchanged in the one error shape. This fails to compile if the two lists drift.
 */
export const BLOG_WEBHOOK_FAILURES: { readonly [K in WebhookFailureCode]: (typeof ERROR_STATUS)[K] } = WEBHOOK_FAILURES;

/** A read the blog process has not answered after this long answers SERVICE_UNAVAILABLE (well inside the API's request timeout). */
const READ_TIMEOUT_MS = 3000;
/** A delivery runs image fetches (5 s each at most) and a write: the API's request timeout answers the partner first; this only bounds the socket. */
const DELIVERY_TIMEOUT_MS = 60_000;
const RETRY_AFTER_SECONDS = 5;
/**
 * How long a read of published posts is reused in this process. A partner delivery through this
 * API bumps the `blog` generation (every replica drops its reads at once); an edit in the CMS
 * admin (the blog process) shows here within this time.
 */
export const BLOG_READ_TTL_MS = 30_000;
const BLOG_READ_MAX_ENTRIES = 500;
/** The slugs a post can have (cms/posts-read.ts answers null for any other without a query). */
const SLUG = /^[a-z0-9-]{1,80}$/;

const unavailable = (cause: unknown) =>
  new AppError('SERVICE_UNAVAILABLE', 'The blog CMS is not available right now (starting, building or restarting); try again shortly', { retryAfterSeconds: RETRY_AFTER_SECONDS }, { cause });

/**
 * The blog's content lives in Payload (cms/), which runs in the blog process only (its Next
 * server): this process reads the published posts and forwards the partner's deliveries over
 * HTTP to `cmsUrl` (loopback by default; the routes are cms/platform-api.ts). While the blog is
 * building or restarting, reads answer SERVICE_UNAVAILABLE at once, or the last answer they had.
 */
export function createBlogService(opts: {
  /** The blog process's base URL (`BLOG_CMS_URL`), e.g. `http://127.0.0.1:3001`. */
  cmsUrl: string;
  webhookSecret?: string;
  logger: Logger;
  /** The `blog` generation: bumped after each delivery, and clearing this process's reads when any replica bumps it. */
  readCache?: Pick<ReadCacheService, 'bump' | 'onBump'>;
  /** Default BLOG_READ_TTL_MS; 0 asks the blog every time. */
  readTtlMs?: number;
}): BlogService {
  const base = opts.cmsUrl.replace(/\/+$/, '');

  /** One JSON answer of the blog process, checked against its model; anything else is SERVICE_UNAVAILABLE. */
  const getJson = async <T>(path: string, model: z.ZodType<T>): Promise<T> => {
    let json: unknown;
    try {
      const res = await fetch(`${base}${path}`, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(READ_TIMEOUT_MS) });
      if (!res.ok) {
        await res.body?.cancel();
        throw new Error(`the blog answered ${res.status} to GET ${path}`);
      }
      json = await res.json();
    } catch (err) {
      throw unavailable(err);
    }
    const parsed = model.safeParse(json);
    if (parsed.success) return parsed.data;
    opts.logger.warn({ path, issues: parsed.error.issues.slice(0, 3) }, 'blog: the blog process answered a read in another shape');
    throw unavailable(parsed.error);
  };

  /**
   * Published posts are read from the blog once per key and TTL: concurrent misses share one
   * read, an expired entry is served while one request refills it, and a failed refill keeps
   * serving the last good answer (a blog restarting does not empty the API's blog reads).
   */
  const readTtlMs = opts.readTtlMs ?? BLOG_READ_TTL_MS;
  const reads = new LRUCache<string, { value: PublishedPostPage | PublishedPost | null }, () => Promise<PublishedPostPage | PublishedPost | null>>({
    max: BLOG_READ_MAX_ENTRIES,
    ttl: Math.max(1, readTtlMs),
    // A read with nothing cached gets the error (SERVICE_UNAVAILABLE while the blog builds).
    allowStale: true,
    noDeleteOnFetchRejection: true,
    ignoreFetchAbort: true,
    fetchMethod: async (_key, _stale, { context }) => ({ value: await context() }),
  });
  opts.readCache?.onBump('blog', () => reads.clear());
  const read = async <T extends PublishedPostPage | PublishedPost | null>(key: string, load: () => Promise<T>): Promise<T> =>
    readTtlMs > 0 ? ((await reads.fetch(key, { context: load }))!.value as T) : load();

  return {
    authorizeWebhook: (headers) => isAuthorizedWebhook(headers, opts.webhookSecret),

    async handleDelivery(body) {
      if (!opts.webhookSecret) throw new AppError('UNAUTHENTICATED', 'Missing or invalid webhook secret');
      let res: Response;
      let json: unknown;
      try {
        res = await fetch(`${base}${BLOG_DELIVERY_PATH}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${opts.webhookSecret}`, 'content-type': 'application/json' },
          // As parsed here (the body limit, the character check and the JSON parse already ran): the same value reaches the CMS.
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
        });
        json = await res.json().catch(() => undefined);
      } catch (err) {
        throw unavailable(err);
      }
      const parsed = deliveryOutcome.safeParse(json);
      if (!parsed.success) {
        if (res.status === 502 || res.status === 503 || res.status === 504) throw unavailable(new Error(`the blog answered ${res.status}`));
        opts.logger.error({ status: res.status, issues: parsed.error.issues.slice(0, 3) }, 'blog: the blog process answered a delivery with no outcome');
        throw new AppError('INTERNAL', 'The article could not be stored.');
      }
      const outcome = parsed.data;
      if (outcome.ok) {
        await opts.readCache?.bump('blog');
        return outcome;
      }
      if (outcome.code === 'UNAUTHENTICATED') {
        // The partner's secret was right here: the blog process was started with another WEBHOOK_SECRET.
        opts.logger.error('blog: the blog process refused the WEBHOOK_SECRET this process forwards deliveries with; give both the same one');
        throw unavailable(new Error('the blog process refused the webhook secret'));
      }
      const gate = outcome.code === 'EDITORIAL_REJECTED' ? { published: false, ...(outcome.draft ? { draft: outcome.draft } : {}) } : {};
      const details = { ...(outcome.details ? { issues: outcome.details } : {}), ...gate };
      throw new AppError(outcome.code, outcome.message, Object.keys(details).length > 0 ? details : undefined);
    },

    listPosts: ({ page, limit }) => {
      const query = new URLSearchParams({ ...(page !== undefined ? { page: String(Math.trunc(page)) } : {}), ...(limit !== undefined ? { limit: String(Math.trunc(limit)) } : {}) });
      return read(`list:${page ?? ''}:${limit ?? ''}`, () => getJson(`${BLOG_PUBLISHED_POSTS_PATH}?${query}`, publishedPostPage));
    },

    postBySlug: (slug) =>
      SLUG.test(slug) ? read(`post:${slug}`, async () => (await getJson(`${BLOG_PUBLISHED_POSTS_PATH}${slug}/`, publishedPostAnswer)).post) : Promise.resolve(null),
  };
}
