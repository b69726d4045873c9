// The one writer: holds the leader lease and handles chain_write one row at a time. A submitted
// row always comes first (the wallet's gas coins depend on its outcome): it is resolved by digest
// (found: its effects; unknown and still executable: the SAME bytes are sent again) before any
// other row runs. Then the oldest queued row that is due: dry-run, signed and stored as
// `submitted` (digest + bytes) before the node sees it. A transient failure leaves the row where it
// was with its error and a due time (bounded exponential backoff), and other due rows go on.
import { setTimeout as sleep } from 'node:timers/promises';
import { Counter, type Registry } from 'prom-client';
import type { Db } from '../../db/client';
import type { Logger } from '../../observability/logger';
import type { ChainWrite } from '../../generated/prisma/client';
import { functionDifferences, moduleQuery } from '../../chain-events/contract-check';
import { DryRunFailedError, GasCeilingError, isTransientNodeError, NodeRefusedError } from '../../providers/sui-write-inputs';
import type { BuiltTransaction, ExecutionOutcome, SignedTransaction } from '../../providers/sui-writer';
import { ChainWriteRejectedError, toRecord, type ChainWriterService } from './service';

export const CHAIN_WRITER_LOCK_KEY = 'platform:chain-writer:leader';

export interface ChainWriterLoopOptions {
  /** How often the idle leader looks for work enqueued by other replicas (default 500 ms; its own process wakes it at once). */
  pollMs?: number;
  /** How often a standby replica tries to take the writer lease (default 2 s). */
  leaseRetryMs?: number;
  /** Budget of one execute call before its outcome counts as unknown (default 30 s). */
  executeTimeoutMs?: number;
  /** Attempts of a queued write failing transiently before it is `failed` (default 8; CHAIN.WRITE_MAX_ATTEMPTS). */
  maxAttempts?: number;
  /** Wait after a write's first transient failure, doubled after each further one (default 1 s; CHAIN.WRITE_BACKOFF_BASE_MS). */
  backoffBaseMs?: number;
  /** The longest wait between two attempts (default 60 s; CHAIN.WRITE_BACKOFF_MAX_MS). */
  backoffMaxMs?: number;
  /** The clock of attempts and their due times (tests: a fake one). */
  now?: () => Date;
}

export interface ChainWriterLoopDeps {
  db: Db;
  service: ChainWriterService;
  logger: Logger;
  registry?: Registry;
}

export interface ChainWriterLoop {
  /** Whether this process currently holds the writer lease. */
  readonly leading: boolean;
  /** Write kinds whose call target on chain differs from the builder's (their pending rows wait), with each difference; set when leading. */
  readonly refusedTargets: ReadonlyMap<string, readonly string[]>;
  /** The targets were read from the node this lease (or there is nothing to check). */
  readonly targetsChecked: boolean;
  stop(): Promise<void>;
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 1000);

/** What went wrong while building: the dry run's and the ceiling's refusals say so themselves. */
const buildError = (err: unknown) => (err instanceof DryRunFailedError || err instanceof GasCeilingError ? errorText(err) : `build: ${errorText(err)}`);

type Unfinished = 'queued' | 'submitted';

