/**
 * Chain writer: every blockchain write goes through here.
 *
 * Public interface (for callers in any replica):
 *   chainWriter.register(kind, builder)   — at composition time, once per kind (e.g. `giveaway.settle`,
 *                                            `nameservice.subname`); the builder adds the Move calls to a
 *                                            `Transaction` from the row's JSON payload.
 *   chainWriter.enqueue({ kind, key, payload }) → ChainWriteRecord
 *                                          — inserts an outbox row; idempotent by `key` (a repeated key
 *                                            returns the existing row, whatever its payload).
 *   chainWriter.awaitOutcome(id, { signal, timeoutMs }) → ChainWriteRecord (confirmed | failed | cancelled)
 *                                          — waits for the writer; rejects with ChainWriteTimeoutError
 *                                            (the write stays queued and will still run).
 *   chainWriter.get(id) / getByKey(key)    — the row as it is now.
 * The writer itself (startChainWriterLoop in ./loop.ts) runs in the jobs role of one replica
 * (advisory-lock lease) and handles one row at a time; operators list, retry and cancel writes
 * through ./admin.ts.
 */
import type { Db } from '../../db/client';
import type { Prisma } from '../../generated/prisma/client';
import { AppError } from '../../errors';
import type { SuiWriter, Transaction } from '../../providers/sui-writer';
import type { ReadNormalizedModules } from '../../chain-events/contract-check';
import type { FunctionContract } from '../../chain-events/contract';
import type { ChainWriteStatus } from './model';

export type { ChainWriteStatus } from './model';
export type JsonPayload = Record<string, unknown>;

export interface ChainWriteRecord {
  id: string;
  kind: string;
  key: string;
  status: ChainWriteStatus;
  payload: JsonPayload;
  digest: string | null;
  /** MIST (decimal string): the dry run's gas plus the margin. */
  gasBudget: string | null;
  /** computation + storage − rebate, MIST (decimal string). */
  gasUsed: string | null;
  effectsStatus: 'success' | 'failure' | null;
  /** The last error: a transient one while retried, the final one of a failed write. */
  error: string | null;
  /** Attempts since the write was last queued. */
  attempts: number;
  /** When the next attempt is due after a transient failure. */
  nextAttemptAt: Date | null;
  resolvedByDigest: boolean;
  createdAt: Date;
  queuedAt: Date;
  submittedAt: Date | null;
  finishedAt: Date | null;
}

export interface BuildContext {
  /** The backend wallet (sender and gas owner). */
  sender: string;
  /** PLATFORM_PACKAGE_ID. */
  packageId: string;
}

/** Adds a write's commands to the transaction. Throw ChainWriteRejectedError for a payload that can never be built. */
export type ChainWriteBuilder = (tx: Transaction, payload: JsonPayload, ctx: BuildContext) => void | Promise<void>;

/** The Move function a kind's builder calls, checked against the node before the writer runs that kind. */
export interface ChainWriteTarget {
  call: FunctionContract;
  /** Package holding the module; undefined when not configured (nothing to check, nothing to call). */
  packageId: string | undefined;
}

/** `package::module::function` of a call target. */
export const moveCallTarget = (packageId: string, call: Pick<FunctionContract, 'module' | 'name'>) => `${packageId}::${call.module}::${call.name}`;

export interface EnqueueRequest {
  kind: string;
  /** Idempotency key, unique across all writes (e.g. `giveaway.settle:<objectId>`). */
  key: string;
  payload: JsonPayload;
}

export interface ChainWriterService {
  /** A backend wallet key and a chain endpoint are configured (else enqueue refuses with SERVICE_UNAVAILABLE). */
  readonly configured: boolean;
  register(kind: string, builder: ChainWriteBuilder, target?: ChainWriteTarget): void;
  builderOf(kind: string): ChainWriteBuilder | undefined;
  /** Each registered kind's call target, for the writer's contract check. */
  targets(): Array<{ kind: string } & ChainWriteTarget>;
  /** Reads a package's normalized modules from the node (null: targets are not checked). */
  readonly readModules: ReadNormalizedModules | null;
  enqueue(request: EnqueueRequest): Promise<ChainWriteRecord>;
  get(id: string): Promise<ChainWriteRecord | null>;
  getByKey(key: string): Promise<ChainWriteRecord | null>;
  awaitOutcome(id: string, opts?: { signal?: AbortSignal; timeoutMs?: number }): Promise<ChainWriteRecord>;
  /** Nudges this process's writer loop (if it runs here) to look for work now. */
  readonly wake: EventTarget;
  /** The signing side (null when not configured); used by the writer loop only. */
  readonly writer: SuiWriter | null;
  readonly packageId: string;
}

