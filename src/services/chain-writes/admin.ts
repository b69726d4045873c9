import type { Db } from '../../db/client';
import type { Prisma } from '../../generated/prisma/client';
import { AppError } from '../../errors';
import { parseInput } from '../../input/validate';
import type { AuditLog, OperatorActor, Tx } from '../operators';
import { chainWriteIdInput, chainWriteListInput, type chainWriteModel } from './model';
import { toRecord, type ChainWriteRecord } from './service';
import type { z } from 'zod';

export type ChainWriteView = z.infer<typeof chainWriteModel>;

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** A write as operators see it (REST and GraphQL). */
export function toView(r: ChainWriteRecord): ChainWriteView {
  return {
    id: r.id,
    kind: r.kind,
    key: r.key,
    status: r.status,
    payload: r.payload,
    digest: r.digest,
    attempts: r.attempts,
    lastError: r.error,
    nextAttemptAt: iso(r.nextAttemptAt),
    gasBudget: r.gasBudget,
    gasUsed: r.gasUsed,
    effectsStatus: r.effectsStatus,
    resolvedByDigest: r.resolvedByDigest,
    createdAt: r.createdAt.toISOString(),
    queuedAt: r.queuedAt.toISOString(),
    submittedAt: iso(r.submittedAt),
    finishedAt: iso(r.finishedAt),
  };
}

export interface ChainWriteAdmin {
  /** Newest first, optionally of one status and kind; `cursor` is the previous page's `nextCursor`. */
  list(input: unknown): Promise<{ items: ChainWriteView[]; nextCursor: string | null }>;
  get(input: unknown): Promise<ChainWriteView>;
  /** A `failed` write back to the queue (attempts from 0); anything else: CONFLICT with `details.status`. */
  retry(actor: OperatorActor, input: unknown, requestId?: string): Promise<ChainWriteView>;
  /** A `queued` write never sent; a submitted (or finished) one: CONFLICT with `details.status`. */
  cancel(actor: OperatorActor, input: unknown, requestId?: string): Promise<ChainWriteView>;
}

interface Deps {
  db: Db;
  audit: AuditLog;
  /** Nudges this process's writer loop after a retry. */
  wake: EventTarget;
  now: () => Date;
}

/**
 * The operators' side of the outbox. Retry and cancel each run in one transaction with their audit
 * row, on the row locked FOR UPDATE: of parallel retries of one failed write exactly one finds it
 * `failed` and queues it (one audit row, one resubmission); the others find it queued (or already
 * further) and answer CONFLICT. The writer claims a queued row with a guarded update, so a cancel
 * that won the lock is never sent, and a row the writer claimed first is `submitted` (CONFLICT).
 * Within a process, actions on one write run one at a time and a refusal is answered from a plain
 * read: a burst of retries (a console clicked many times) costs one transaction, not a pool's worth
 * of transactions waiting on one row lock.
 */
export function createChainWriteAdmin(deps: Deps): ChainWriteAdmin {
  const { prisma } = deps.db;
  const busy = new Map<string, Promise<unknown>>();

  async function oneAtATime<T>(id: string, act: () => Promise<T>): Promise<T> {
    for (let running = busy.get(id); running; running = busy.get(id)) await running.catch(() => undefined);
    const acting = act();
    busy.set(id, acting);
    try {
      return await acting;
    } finally {
      if (busy.get(id) === acting) busy.delete(id);
    }
  }

  const notFound = (id: string) => new AppError('NOT_FOUND', `chain write ${id} does not exist`, { id });
  const conflict = (id: string, status: string, message: string) => new AppError('CONFLICT', message, { id, status });

  /** The write's status now, read without a lock: NOT_FOUND, or the refusal unless it is `wanted`. */
  async function expectStatus(id: string, wanted: string, refusal: (status: string) => AppError): Promise<void> {
    const row = await prisma.chainWrite.findUnique({ where: { id: BigInt(id) }, select: { status: true } });
    if (!row) throw notFound(id);
    if (row.status !== wanted) throw refusal(row.status);
  }

  async function locked(tx: Tx, id: string) {
    await tx.$queryRaw`SELECT id FROM chain_write WHERE id = ${BigInt(id)} FOR UPDATE`;
    const row = await tx.chainWrite.findUnique({ where: { id: BigInt(id) } });
    if (!row) throw notFound(id);
    return row;
  }

  return {
    async list(input) {
      const { status, kind, cursor, limit } = parseInput(chainWriteListInput, input ?? {});
      const where: Prisma.ChainWriteWhereInput = { ...(status ? { status } : {}), ...(kind ? { kind } : {}), ...(cursor ? { id: { lt: BigInt(cursor) } } : {}) };
      const rows = await prisma.chainWrite.findMany({ where, orderBy: { id: 'desc' }, take: limit + 1 });
      const page = rows.slice(0, limit);
      return { items: page.map((r) => toView(toRecord(r))), nextCursor: rows.length > limit ? page[page.length - 1]!.id.toString() : null };
    },

    async get(input) {
      const { id } = parseInput(chainWriteIdInput, input);
      const row = await prisma.chainWrite.findUnique({ where: { id: BigInt(id) } });
      if (!row) throw notFound(id);
      return toView(toRecord(row));
    },

    async retry(actor, input, requestId) {
      const { id } = parseInput(chainWriteIdInput, input);
      const refusal = (status: string) => conflict(id, status, `chain write ${id} is ${status}: only a failed write can be retried`);
      const view = await oneAtATime(id, async () => {
        await expectStatus(id, 'failed', refusal);
        return deps.audit.audited({ actor, action: 'chain-writes.retry', target: id, requestId }, async (tx) => {
          const before = await locked(tx, id);
          if (before.status !== 'failed') throw refusal(before.status);
          // The digest and signed bytes stay: the writer looks that transaction up before it builds a new one.
          const after = await tx.chainWrite.update({
            where: { id: before.id },
            data: { status: 'queued', attempts: 0, error: null, nextAttemptAt: null, queuedAt: deps.now(), finishedAt: null, effectsStatus: null, gasUsed: null, resolvedByDigest: false },
          });
          const result = toView(toRecord(after));
          return { before: toView(toRecord(before)), after: result, result };
        });
      });
      deps.wake.dispatchEvent(new Event('enqueued'));
      return view;
    },

    async cancel(actor, input, requestId) {
      const { id } = parseInput(chainWriteIdInput, input);
      const refusal = (status: string) =>
        status === 'submitted'
          ? conflict(id, status, `chain write ${id} is submitted: its transaction may already be on chain, so it cannot be cancelled`)
          : conflict(id, status, `chain write ${id} is ${status}: only a queued write can be cancelled`);
      return oneAtATime(id, async () => {
        await expectStatus(id, 'queued', refusal);
        return deps.audit.audited({ actor, action: 'chain-writes.cancel', target: id, requestId }, async (tx) => {
          const before = await locked(tx, id);
          if (before.status !== 'queued') throw refusal(before.status);
          const after = await tx.chainWrite.update({ where: { id: before.id }, data: { status: 'cancelled', nextAttemptAt: null, finishedAt: deps.now() } });
          const result = toView(toRecord(after));
          return { before: toView(toRecord(before)), after: result, result };
        });
      });
    },
  };
}
