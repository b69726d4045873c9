import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { parseInput } from '../../input/validate';
import { actorName, type AuditLog, type OperatorActor, type Tx } from '../operators';
import { createProjectInput, projectName, setWindowsInput, stashInput, type GiftProjectSummary } from './model';
import { insertStash, parseStashUrls } from './service';

interface Deps {
  db: Db;
  audit: AuditLog;
  now?: () => Date;
}

const notFound = (project: string) => new AppError('NOT_FOUND', `No gift project "${project}"; create it first`, { project });

async function windowsOf(tx: Pick<Tx, 'giftDeliverySchedule'>, project: string) {
  const rows = await tx.giftDeliverySchedule.findMany({ where: { project }, orderBy: { startsAt: 'asc' } });
  return rows.map((w) => ({ id: w.id, startsAt: w.startsAt, endsAt: w.endsAt, dailyQuota: w.dailyQuota, enabled: w.enabled }));
}

/**
 * Gift projects as operators run them (issue 25): projects, their delivery windows and daily
 * quotas, and their stash, each change audited in its own transaction; what is left per project
 * and per window. The nightly counter reset stays the gifts job's (service.ts resetCounters).
 */
export function createGiftAdmin(deps: Deps) {
  const { db, audit } = deps;
  const now = deps.now ?? (() => new Date());

  async function summaries(names?: string[]): Promise<GiftProjectSummary[]> {
    const where = names ? { name: { in: names } } : {};
    const [projects, stash, windows, today] = await Promise.all([
      db.prisma.giftProject.findMany({ where, orderBy: { name: 'asc' } }),
      db.query<{ project: string; total: string; delivered: string }>(
        `SELECT project, count(*)::text AS total, count(delivered_at)::text AS delivered FROM get_stashed_gift ${names ? 'WHERE project = ANY($1)' : ''} GROUP BY project`,
        names ? [names] : [],
      ),
      db.query<{ id: string; project: string; starts_at: Date; ends_at: Date; daily_quota: number; enabled: boolean; delivered: string }>(
        `SELECT w.id::text, w.project, w.starts_at, w.ends_at, w.daily_quota, w.enabled,
                (SELECT count(*) FROM get_stashed_gift g WHERE g.project = w.project AND g.delivered_at >= w.starts_at AND g.delivered_at < w.ends_at)::text AS delivered
           FROM gift_delivery_schedule w ${names ? 'WHERE w.project = ANY($1)' : ''} ORDER BY w.starts_at`,
        names ? [names] : [],
      ),
      db.prisma.giftDeliveryLimit.findMany({ where: { scope: 'project', ...(names ? { key: { in: names } } : {}) } }),
    ]);
    const at = now().getTime();
    return projects.map((p) => {
      const counts = stash.find((s) => s.project === p.name);
      const total = Number(counts?.total ?? 0);
      const delivered = Number(counts?.delivered ?? 0);
      const own = windows
        .filter((w) => w.project === p.name)
        .map((w) => {
          const startsAt = new Date(w.starts_at);
          const endsAt = new Date(w.ends_at);
          return { id: w.id, startsAt, endsAt, dailyQuota: w.daily_quota, enabled: w.enabled, open: w.enabled && startsAt.getTime() <= at && at < endsAt.getTime(), delivered: Number(w.delivered) };
        });
      const quota = own.filter((w) => w.open).at(-1)?.dailyQuota ?? 0;
      const deliveredToday = today.find((t) => t.key === p.name)?.deliveredCount ?? 0;
      return {
        name: p.name,
        title: p.title,
        createdAt: p.createdAt,
        stash: { total, delivered, left: total - delivered },
        today: { limit: quota, delivered: deliveredToday, remaining: Math.max(0, quota - deliveredToday) },
        windows: own,
      };
    });
  }

  async function summaryOf(project: string): Promise<GiftProjectSummary> {
    const [summary] = await summaries([project]);
    if (!summary) throw notFound(project);
    return summary;
  }

  async function existing(tx: Pick<Tx, 'giftProject'>, project: string) {
    const row = await tx.giftProject.findUnique({ where: { name: project } });
    if (!row) throw notFound(project);
    return row;
  }

  return {
    /** Every project with its stash left, today's quota and each window's deliveries. */
    projects: () => summaries(),

    async createProject(actor: OperatorActor, input: unknown, requestId?: string): Promise<GiftProjectSummary> {
      const { name, title } = parseInput(createProjectInput, input);
      await audit.audited({ actor, action: 'gifts.create_project', target: name, requestId }, async (tx) => {
        const before = await tx.giftProject.findUnique({ where: { name } });
        if (before) throw new AppError('CONFLICT', `Gift project "${name}" already exists`, { project: name });
        const after = await tx.giftProject.create({ data: { name, title: title ?? null, createdBy: actorName(actor) } });
        return { before: null, after, result: after };
      });
      return summaryOf(name);
    },

    /** Replaces the project's delivery windows (and their daily quotas) with `input.windows`. */
    async setWindows(actor: OperatorActor, projectInput: unknown, input: unknown, requestId?: string): Promise<GiftProjectSummary> {
      const project = parseInput(projectName, projectInput);
      const { windows } = parseInput(setWindowsInput, input);
      await audit.audited({ actor, action: 'gifts.set_windows', target: project, requestId }, async (tx) => {
        await existing(tx, project);
        // One writer at a time per project, so two replacements never interleave.
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('gift_windows'), hashtext(${project}))`;
        const before = await windowsOf(tx, project);
        await tx.giftDeliverySchedule.deleteMany({ where: { project } });
        await tx.giftDeliverySchedule.createMany({
          data: windows.map((w) => ({ project, startsAt: new Date(w.startsAt), endsAt: new Date(w.endsAt), dailyQuota: w.dailyQuota, enabled: w.enabled })),
        });
        return { before, after: await windowsOf(tx, project), result: null };
      });
      return summaryOf(project);
    },

    /** Adds URLs to the project's stash (the `gifts:load` input); answers what was added and what is left. */
    async loadStash(actor: OperatorActor, projectInput: unknown, input: unknown, requestId?: string): Promise<{ added: number; skipped: number; project: GiftProjectSummary }> {
      const project = parseInput(projectName, projectInput);
      const { urls } = parseInput(stashInput, input);
      const unique = parseStashUrls(urls);
      const added = await audit.audited({ actor, action: 'gifts.load_stash', target: project, requestId }, async (tx) => {
        await existing(tx, project);
        const count = await insertStash(tx, project, unique);
        // The URLs are what players receive: the log keeps how many, not which.
        return { before: null, after: { received: urls.length, added: count, skipped: urls.length - count }, result: count };
      });
      return { added, skipped: urls.length - added, project: await summaryOf(project) };
    },
  };
}

export type GiftAdmin = ReturnType<typeof createGiftAdmin>;
