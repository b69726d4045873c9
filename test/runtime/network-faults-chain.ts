// Chain writes under the network faults (issue 45 item 8, test/runtime/edge-network-faults.test.ts): a
// writer as the jobs role runs it (service and loop) whose PostgreSQL is reached through the fault
// proxy, sending to the fixture chain. A giveaway settle is queued while a fault lasts (retried on an
// error or a time-out, as a caller would: the idempotency key keeps it one row); afterwards the chain
// must have executed it exactly once.
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { createDb, type Db } from '../../src/db/client';
import { createSuiWriter } from '../../src/providers/sui-writer';
import { startChainWriterLoop, type ChainWriterLoop } from '../../src/services/chain-writes/loop';
import { createChainWriterService, type ChainWriteRecord, type ChainWriterService } from '../../src/services/chain-writes/service';
import { giveawaySettleKey, GIVEAWAY_SETTLE_KIND, registerGiveawaySettle } from '../../src/services/giveaways/service';
import { startSuiChainFixture, type SuiChainFixture } from '../fixtures/sui-chain';
import { testLogger } from '../helpers/db';

export interface ChainRig {
  chain: SuiChainFixture;
  service: ChainWriterService;
  /** Queues one settle of a new shared object, retried until a row stands for it; the object's id and the row. */
  queueSettle(timeoutMs: number, deadline: number): Promise<{ giveawayId: string; record: ChainWriteRecord; attempts: number }>;
  /** How many executed transactions settled `giveawayId`. */
  executionsOf(giveawayId: string): number;
  close(): Promise<void>;
}

/** The writer on `databaseUrl` (the fault proxy's address), with a funded wallet on a fresh fixture chain. */
export async function startChainRig(databaseUrl: string, dataDir: string): Promise<ChainRig> {
  const chain = await startSuiChainFixture({ events: 10 });
  const wallet = new Ed25519Keypair();
  chain.writes.fund(wallet.toSuiAddress());
  const db: Db = await createDb({ databaseUrl, dataDir, logger: testLogger, poolMax: 3 });
  const writer = createSuiWriter({ url: chain.graphqlUrl, transport: 'graphql', network: 'testnet', privateKey: wallet.getSecretKey(), gasCeiling: 50_000_000n, gasMarginPercent: 20 });
  const service = createChainWriterService({ db, writer, packageId: chain.packageId, awaitPollMs: 50 });
  registerGiveawaySettle(service);
  const loop: ChainWriterLoop = startChainWriterLoop({ db, service, logger: testLogger }, { pollMs: 50, leaseRetryMs: 200, executeTimeoutMs: 2_000, backoffBaseMs: 50 });
  const target = `${chain.packageId}::giveaway::settle`;

  return {
    chain,
    service,
    async queueSettle(timeoutMs, deadline) {
      const giveawayId = chain.writes.addShared(`${chain.packageId}::giveaway::Giveaway`).id;
      const request = { kind: GIVEAWAY_SETTLE_KIND, key: giveawaySettleKey(giveawayId), payload: { giveawayId } };
      for (let attempts = 1; ; attempts++) {
        const record = await Promise.race([
          service.enqueue(request),
          new Promise<null>((resolve) => setTimeout(() => resolve(null), timeoutMs).unref()),
        ]).catch(() => null);
        if (record) return { giveawayId, record, attempts };
        if (Date.now() > deadline) throw new Error(`the settle of ${giveawayId} was never queued`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    executionsOf: (giveawayId) => chain.writes.executions.filter((e) => e.calls.some((c) => c.target === target && c.args[0] === giveawayId)).length,
    async close() {
      await loop.stop();
      await db.close();
      await chain.close();
    },
  };
}
