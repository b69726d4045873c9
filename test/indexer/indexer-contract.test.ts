import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_TARGETS } from '../../src/chain-events/contract.js';
import { functionDifferences, moduleQuery } from '../../src/chain-events/contract-check.js';
import { KIND_LIST, eventTypeOf } from '../../src/indexer/kinds.js';
import { createMoveModuleReader } from '../../src/providers/sui-move-modules.js';
import { platformModules, retypedField, startSuiChainFixture, withoutField, type SuiChainFixture } from '../fixtures/sui-chain/index.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { inProcessIndexer, tableCounts, waitUntil } from '../helpers/indexer.js';

const transports = ['graphql', 'grpc'] as const;

/** A logger whose lines the test reads. */
function capturedLogger() {
  const lines: Array<{ msg: string; kind?: string; differences?: string[] }> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describe.each(transports)('the indexer checks the chain contract at start (%s)', (transport) => {
  let chain: SuiChainFixture;
  let t: TestDb;

  beforeAll(async () => {
    // The package's BetResultEvent has no `won`, and HouseLiquidityEvent's amount is a u128.
    chain = await startSuiChainFixture({
      seed: 41,
      events: 600,
      moveModules: (m) => retypedField(withoutField(m, 'game::BetResultEvent', 'won'), 'house::HouseLiquidityEvent', 'amount', 'u128'),
    });
    t = await createTestDb();
  });
  afterAll(async () => {
    await chain?.close();
    await t?.cleanup();
  });

  it('refuses the kinds whose event differs, naming each difference, and follows the others; the matching package starts them', async () => {
    const { logger, lines } = capturedLogger();
    const a = inProcessIndexer(t.db, chain, { transport, logger });
    await a.indexer.start();
    // The refused kinds never catch up, so `live` says every followed kind reached the tip.
    await waitUntil(() => a.indexer.status().mode === 'live', 30_000, 'the followed kinds to reach the tip');

    const byKind = Object.fromEntries(a.indexer.status().kinds.map((k) => [k.kind, k]));
    expect(byKind.bet_result_event.contractDifferences).toEqual(['game::BetResultEvent.won is missing (expected bool)']);
    expect(byKind.house_liquidity_event.contractDifferences).toEqual(['house::HouseLiquidityEvent.amount is u128, expected u64']);
    expect(byKind.bet_result_event.caughtUp).toBe(false);
    for (const k of KIND_LIST.filter((k) => k.key !== 'bet_result_event' && k.key !== 'house_liquidity_event')) {
      expect(byKind[k.key]).toMatchObject({ caughtUp: true, contractDifferences: [] });
    }

    const refusal = lines.find((l) => l.kind === 'bet_result_event' && /not started/.test(l.msg));
    expect(refusal?.msg).toBe(`indexer: bet_result_event not started: package ${chain.packageId} differs from what the indexer reads: game::BetResultEvent.won is missing (expected bool)`);
    expect(refusal?.differences).toEqual(['game::BetResultEvent.won is missing (expected bool)']);
    expect(await a.registry.metrics()).toMatch(/indexer_contract_refused\{kind="bet_result_event"\} 1/);

    const counts = await tableCounts(t.db);
    expect(counts.bet_result_event).toBe(0);
    expect(counts.house_liquidity_event).toBe(0);
    expect(counts.vip_exp_progress_event).toBe(chain.eventsOfType(eventTypeOf({ moveType: 'vip::PlayerVipExpProgressEvent' }, chain.packageId)).length);
    await a.indexer.stop();

    // The package the indexer expects: every kind starts, the refused ones from genesis.
    chain.packages.set(chain.packageId, platformModules(chain.packageId));
    const b = inProcessIndexer(t.db, chain, { transport, logger });
    await b.indexer.start();
    await waitUntil(() => b.indexer.status().mode === 'live', 30_000, 'every kind to reach the tip');
    expect(b.indexer.status().kinds.every((k) => k.caughtUp && k.contractDifferences.length === 0)).toBe(true);
    const after = await tableCounts(t.db);
    expect(after.bet_result_event).toBe(chain.eventsOfType(eventTypeOf({ moveType: 'game::BetResultEvent' }, chain.packageId)).length);
    expect(after.bet_result_event).toBeGreaterThan(0);
    expect(await b.registry.metrics()).toMatch(/indexer_contract_refused\{kind="bet_result_event"\} 0/);
    await b.indexer.stop();
  });

  it('reads function parameters: giveaway::settle matches, a missing function or package is named', async () => {
    const read = createMoveModuleReader({ transport, url: transport === 'graphql' ? chain.graphqlUrl : chain.grpcUrl });
    const settle = CALL_TARGETS['giveaway.settle'];
    const modules = await read(chain.packageId, moduleQuery([], [settle]));
    expect(functionDifferences(modules, settle)).toEqual([]);

    const other = '0x' + 'ab'.repeat(32);
    chain.packages.set(other, { giveaway: { structs: {}, functions: { settle: ['&0x2::clock::Clock'] } } });
    expect(functionDifferences(await read(other, moduleQuery([], [settle])), settle)).toEqual([
      'giveaway::settle takes 1 parameters, expected 2',
      'giveaway::settle parameter 1 is &0x2::clock::Clock, expected &mut giveaway::Giveaway',
    ]);
    expect(functionDifferences(await read('0x' + 'cd'.repeat(32), moduleQuery([], [settle])), settle)).toEqual(['module giveaway is missing (function giveaway::settle)']);
  });
});
