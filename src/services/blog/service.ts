import type { Payload } from 'payload';
import { LRUCache } from 'lru-cache';
import { AppError, type ERROR_STATUS } from '../../errors';
import type { Logger } from '../../observability/logger';
import type { DeliverySuccess } from '../../../cms/publishing';
import { WEBHOOK_FAILURES, type WebhookFailureCode } from '../../../cms/webhook/types';
import type { PublishedPost, PublishedPostPage } from '../../../cms/posts-read';
import { isAuthorizedWebhook } from '../../../cms/webhook-auth';
import type { ReadCacheService } from '../read-cache';

export interface BlogService {
  /** Constant-time check of `Authorization: Bearer <WEBHOOK_SECRET>` (or the older secret headers). */
  authorizeWebhook(headers: Record<string, string | string[] | undefined>): boolean;
  /** Handles one authenticated partner delivery; bad input throws an AppError and writes nothing. */
  handleDelivery(body: unknown): Promise<DeliverySuccess>;
  listPosts(opts: { page?: number; limit?: number }): Promise<PublishedPostPage>;
  postBySlug(slug: string): Promise<PublishedPost | null>;
  /** Loads Payload's modules (seconds of CPU holding the event loop) without opening it: done before the API listens. */
  preload(): Promise<void>;
  /** Opens Payload now, so the first webhook does not pay for it; settles (never rejects) once it is open or has failed (logged; retried on first use). */
  warm(): Promise<void>;
  /**
   * Payload is not opened before `gate` settles (the platform's blog process applying the
   * migrations, which are not safe from two processes at once). Call before any use.
   */
  openAfter(gate: Promise<void>): void;
  close(): Promise<void>;
}

/**
 * The webhook's failure codes are AppError codes with the same status, so they reach the
 * partner unchanged in the one error shape. This fails to compile if the two lists drift.
 */
export const BLOG_WEBHOOK_FAILURES: { readonly [K in WebhookFailureCode]: (typeof ERROR_STATUS)[K] } = WEBHOOK_FAILURES;

/** How long a read waits for a Payload that is still opening before answering SERVICE_UNAVAILABLE. */
const READ_WAIT_MS = 2000;
const RETRY_AFTER_SECONDS = 5;
/**
 * How long a read of published posts is reused in this process. A partner delivery through this
 * API bumps the `blog` generation (every replica drops its reads at once); an edit in the CMS
 * admin (the blog process) shows here within this time.
 */
export const BLOG_READ_TTL_MS = 30_000;
const BLOG_READ_MAX_ENTRIES = 500;

/**
 * The blog's content lives in Payload (cms/); this process reaches it through Payload's
 * Local API on the same database. Payload (and its heavy imports) load on first use, so the
 * API boots without them.
 */
export function createBlogService(opts: {
  webhookSecret?: string;
  logger: Logger;
  loadPayload?: () => Promise<Payload>;
  readWaitMs?: number;
  /** The `blog` generation: bumped after each delivery, and clearing this process's reads when any replica bumps it. */
  readCache?: Pick<ReadCacheService, 'bump' | 'onBump'>;
  /** Default BLOG_READ_TTL_MS; 0 reads Payload every time. */
  readTtlMs?: number;
}): BlogService {
  let payload: Promise<Payload> | null = null;
  let opened = false;
  let gate: Promise<void> = Promise.resolve();
  let closed = false;
  let abandonGate!: () => void;
  const closing = new Promise<void>((resolve) => (abandonGate = resolve));
  // Pending blog migrations are applied here too, so a webhook can land before the site has started.
  const open = opts.loadPayload ?? (async () => (await import('../../../cms/lifecycle')).openBlogPayload({ migrate: true }));
  const load = async () => {
    await Promise.race([gate, closing]);
    if (closed) throw new Error('the blog service closed before Payload was opened');
    const p = await open();
    opened = true;
    return p;
  };
  const readWaitMs = opts.readWaitMs ?? READ_WAIT_MS;
  /**
   * Reads while Payload is still opening (first start: the blog process migrating, or this
   * process loading Payload) answer SERVICE_UNAVAILABLE after a short wait instead of holding
   * the request until the API's request timeout.
   */
  const cmsForRead = async () => {
    if (opened) return cms();
    let timer: NodeJS.Timeout | undefined;
    const starting = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new AppError('SERVICE_UNAVAILABLE', 'The blog CMS is still starting; try again shortly', { retryAfterSeconds: RETRY_AFTER_SECONDS })),
        readWaitMs,
      );
    });
    try {
      return await Promise.race([cms(), starting]);
    } finally {
      clearTimeout(timer);
    }
  };
  const cms = () => {
    if (!payload) {
      payload = load().catch((err: unknown) => {
        payload = null;
        throw new AppError('SERVICE_UNAVAILABLE', 'The blog CMS is not available', undefined, { cause: err });
      });
    }
    return payload;
  };

  /**
   * Published posts are read from Payload once per key and TTL (Payload's Local API costs a few ms of
   * CPU per read): concurrent misses share one read, an expired entry is served while one request
   * refills it, and a failed refill keeps serving the last good answer.
   */
  const readTtlMs = opts.readTtlMs ?? BLOG_READ_TTL_MS;
  const reads = new LRUCache<string, { value: PublishedPostPage | PublishedPost | null }, () => Promise<PublishedPostPage | PublishedPost | null>>({
    max: BLOG_READ_MAX_ENTRIES,
    ttl: Math.max(1, readTtlMs),
    // An expired entry is answered at once while one refill runs; a failed refill keeps it (a
    // read with nothing cached gets the error, e.g. SERVICE_UNAVAILABLE while Payload opens).
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
      const { handleContentPartnerDelivery } = await import('../../../cms/publishing');
      const outcome = await handleContentPartnerDelivery(await cms(), body);
      if (outcome.ok) {
        await opts.readCache?.bump('blog');
        return outcome;
      }
      throw new AppError(outcome.code, outcome.message, outcome.details ? { issues: outcome.details } : undefined);
    },
    listPosts: (q) => read(`list:${q.page ?? ''}:${q.limit ?? ''}`, async () => (await import('../../../cms/posts-read')).listPublishedPosts(q, await cmsForRead())),
    postBySlug: (slug) => read(`post:${slug}`, async () => (await import('../../../cms/posts-read')).getPublishedPostBySlug(slug, await cmsForRead())),
    openAfter(next) {
      gate = next;
    },
    async preload() {
      await (await import('../../../cms/lifecycle')).loadBlogPayloadModules();
    },
    warm() {
      return cms().then(() => undefined, (err: unknown) => opts.logger.warn({ err: (err as AppError).cause ?? err }, 'blog CMS failed to start; will retry on first use'));
    },
    async close() {
      closed = true;
      abandonGate();
      if (!payload) return;
      const p = await payload.catch(() => null);
      if (p) await (await import('../../../cms/lifecycle')).closeBlogPayload(p);
    },
  };
}
