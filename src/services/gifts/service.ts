import { z } from 'zod';
import type { Registry } from 'prom-client';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { parseInput } from '../../input/validate';
import type { Logger } from '../../observability/logger';
import type { IpCheck, IpVerdict } from '../../providers/ip-check';
import { createGiftMetrics } from './metrics';
import { projectName, type GiftCounter, type GiftDelivery, type GiftRemaining } from './model';

export const giftQuery = z.strictObject({ project: projectName });
const giftUrl = z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }).max(2048);

export interface GiftClient {
  /** The trusted client IP (Fastify trust-proxy over TRUSTED_PROXY_CIDRS). */
  ip: string;
  /** The caller's wallet when it sent an access token (recorded with the delivery). */
  wallet?: string | null;
}

export type { GiftCounter, GiftDelivery, GiftRemaining } from './model';

export interface GiftService {
  /** Hands out one stashed URL of the project to the client, or refuses with a stable code. */
  claim(input: unknown, client: GiftClient): Promise<GiftDelivery>;
  remaining(input: unknown, client: GiftClient): Promise<GiftRemaining>;
  /** The nightly reset: project counters back to 0, per-IP counters removed. */
  resetCounters(): Promise<{ projectCounters: number; ipCounters: number }>;
  /** Adds URLs to a project's stash; a URL already stashed (any project) is skipped. */
  loadStash(project: string, urls: readonly string[]): Promise<{ added: number; skipped: number }>;
}

interface Window {
  daily_quota: number;
  starts_at: Date;
  ends_at: Date;
}

/** Per-IP counters are per project: `<project>:<ip>` (the project name has no colon). */
const ipKey = (project: string, ip: string) => `${project}:${ip}`;

const quotaExceeded = (project: string, scope: 'project' | 'ip', limit: number) =>
  new AppError(
    'GIFT_QUOTA_EXCEEDED',
    scope === 'project' ? `Project "${project}" has handed out all of today's gifts` : `This address has received its gifts of project "${project}" for today`,
    { scope, limit },
  );

/** How long a claim may wait for a pool connection or hold its transaction (the HTTP request limit bounds the rest). */
const TRANSACTION_LIMITS = { maxWait: 5000, timeout: 5000 };
/** A stash load is one transaction: all of it or none (a large file takes a while). */
const STASH_TRANSACTION_LIMITS = { maxWait: 5000, timeout: 120_000 };
/** URLs per INSERT when loading a stash. */
const LOAD_CHUNK = 5000;