export function startChainWriterLoop(deps: ChainWriterLoopDeps, opts: ChainWriterLoopOptions = {}): ChainWriterLoop {
  const writer = deps.service.writer;
  if (!writer) throw new Error('chain writer loop needs a configured writer');
  const logger = deps.logger.child({ component: 'chain-writer' });
  const pollMs = opts.pollMs ?? 500;
  const leaseRetryMs = opts.leaseRetryMs ?? 2000;
  const executeTimeoutMs = opts.executeTimeoutMs ?? 30_000;
  const maxAttempts = opts.maxAttempts ?? 8;
  const backoffBaseMs = opts.backoffBaseMs ?? 1000;
  const backoffMaxMs = Math.max(opts.backoffMaxMs ?? 60_000, backoffBaseMs);
  const clock = opts.now ?? (() => new Date());
  const prisma = deps.db.prisma;
  const registers = deps.registry ? [deps.registry] : [];
  const writes = new Counter({ name: 'chain_writes_total', help: 'Finished chain writes by kind and outcome', labelNames: ['kind', 'outcome'], registers });
  const resends = new Counter({ name: 'chain_write_resends_total', help: 'Signed transactions sent again after a lost answer and an unknown digest', registers });
  const retries = new Counter({ name: 'chain_write_retries_total', help: 'Transient failures of a chain write attempt, each retried after a backoff', labelNames: ['kind'], registers });
  const stopping = new AbortController();
  let leading = false;
  let targetsChecked = false;
  const refused = new Map<string, string[]>();

  /** The wait after a write's `attempt`-th transient failure: base · 2^(attempt−1), at most the cap. */
  const backoff = (attempt: number) => Math.min(backoffMaxMs, backoffBaseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 30));

  /**
   * Compares each registered call target with the package on the node. A kind whose function is
   * missing or takes other parameters is not run: its queued rows wait (rows already submitted
   * are still resolved by digest), and the log names each difference.
   */
  async function checkTargets(signal: AbortSignal): Promise<void> {
    refused.clear();
    const read = deps.service.readModules;
    const targets = deps.service.targets().filter((t) => t.packageId);
    for (const target of read ? targets : []) {
      const modules = await read!(target.packageId!, moduleQuery([], [target.call]), signal);
      const differences = functionDifferences(modules, target.call);
      if (differences.length === 0) continue;
      refused.set(target.kind, differences);
      logger.error(
        { kind: target.kind, packageId: target.packageId, differences },
        `chain writer: ${target.kind} not run: package ${target.packageId} differs from the call the writer builds: ${differences.join('; ')}`,
      );
    }
    targetsChecked = true;
  }

  /** Resolves after `ms`, or at once when work is enqueued in this process or the loop stops. */
  function idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        deps.service.wake.removeEventListener('enqueued', done);
        stopping.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      deps.service.wake.addEventListener('enqueued', done);
      stopping.signal.addEventListener('abort', done);
    });
  }

  // Every change below is guarded by the status the row was read in, so a write an operator
  // cancelled meanwhile (queued → cancelled) is left alone.

  async function finish(row: ChainWrite, from: Unfinished, outcome: ExecutionOutcome, resolvedByDigest: boolean, attempt: number): Promise<void> {
    const done = await prisma.chainWrite.updateMany({
      where: { id: row.id, status: from },
      data: {
        status: outcome.success ? 'confirmed' : 'failed',
        effectsStatus: outcome.success ? 'success' : 'failure',
        gasUsed: outcome.gasTotal.toString(),
        gasDetail: { ...outcome.gasUsed },
        error: outcome.error,
        resolvedByDigest,
        attempts: attempt,
        nextAttemptAt: null,
        finishedAt: clock(),
        ...(outcome.success ? {} : { failures: { increment: 1 } }),
      },
    });
    if (done.count !== 1) return;
    writes.inc({ kind: row.kind, outcome: outcome.success ? 'success' : 'failure' });
    logger.info({ id: row.id.toString(), kind: row.kind, digest: outcome.digest, success: outcome.success, gas: outcome.gasTotal.toString(), error: outcome.error ?? undefined }, 'chain write finished');
  }

  async function fail(row: ChainWrite, from: Unfinished, error: string, attempt: number): Promise<void> {
    const done = await prisma.chainWrite.updateMany({
      where: { id: row.id, status: from },
      data: { status: 'failed', error, attempts: attempt, nextAttemptAt: null, finishedAt: clock(), failures: { increment: 1 } },
    });
    if (done.count !== 1) return;
    writes.inc({ kind: row.kind, outcome: 'failure' });
    logger.warn({ id: row.id.toString(), kind: row.kind, attempts: attempt, error }, 'chain write failed');
  }

  /** The row stays where it is, due again after the backoff of its `attempt`-th failure. */
  async function retryLater(row: ChainWrite, from: Unfinished, attempt: number, error: string): Promise<void> {
    const delayMs = backoff(attempt);
    const nextAttemptAt = new Date(clock().getTime() + delayMs);
    const done = await prisma.chainWrite.updateMany({ where: { id: row.id, status: from }, data: { attempts: attempt, error, nextAttemptAt } });
    if (done.count !== 1) return;
    retries.inc({ kind: row.kind });
    logger.warn({ id: row.id.toString(), kind: row.kind, status: from, attempt, retryInMs: delayMs, error }, 'chain write attempt failed; trying again after the backoff');
  }

  /** A queued row's failed attempt: transient ones are retried up to maxAttempts, anything else fails the row now. */
  function attemptFailed(row: ChainWrite, attempt: number, error: string, transient: boolean): Promise<void> {
    if (!transient) return fail(row, 'queued', error, attempt);
    if (attempt >= maxAttempts) return fail(row, 'queued', `gave up after ${attempt} attempts: ${error}`, attempt);
    return retryLater(row, 'queued', attempt, error);
  }

  const storedOf = (row: ChainWrite): SignedTransaction => ({ digest: row.digest!, bytes: row.txBytes!, signature: row.signature! });

  async function send(row: ChainWrite, signed: SignedTransaction, attempt: number, signal: AbortSignal, resent: boolean): Promise<void> {
    let outcome: ExecutionOutcome;
    try {
      outcome = await writer!.execute(signed, { signal: AbortSignal.any([signal, AbortSignal.timeout(executeTimeoutMs)]) });
    } catch (err) {
      if (signal.aborted) throw err;
      // Refused again after the digest was looked up and not found: these bytes will not run; the row fails (never rebuilt).
      if (resent && err instanceof NodeRefusedError && !isTransientNodeError(err)) return fail(row, 'submitted', `refused by the node: ${errorText(err)}`, attempt);
      // No definite answer: the node may or may not have it. The row stays `submitted` and is looked up by digest when due.
      return retryLater(row, 'submitted', attempt, `${err instanceof NodeRefusedError ? 'refused by the node' : 'outcome unknown'}: ${errorText(err)}`);
    }
    await finish(row, 'submitted', outcome, resent, attempt);
  }

  /**
   * Where a transaction signed before stands: executed (its outcome), or not and never able to
   * (a gas coin it pays with moved on), or not yet (it may still run). The coins are read before
   * the digest, so a transaction executing in between is found by the look-up.
   */
  async function standing(row: ChainWrite, signal: AbortSignal): Promise<{ outcome: ExecutionOutcome } | 'dead' | 'pending'> {
    const current = await writer!.paymentCurrent(storedOf(row), { signal });
    const outcome = await writer!.lookup(row.digest!, { signal });
    if (outcome) return { outcome };
    return current ? 'pending' : 'dead';
  }

  /**
   * A queued row signed before (a failed write an operator queued again): its transaction is
   * looked up first. Executed successfully → confirmed, nothing new is sent; failed on chain or no
   * longer executable → false (build a new one); not found but still executable → the same bytes
   * are sent again. Never a second transaction while the first may still run.
   */
  async function settledEarlier(row: ChainWrite, attempt: number, signal: AbortSignal): Promise<boolean> {
    let state: Awaited<ReturnType<typeof standing>>;
    try {
      state = await standing(row, signal);
    } catch (err) {
      if (signal.aborted) throw err;
      await attemptFailed(row, attempt, `look-up of ${row.digest}: ${errorText(err)}`, isTransientNodeError(err));
      return true;
    }
    if (state === 'dead' || (typeof state === 'object' && !state.outcome.success)) return false;
    if (typeof state === 'object') {
      await finish(row, 'queued', state.outcome, true, attempt);
      return true;
    }
    const claimed = await prisma.chainWrite.updateMany({ where: { id: row.id, status: 'queued', attempts: row.attempts }, data: { status: 'submitted', submittedAt: clock(), attempts: attempt, error: null, nextAttemptAt: null } });
    if (claimed.count === 1) await send(row, storedOf(row), attempt, signal, true);
    return true;
  }

  async function submitQueued(row: ChainWrite, signal: AbortSignal): Promise<void> {
    const attempt = row.attempts + 1;
    const builder = deps.service.builderOf(row.kind);
    if (!builder) return fail(row, 'queued', `no builder registered for kind "${row.kind}"`, attempt);
    if (row.digest && row.txBytes && row.signature && (await settledEarlier(row, attempt, signal))) return;
    const record = toRecord(row);
    let signed: BuiltTransaction;
    try {
      signed = await writer!.build((tx) => builder(tx, record.payload, { sender: writer!.address, packageId: deps.service.packageId }), { signal });
    } catch (err) {
      if (signal.aborted) throw err;
      return attemptFailed(row, attempt, buildError(err), !(err instanceof ChainWriteRejectedError) && isTransientNodeError(err));
    }
    // Stored before the node sees it: from here on the write is only ever resolved by this digest.
    const claimed = await prisma.chainWrite.updateMany({
      where: { id: row.id, status: 'queued', attempts: row.attempts },
      data: {
        status: 'submitted',
        digest: signed.digest,
        txBytes: signed.bytes,
        signature: signed.signature,
        gasBudget: signed.gasBudget.toString(),
        submittedAt: clock(),
        attempts: attempt,
        error: null,
        nextAttemptAt: null,
        effectsStatus: null,
        gasUsed: null,
        resolvedByDigest: false,
      },
    });
    if (claimed.count !== 1) return;
    await send(row, signed, attempt, signal, false);
  }

  async function resolveSubmitted(row: ChainWrite, signal: AbortSignal): Promise<void> {
    const attempt = row.attempts + 1;
    let state: Awaited<ReturnType<typeof standing>>;
    try {
      state = await standing(row, signal);
    } catch (err) {
      if (signal.aborted) throw err;
      // A submitted write is never given up on while its outcome is unknown: it is looked up again, backing off.
      return retryLater(row, 'submitted', attempt, `look-up: ${errorText(err)}`);
    }
    if (typeof state === 'object') return finish(row, 'submitted', state.outcome, true, attempt);
    if (state === 'dead') return fail(row, 'submitted', `never executed: a gas coin of ${row.digest} moved on without it, so it can no longer run`, attempt);
    logger.warn({ id: row.id.toString(), digest: row.digest }, 'chain write unknown to the node after a lost answer: sending the same signed bytes again');
    resends.inc();
    await prisma.chainWrite.updateMany({ where: { id: row.id, status: 'submitted' }, data: { attempts: attempt } });
    await send(row, storedOf(row), attempt, signal, true);
  }

  /** Handles one row; answers 0 when it did, else how long until a queued row is due (null: none). */
  async function step(signal: AbortSignal): Promise<number | null> {
    const now = clock();
    const submitted = await prisma.chainWrite.findFirst({ where: { status: 'submitted' }, orderBy: { id: 'asc' } });
    if (submitted) {
      if (submitted.nextAttemptAt && submitted.nextAttemptAt > now) return submitted.nextAttemptAt.getTime() - now.getTime();
      await resolveSubmitted(submitted, signal);
      return 0;
    }
    const runnable = { status: 'queued', kind: { notIn: [...refused.keys()] } };
    const due = await prisma.chainWrite.findFirst({ where: { ...runnable, OR: [{ nextAttemptAt: null }, { nextAttemptAt: { lte: now } }] }, orderBy: { id: 'asc' } });
    if (due) {
      await submitQueued(due, signal);
      return 0;
    }
    const later = await prisma.chainWrite.findFirst({ where: { ...runnable, nextAttemptAt: { gt: now } }, orderBy: { nextAttemptAt: 'asc' }, select: { nextAttemptAt: true } });
    return later?.nextAttemptAt ? later.nextAttemptAt.getTime() - now.getTime() : null;
  }

  async function lead(leaseSignal: AbortSignal): Promise<void> {
    const signal = AbortSignal.any([stopping.signal, leaseSignal]);
    let retryMs = backoffBaseMs;
    targetsChecked = false;
    while (!signal.aborted && !targetsChecked) {
      try {
        await checkTargets(signal);
      } catch (err) {
        if (signal.aborted) return;
        logger.warn({ err: errorText(err), retryInMs: retryMs }, 'chain writer: could not read the call targets from the node; trying again');
        await sleep(retryMs, undefined, { signal }).catch(() => undefined);
        retryMs = Math.min(retryMs * 2, backoffMaxMs);
      }
    }
    retryMs = backoffBaseMs;
    while (!signal.aborted) {
      try {
        const wait = await step(signal);
        retryMs = backoffBaseMs;
        // Never longer than pollMs: other replicas enqueue without waking this one.
        if (wait !== 0) await idle(wait === null ? pollMs : Math.max(1, Math.min(wait, pollMs)));
      } catch (err) {
        if (signal.aborted) return;
        // The database (or a bug): the rows are as they were; the same step is tried again.
        logger.warn({ err: errorText(err), retryInMs: retryMs }, 'chain write step failed; trying again');
        await sleep(retryMs, undefined, { signal }).catch(() => undefined);
        retryMs = Math.min(retryMs * 2, backoffMaxMs);
      }
    }
  }

  const done = (async () => {
    while (!stopping.signal.aborted) {
      try {
        const outcome = await deps.db.withAdvisoryLock(CHAIN_WRITER_LOCK_KEY, async (lease) => {
          leading = true;
          logger.info('chain writer: leading');
          try {
            await lead(lease.signal);
          } finally {
            leading = false;
          }
        });
        if (!outcome.acquired) await sleep(leaseRetryMs, undefined, { signal: stopping.signal }).catch(() => undefined);
      } catch (err) {
        logger.error({ err: errorText(err) }, 'chain writer: lease error');
        await sleep(leaseRetryMs, undefined, { signal: stopping.signal }).catch(() => undefined);
      }
    }
  })();

  return {
    get leading() {
      return leading;
    },
    get refusedTargets() {
      return refused;
    },
    get targetsChecked() {
      return targetsChecked;
    },
    async stop() {
      stopping.abort(new Error('chain writer stopping'));
      await done;
    },
  };
}
