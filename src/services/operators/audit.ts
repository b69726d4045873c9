import type { Db } from '../../db/client';
import type { Prisma } from '../../generated/prisma/client';
import { parseInput } from '../../input/validate';
import { auditPageInput, type AuditRecord, type OperatorActor } from './model';

/** A transaction of the backend database (what an audited change runs in). */
export type Tx = Prisma.TransactionClient;

/** One operator action as the audit log keeps it: who, what, on which target, before and after. */
export interface AuditEntry {
  actor: OperatorActor;
  /** `<domain>.<verb>`, e.g. `campaigns.update`, `chat.ban`. */
  action: string;
  target: string;
  before?: unknown;
  after?: unknown;
  requestId?: string;
}

/** JSON of a before/after value (bigints as strings); nothing stored for null or undefined. */
const jsonOrNull = (value: unknown): Prisma.InputJsonValue | undefined =>
  value === undefined || value === null ? undefined : (JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))) as Prisma.InputJsonValue);

export const actorName = (actor: OperatorActor): string => ('wallet' in actor ? actor.wallet : 'operator-token');

/**
 * The operators' audit log (table operator_audit, append-only by trigger). Changes are audited
 * in the transaction that makes them, so an action is never applied without its row or recorded
 * without being applied.
 */
export function createAuditLog(deps: { db: Db }) {
  const { prisma } = deps.db;

  async function record(tx: Tx, entry: AuditEntry): Promise<void> {
    await tx.operatorAudit.create({
      data: { actor: actorName(entry.actor), action: entry.action, target: entry.target, before: jsonOrNull(entry.before), after: jsonOrNull(entry.after), requestId: entry.requestId ?? null },
    });
  }

  return {
    record,
    /**
     * Runs `change` in one transaction with its audit row: `change` answers what it did (`before`,
     * `after`) and its result; a throw rolls both back.
     */
    async audited<T>(entry: Omit<AuditEntry, 'before' | 'after'>, change: (tx: Tx) => Promise<{ before?: unknown; after?: unknown; result: T }>): Promise<T> {
      return prisma.$transaction(async (tx) => {
        const { before, after, result } = await change(tx);
        await record(tx, { ...entry, before, after });
        return result;
      });
    },
    /** Newest first, `limit` a page; `cursor` is the previous page's `nextCursor`. */
    async list(input: unknown): Promise<{ items: AuditRecord[]; nextCursor: string | null }> {
      const { cursor, limit } = parseInput(auditPageInput, input ?? {});
      const rows = await prisma.operatorAudit.findMany({
        where: cursor ? { id: { lt: BigInt(cursor) } } : {},
        orderBy: { id: 'desc' },
        take: limit + 1,
      });
      const page = rows.slice(0, limit);
      return {
        items: page.map((r) => ({ id: r.id.toString(), actor: r.actor, action: r.action, target: r.target, before: r.before ?? null, after: r.after ?? null, requestId: r.requestId, at: r.at })),
        nextCursor: rows.length > limit ? page[page.length - 1]!.id.toString() : null,
      };
    },
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;