export function createGiftService(deps: { db: Db; logger: Logger; ipCheck: IpCheck | null; ipDailyLimit: number; registry?: Registry; now?: () => Date }): GiftService {
  const { db, ipCheck, ipDailyLimit } = deps;
  const logger = deps.logger.child({ component: 'gifts' });
  const now = deps.now ?? (() => new Date());
  const metrics = createGiftMetrics(deps.registry);

  /** Counts the refusal and hands the error back to be thrown. */
  const refused = (reason: string, error: AppError): AppError => {
    metrics.refusals.inc({ reason });
    return error;
  };

  async function screen(ip: string): Promise<IpVerdict | null> {
    if (!ipCheck) {
      metrics.ipChecks.inc({ outcome: 'not_configured' });
      return null;
    }
    const verdict = await ipCheck.check(ip);
    metrics.ipChecks.inc({ outcome: verdict.outcome === 'failed' ? verdict.reason : verdict.outcome });
    // The flow goes on without the service's opinion: a third-party outage must not stop gifts.
    if (verdict.outcome === 'failed') logger.warn({ reason: verdict.reason, status: verdict.status }, 'anti-proxy check failed; continuing without it');
    return verdict;
  }

  /** Today's deliveries to the project and to the IP within it, read without locks. */
  async function deliveredToday(project: string, ip: string): Promise<{ project: number; ip: number }> {
    const rows = await db.prisma.giftDeliveryLimit.findMany({
      where: { OR: [{ scope: 'project', key: project }, { scope: 'ip', key: ipKey(project, ip) }] },
      select: { scope: true, deliveredCount: true },
    });
    const used = (scope: string) => rows.find((r) => r.scope === scope)?.deliveredCount ?? 0;
    return { project: used('project'), ip: used('ip') };
  }

  /** Which of today's quotas is already used up. */
  async function spentQuota(project: string, ip: string, projectLimit: number): Promise<'project' | 'ip' | null> {
    const used = await deliveredToday(project, ip);
    if (used.project >= projectLimit) return 'project';
    return used.ip >= ipDailyLimit ? 'ip' : null;
  }

  async function openWindow(project: string, at: Date): Promise<Window | null> {
    const row = await db.prisma.giftDeliverySchedule.findFirst({
      where: { project, enabled: true, startsAt: { lte: at }, endsAt: { gt: at } },
      orderBy: { startsAt: 'desc' },
    });
    return row ? { daily_quota: row.dailyQuota, starts_at: row.startsAt, ends_at: row.endsAt } : null;
  }

  return {
    async claim(input, client) {
      const { project } = parseInput(giftQuery, input);
      const at = now();
      const window = await openWindow(project, at);
      if (!window) throw refused('outside_schedule', new AppError('GIFT_UNAVAILABLE', `No gift delivery window of project "${project}" is open now`, { reason: 'outside_schedule' }));
      // Requests that cannot succeed are refused before the anti-proxy service is paid for them;
      // the transaction below re-checks both quotas under the row locks.
      const spent = await spentQuota(project, client.ip, window.daily_quota);
      if (spent) throw refused(`${spent}_quota`, quotaExceeded(project, spent, spent === 'project' ? window.daily_quota : ipDailyLimit));
      const verdict = await screen(client.ip);
      if (verdict?.outcome === 'proxy') {
        throw refused('proxy', new AppError('PROXY_DETECTED', 'Gifts are not handed out to proxy or VPN addresses; connect directly and try again', { type: verdict.type ?? null }));
      }
      const delivery = await db.prisma.$transaction(async (tx) => {
        // Project counter first, then the IP's, then the URL: every claim locks in this order, so
        // claims cannot deadlock; each increment only happens below its limit (the row lock
        // makes concurrent increments take turns), and a refusal rolls the others back.
        const [projectRow] = await tx.$queryRaw<Array<{ delivered_count: number }>>`
          INSERT INTO gift_delivery_limit (scope, key, daily_limit, delivered_count) VALUES ('project', ${project}, ${window.daily_quota}, 1)
          ON CONFLICT (scope, key) DO UPDATE SET delivered_count = gift_delivery_limit.delivered_count + 1, daily_limit = EXCLUDED.daily_limit, updated_at = now()
          WHERE gift_delivery_limit.delivered_count < EXCLUDED.daily_limit
          RETURNING delivered_count`;
        if (!projectRow) throw refused('project_quota', quotaExceeded(project, 'project', window.daily_quota));
        const [ipRow] = await tx.$queryRaw<Array<{ delivered_count: number }>>`
          INSERT INTO gift_delivery_limit (scope, key, daily_limit, delivered_count) VALUES ('ip', ${ipKey(project, client.ip)}, ${ipDailyLimit}, 1)
          ON CONFLICT (scope, key) DO UPDATE SET delivered_count = gift_delivery_limit.delivered_count + 1, daily_limit = EXCLUDED.daily_limit, updated_at = now()
          WHERE gift_delivery_limit.delivered_count < EXCLUDED.daily_limit
          RETURNING delivered_count`;
        if (!ipRow) throw refused('ip_quota', quotaExceeded(project, 'ip', ipDailyLimit));
        const [gift] = await tx.$queryRaw<Array<{ id: string; url: string }>>`
          SELECT id::text, url FROM get_stashed_gift WHERE project = ${project} AND delivered_at IS NULL
          ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`;
        if (!gift) throw refused('stash_empty', new AppError('GIFT_UNAVAILABLE', `Project "${project}" has no gift left to hand out`, { reason: 'stash_empty' }));
        await tx.$executeRaw`
          UPDATE get_stashed_gift SET delivered_at = ${at}, delivered_to_ip = ${client.ip}, delivered_to_address = ${client.wallet ?? null}
          WHERE id = ${gift.id}::uuid`;
        return { project, url: gift.url, deliveredAt: at.toISOString() };
      }, TRANSACTION_LIMITS);
      metrics.deliveries.inc({ project });
      logger.info({ project, ipCheck: verdict?.outcome ?? 'not_configured' }, 'gift delivered');
      return delivery;
    },

    async remaining(input, client) {
      const { project } = parseInput(giftQuery, input);
      const [window, used] = await Promise.all([openWindow(project, now()), deliveredToday(project, client.ip)]);
      const counter = (limit: number, used: number): GiftCounter => ({ limit, delivered: used, remaining: Math.max(0, limit - used) });
      return {
        project,
        window: window ? { startsAt: window.starts_at.toISOString(), endsAt: window.ends_at.toISOString() } : null,
        projectQuota: counter(window?.daily_quota ?? 0, used.project),
        ipQuota: counter(ipDailyLimit, used.ip),
      };
    },

    async resetCounters() {
      const at = now();
      const [projects, ips] = await db.prisma.$transaction([
        db.prisma.giftDeliveryLimit.updateMany({ where: { scope: 'project' }, data: { deliveredCount: 0, resetAt: at } }),
        db.prisma.giftDeliveryLimit.deleteMany({ where: { scope: 'ip' } }),
      ]);
      logger.info({ projectCounters: projects.count, ipCounters: ips.count }, 'gift counters reset');
      return { projectCounters: projects.count, ipCounters: ips.count };
    },

    async loadStash(projectInput, urls) {
      const project = parseInput(projectName, projectInput);
      const unique = parseStashUrls(urls);
      const added = await db.prisma.$transaction((tx) => insertStash(tx, project, unique), STASH_TRANSACTION_LIMITS);
      return { added, skipped: urls.length - added };
    },
  };
}

/** Checks a stash's URLs (VALIDATION_FAILED naming the first bad line) and drops repeats. */
export function parseStashUrls(urls: readonly string[]): string[] {
  const parsed = urls.map((url, i) => {
    const result = giftUrl.safeParse(url);
    if (!result.success) throw new AppError('VALIDATION_FAILED', `line ${i + 1}: ${result.error.issues[0]?.message ?? 'invalid URL'}`, { line: i + 1, issues: [{ path: `/urls/${i}`, message: result.error.issues[0]?.message ?? 'invalid URL' }] });
    return result.data;
  });
  return [...new Set(parsed)];
}

/** Adds URLs to a project's stash inside the caller's transaction; a URL already stashed (any project) is skipped. Answers how many were added. */
export async function insertStash(tx: Pick<Db['prisma'], 'getStashedGift'>, project: string, urls: readonly string[]): Promise<number> {
  let added = 0;
  // Chunks keep each INSERT under PostgreSQL's bind-parameter limit.
  for (let i = 0; i < urls.length; i += LOAD_CHUNK) {
    const chunk = urls.slice(i, i + LOAD_CHUNK);
    added += (await tx.getStashedGift.createMany({ data: chunk.map((url) => ({ project, url })), skipDuplicates: true })).count;
  }
  return added;
}
