/**
 * Chain writes through the operator console (/console/#chain-writes) in headless Chromium, against
 * the fixture chain (api + jobs in this process): a write that failed on chain is listed by status,
 * its detail opened, and the operator wallet's retry from the page queues it again; it confirms on
 * the fixture chain with a new transaction, and the retry is audited under the operator's wallet.
 */
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giveawaySettleKey, GIVEAWAY_SETTLE_KIND } from '../../src/services/giveaways/service';
import { startSuiChainFixture, type SuiChainFixture } from '../fixtures/sui-chain';
import { startApi, type TestApi } from '../helpers/api';
import { haveChromium, launchChromium, signInToConsole } from '../helpers/browser';

const operatorKey = new Ed25519Keypair();
const OPERATOR = operatorKey.toSuiAddress();
const backend = new Ed25519Keypair();
let chain: SuiChainFixture;
let api: TestApi;

beforeAll(async () => {
  chain = await startSuiChainFixture({ events: 10 });
  chain.writes.fund(backend.toSuiAddress());
  api = await startApi({
    roles: ['api', 'jobs'],
    env: {
      'CHAIN.SUI_URL': chain.graphqlUrl,
      'CHAIN.SUI_TRANSPORT': 'graphql',
      'CHAIN.BACKEND_WALLET_PRIVATE_KEY': backend.getSecretKey(),
      PLATFORM_PACKAGE_ID: chain.packageId,
      'CHAIN.WRITE_TIMEOUT_MS': '5000',
      'CHAIN.GIVEAWAY_AUTO_SETTLEMENT_DISABLED': 'true',
      INDEXER_DISABLED: 'true',
      OPERATOR_WALLETS: OPERATOR,
    },
  });
}, 120_000);
afterAll(async () => {
  await api?.close();
  await chain?.close();
});

describe.skipIf(!haveChromium())('chain writes in the console', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => browser?.close());

  it('retries a failed write from the page, and it confirms against the fixture chain', async () => {
    // A giveaway settlement whose transaction fails on chain (its effects say failure).
    const giveawayId = chain.writes.addShared(`${chain.packageId}::giveaway::Giveaway`).id;
    chain.writes.switches.failNext = 1;
    const { id } = await api.services.chainWriter.enqueue({ kind: GIVEAWAY_SETTLE_KIND, key: giveawaySettleKey(giveawayId), payload: { giveawayId } });
    const failed = await api.services.chainWriter.awaitOutcome(id, { timeoutMs: 20_000 });
    expect(failed).toMatchObject({ status: 'failed', effectsStatus: 'failure' });

    const { page, problems } = await signInToConsole(browser, api.url, operatorKey, 'chain-writes');
    await page.getByLabel('Status').selectOption('failed');
    const list = page.getByRole('table', { name: 'Chain writes: failed' });
    const row = list.getByRole('row').filter({ has: page.getByRole('button', { name: `Details of chain write ${id}`, exact: true }) });
    await row.waitFor();
    expect(await row.textContent()).toContain(GIVEAWAY_SETTLE_KIND);
    await row.getByRole('button', { name: `Details of chain write ${id}` }).click();
    const detail = page.getByRole('region', { name: `Chain write ${id}` });
    await detail.waitFor();
    expect(await detail.textContent()).toContain(failed.digest!);
    // A failed write offers a retry, not a cancel.
    expect(await detail.getByRole('button', { name: `Cancel chain write ${id}` }).count()).toBe(0);

    await detail.getByRole('button', { name: `Retry chain write ${id}` }).click();
    await page.getByText(`Chain write ${id} is queued again.`).waitFor();
    const done = await api.services.chainWriter.awaitOutcome(id, { timeoutMs: 20_000 });
    expect(done).toMatchObject({ status: 'confirmed', effectsStatus: 'success' });
    expect(done.digest).not.toBe(failed.digest);
    expect(chain.writes.executions.filter((e) => e.calls.some((c) => c.args[0] === giveawayId)).map((e) => e.success)).toEqual([false, true]);

    // The page shows it confirmed once refreshed.
    await page.getByLabel('Status').selectOption('confirmed');
    await page.getByRole('table', { name: 'Chain writes: confirmed' }).getByRole('button', { name: `Details of chain write ${id}`, exact: true }).waitFor();

    const audit = await api.db.prisma.operatorAudit.findMany({ where: { action: 'chain-writes.retry', target: id } });
    expect(audit.map((a) => a.actor)).toEqual([OPERATOR]);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});
