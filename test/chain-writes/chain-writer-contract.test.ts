import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../helpers/db';
import { captureLogger } from '../helpers/logs';
import { waitUntil } from '../helpers/indexer';
import { platformModules, startSuiChainFixture, type SuiChainFixture } from '../fixtures/sui-chain';
import { giveawaySettleKey, GIVEAWAY_SETTLE_KIND, registerGiveawaySettle } from '../../src/services/giveaways/service';
import { createChainWriterService } from '../../src/services/chain-writes/service';
import { startChainWriterLoop } from '../../src/services/chain-writes/loop';
import { createSuiWriter } from '../../src/providers/sui-writer';
import { createMoveModuleReader } from '../../src/providers/sui-move-modules';

// The writer compares each call target with the package on the node before it runs that kind.

let chain: SuiChainFixture;
let t: TestDb;
const wallet = new Ed25519Keypair();

beforeAll(async () => {
  // The package's settle takes the giveaway by immutable reference and no clock.
  chain = await startSuiChainFixture({
    events: 10,
    moveModules: (m) => ({ ...m, giveaway: { ...m.giveaway, functions: { settle: [`&${m.giveaway.functions.settle[0].slice('&mut '.length)}`] } } }),
  });
  chain.writes.fund(wallet.toSuiAddress());
  t = await createTestDb();
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
  await chain?.close();
});

function writerAgainstChain() {
  const { logger, logs } = captureLogger({ level: 'info', secretValues: [wallet.getSecretKey()] });
  const writer = createSuiWriter({ url: chain.graphqlUrl, transport: 'graphql', network: 'testnet', privateKey: wallet.getSecretKey(), gasCeiling: 50_000_000n, gasMarginPercent: 20 });
  const readModules = createMoveModuleReader({ url: chain.graphqlUrl, transport: 'graphql' });
  const service = createChainWriterService({ db: t.db, writer, packageId: chain.packageId, readModules, awaitPollMs: 50 });
  registerGiveawaySettle(service);
  const loop = startChainWriterLoop({ db: t.db, service, logger }, { pollMs: 50, leaseRetryMs: 200, executeTimeoutMs: 2000, backoffBaseMs: 50 });
  return { service, loop, logs };
}

describe('chain writer contract check', () => {
  it('does not run a kind whose target differs, naming each difference; with the matching package the waiting write runs', async () => {
    const a = writerAgainstChain();
    await waitUntil(() => a.loop.leading && a.loop.targetsChecked, 10_000, 'the writer to lead and check its targets');
    const differences = ['giveaway::settle takes 1 parameters, expected 2', 'giveaway::settle parameter 1 is &giveaway::Giveaway, expected &mut giveaway::Giveaway'];
    // The fixture names the package's own type with its full address.
    const shown = differences.map((d) => d.replace('is &giveaway', `is &${chain.packageId.replace(/^0x0*/, '0x')}::giveaway`));
    expect(a.loop.refusedTargets.get(GIVEAWAY_SETTLE_KIND)).toEqual(shown);
    const line = a.logs.lines.find((l) => l.kind === GIVEAWAY_SETTLE_KIND && /not run/.test(l.msg ?? ''));
    expect(line?.msg).toBe(`chain writer: ${GIVEAWAY_SETTLE_KIND} not run: package ${chain.packageId} differs from the call the writer builds: ${shown.join('; ')}`);

    const id = chain.writes.addShared(`${chain.packageId}::giveaway::Giveaway`).id;
    const record = await a.service.enqueue({ kind: GIVEAWAY_SETTLE_KIND, key: giveawaySettleKey(id), payload: { giveawayId: id } });
    const waiting = await a.service.awaitOutcome(record.id, { timeoutMs: 500 }).catch((err: { record?: { status: string } }) => err.record);
    expect(waiting?.status).toBe('queued');
    expect(chain.writes.executions).toHaveLength(0);
    await a.loop.stop();

    chain.packages.set(chain.packageId, platformModules(chain.packageId));
    const b = writerAgainstChain();
    const done = await b.service.awaitOutcome(record.id, { timeoutMs: 20_000 });
    expect(done.status).toBe('confirmed');
    expect(b.loop.refusedTargets.size).toBe(0);
    expect(chain.writes.executions.flatMap((e) => e.calls.map((c) => c.target))).toEqual([`${chain.packageId}::giveaway::settle`]);
    await b.loop.stop();
  });
});
