// The one writer: holds the leader lease and drains chain_write strictly one row at a time in id
// order. A row is built, signed and stored as `submitted` (digest + bytes) before the node sees it;
// a lost answer leaves it `submitted`, and the next pass resolves it by digest (found: its effects;
// the node answered "unknown": the SAME bytes are sent again) before any later row runs.
import { setTimeout as sleep } from 'node:timers/promises';
import { Counter, type Registry } from 'prom-client';
import type { Db } from '../../db/client';
import type { Logger } from '../../observability/logger';
import { functionDifferences, moduleQuery } from '../../chain-events/contract-check';
import { NodeRefusedError } from '../../providers/sui-write-inputs';
import type { ExecutionOutcome, SignedTransaction } from '../../providers/sui-writer';
import { ChainWriteRejectedError, toRecord, type ChainWriteRecord, type ChainWriterService } from './service';

export const CHAIN_WRITER_LOCK_KEY = 'platform:chain-writer:leader';

export interface ChainWriterLoopOptions {
  /** How often the idle leader looks for work enqueued by other replicas (default 500 ms; its own process wakes it at once). */
  pollMs?: number;
  /** How often a standby replica tries to take the writer lease (default 2 s). */
  leaseRetryMs?: number;
  /** Budget of one execute call before its outcome counts as unknown (default 30 s). */
  executeTimeoutMs?: number;
  /** Build attempts before a pending row fails for good (default 5). */
  maxBuildAttempts?: number;
  /** Wait after a failed node call before the row is tried again, doubling up to 30 s (default 250 ms). */
  retryDelayMs?: number;
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

export function startChainWriterLoop(deps: ChainWriterLoopDeps, opts: ChainWriterLoopOptions = {}): ChainWriterLoop {
  const writer = deps.service.writer;
  if (!writer) throw new Error('chain writer loop needs a configured writer');
  const logger = deps.logger.child({ component: 'chain-writer' });
  const pollMs = opts.pollMs ?? 500;
  const leaseRetryMs = opts.leaseRetryMs ?? 2000;
  const executeTimeoutMs = opts.executeTimeoutMs ?? 30_000;
  const maxBuildAttempts = opts.maxBuildAttempts ?? 5;
  const baseRetryMs = opts.retryDelayMs ?? 250;
  const prisma = deps.db.prisma;
  const registers = deps.registry ? [deps.registry] : [];
  const writes = new Counter({ name: 'chain_writes_total', help: 'Finished chain writes by kind and outcome', labelNames: ['kind', 'outcome'], registers });
  const resends = new Counter({ name: 'chain_write_resends_total', help: 'Signed transactions sent again after a lost answer and an unknown digest', registers });
  const stopping = new AbortController();
  let leading = false;
  let targetsChecked = false;
  const refused = new Map<string, string[]>();

  /**
   * Compares each registered call target with the package on the node. A kind whose function is
   * missing or takes other parameters is not run: its pending rows wait (rows already submitted
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

  async function finish(record: ChainWriteRecord, outcome: ExecutionOutcome, resolvedByDigest: boolean): Promise<void> {
    await prisma.chainWrite.update({
      where: { id: BigInt(record.id) },
      data: {
        status: outcome.success ? 'success' : 'failure',
        effectsStatus: outcome.success ? 'success' : 'failure',
        gasUsed: outcome.gasTotal.toString(),
        gasDetail: { ...outcome.gasUsed },
        error: outcome.error,
        resolvedByDigest,
        finishedAt: new Date(),
      },
    });
    writes.inc({ kind: record.kind, outcome: outcome.success ? 'success' : 'failure' });
    logger.info({ id: record.id, kind: record.kind, digest: outcome.digest, success: outcome.success, gas: outcome.gasTotal.toString(), error: outcome.error ?? undefined }, 'chain write finished');
  }

  async function fail(record: ChainWriteRecord, error: string): Promise<void> {
    await prisma.chainWrite.update({ where: { id: BigInt(record.id) }, data: { status: 'failure', error, finishedAt: new Date() } });
    writes.inc({ kind: record.kind, outcome: 'failure' });
    logger.warn({ id: record.id, kind: record.kind, error }, 'chain write failed without executing');
  }

  async function send(record: ChainWriteRecord, signed: SignedTransaction, signal: AbortSignal, resolvedByDigest: boolean): Promise<void> {
    let outcome: ExecutionOutcome;
    try {
      outcome = await writer!.execute(signed, { signal: AbortSignal.any([signal, AbortSignal.timeout(executeTimeoutMs)]) });
    } catch (err) {
      // Refused again after the digest was looked up and not found: these bytes will not run; the row fails (never rebuilt).
      if (resolvedByDigest && err instanceof NodeRefusedError) return fail(record, `refused by the node: ${errorText(err)}`);
      // No answer: the node may or may not have it. The row stays `submitted` and is resolved by digest next.
      await prisma.chainWrite.update({ where: { id: BigInt(record.id) }, data: { error: `outcome unknown: ${errorText(err)}` } });
      throw err;
    }
    await finish(record, outcome, resolvedByDigest);
  }

  async function submitPending(record: ChainWriteRecord, signal: AbortSignal): Promise<void> {
    const builder = deps.service.builderOf(record.kind);
    if (!builder) return fail(record, `no builder registered for kind "${record.kind}"`);
    let signed: SignedTransaction;
    try {
      signed = await writer!.build((tx) => builder(tx, record.payload, { sender: writer!.address, packageId: deps.service.packageId }), { signal });
    } catch (err) {
      if (err instanceof ChainWriteRejectedError || record.attempts + 1 >= maxBuildAttempts) return fail(record, `build: ${errorText(err)}`);
      await prisma.chainWrite.update({ where: { id: BigInt(record.id) }, data: { attempts: { increment: 1 }, error: `build: ${errorText(err)}` } });
      throw err;
    }
    // Stored before the node sees it: from here on the write is only ever resolved by this digest.
    const claimed = await prisma.chainWrite.updateMany({
      where: { id: BigInt(record.id), status: 'pending' },
      data: { status: 'submitted', digest: signed.digest, txBytes: signed.bytes, signature: signed.signature, submittedAt: new Date(), attempts: { increment: 1 }, error: null },
    });
    if (claimed.count !== 1) return;
    await send(record, signed, signal, false);
  }

  async function resolveSubmitted(record: ChainWriteRecord, row: { txBytes: string | null; signature: string | null }, signal: AbortSignal): Promise<void> {
    const outcome = await writer!.lookup(record.digest!, { signal });
    if (outcome) return finish(record, outcome, true);
    logger.warn({ id: record.id, digest: record.digest }, 'chain write unknown to the node after a lost answer: sending the same signed bytes again');
    resends.inc();
    await prisma.chainWrite.update({ where: { id: BigInt(record.id) }, data: { attempts: { increment: 1 } } });
    await send(record, { digest: record.digest!, bytes: row.txBytes!, signature: row.signature! }, signal, true);
  }

  /** Handles the oldest unfinished row; false when there is none. */
  async function step(signal: AbortSignal): Promise<boolean> {
    const row = await prisma.chainWrite.findFirst({
      where: { OR: [{ status: 'submitted' }, { status: 'pending', kind: { notIn: [...refused.keys()] } }] },
      orderBy: { id: 'asc' },
    });
    if (!row) return false;
    const record = toRecord(row);
    if (record.status === 'submitted') await resolveSubmitted(record, row, signal);
    else await submitPending(record, signal);
    return true;
  }

  async function lead(leaseSignal: AbortSignal): Promise<void> {
    const signal = AbortSignal.any([stopping.signal, leaseSignal]);
    let retryMs = baseRetryMs;
    targetsChecked = false;
    while (!signal.aborted && !targetsChecked) {
      try {
        await checkTargets(signal);
      } catch (err) {
        if (signal.aborted) return;
        logger.warn({ err: errorText(err), retryInMs: retryMs }, 'chain writer: could not read the call targets from the node; trying again');
        await sleep(retryMs, undefined, { signal }).catch(() => undefined);
        retryMs = Math.min(retryMs * 2, 30_000);
      }
    }
    retryMs = baseRetryMs;
    while (!signal.aborted) {
      try {
        if (!(await step(signal))) await idle(pollMs);
        retryMs = baseRetryMs;
      } catch (err) {
        if (signal.aborted) return;
        logger.warn({ err: errorText(err), retryInMs: retryMs }, 'chain write step failed; the same row is tried again');
        await sleep(retryMs, undefined, { signal }).catch(() => undefined);
        retryMs = Math.min(retryMs * 2, 30_000);
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