/** A payload its builder can never turn into a transaction: the row fails at once, no retry. */
export class ChainWriteRejectedError extends Error {
  override name = 'ChainWriteRejectedError';
}

export class ChainWriteTimeoutError extends Error {
  override name = 'ChainWriteTimeoutError';
  constructor(readonly record: ChainWriteRecord) {
    super(`chain write ${record.id} (${record.kind}) is still ${record.status}`);
  }
}

export const isFinished = (r: Pick<ChainWriteRecord, 'status'>): boolean => r.status === 'confirmed' || r.status === 'failed' || r.status === 'cancelled';

type Row = Prisma.ChainWriteGetPayload<object>;

export function toRecord(row: Row): ChainWriteRecord {
  return {
    id: row.id.toString(),
    kind: row.kind,
    key: row.idempotencyKey,
    status: row.status as ChainWriteStatus,
    payload: row.payload as JsonPayload,
    digest: row.digest,
    gasBudget: row.gasBudget?.toFixed(0) ?? null,
    gasUsed: row.gasUsed?.toFixed(0) ?? null,
    effectsStatus: row.effectsStatus as ChainWriteRecord['effectsStatus'],
    error: row.error,
    attempts: row.attempts,
    nextAttemptAt: row.nextAttemptAt,
    resolvedByDigest: row.resolvedByDigest,
    createdAt: row.createdAt,
    queuedAt: row.queuedAt,
    submittedAt: row.submittedAt,
    finishedAt: row.finishedAt,
  };
}

export interface ChainWriterDeps {
  db: Db;
  writer: SuiWriter | null;
  packageId: string;
  readModules?: ReadNormalizedModules | null;
  /** First re-read delay of awaitOutcome (default 100 ms, then backing off). */
  awaitPollMs?: number;
}

const DEFAULT_AWAIT_TIMEOUT_MS = 60_000;

export function createChainWriterService(deps: ChainWriterDeps): ChainWriterService {
  const builders = new Map<string, ChainWriteBuilder>();
  const targets = new Map<string, ChainWriteTarget>();
  const wake = new EventTarget();
  const pollMs = deps.awaitPollMs ?? 100;
  const prisma = deps.db.prisma;

  const get = async (id: string) => {
    const row = await prisma.chainWrite.findUnique({ where: { id: BigInt(id) } });
    return row && toRecord(row);
  };

  return {
    configured: deps.writer !== null,
    writer: deps.writer,
    packageId: deps.packageId,
    wake,
    readModules: deps.readModules ?? null,
    register(kind, builder, target) {
      if (builders.has(kind)) throw new Error(`chain write kind "${kind}" is already registered`);
      builders.set(kind, builder);
      if (target) targets.set(kind, target);
    },
    builderOf: (kind) => builders.get(kind),
    targets: () => [...targets].map(([kind, target]) => ({ kind, ...target })),
    async enqueue({ kind, key, payload }) {
      if (!builders.has(kind)) throw new Error(`chain write kind "${kind}" has no builder`);
      if (!deps.writer) throw new AppError('SERVICE_UNAVAILABLE', 'chain writes are not configured (CHAIN.BACKEND_WALLET_PRIVATE_KEY, CHAIN.SUI_URL)');
      // ON CONFLICT DO NOTHING: concurrent callers with one key get one row, never an error.
      await deps.db.query('INSERT INTO chain_write (kind, idempotency_key, payload) VALUES ($1, $2, $3::jsonb) ON CONFLICT (idempotency_key) DO NOTHING', [kind, key, JSON.stringify(payload)]);
      const row = await prisma.chainWrite.findUniqueOrThrow({ where: { idempotencyKey: key } });
      wake.dispatchEvent(new Event('enqueued'));
      return toRecord(row);
    },
    get,
    async getByKey(key) {
      const row = await prisma.chainWrite.findUnique({ where: { idempotencyKey: key } });
      return row && toRecord(row);
    },
    async awaitOutcome(id, { signal, timeoutMs = DEFAULT_AWAIT_TIMEOUT_MS } = {}) {
      const deadline = Date.now() + timeoutMs;
      // Re-reads back off (×1.5 up to 1 s) so many waiting callers do not crowd the database.
      for (let wait = pollMs; ; wait = Math.min(wait * 1.5, 1000)) {
        const record = await get(id);
        if (!record) throw new Error(`chain write ${id} does not exist`);
        if (isFinished(record)) return record;
        if (Date.now() >= deadline) throw new ChainWriteTimeoutError(record);
        signal?.throwIfAborted();
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, Math.min(wait, Math.max(0, deadline - Date.now())));
          signal?.addEventListener('abort', done, { once: true });
          function done() {
            clearTimeout(timer);
            signal?.removeEventListener('abort', done);
            resolve();
          }
        });
      }
    },
  };
}
