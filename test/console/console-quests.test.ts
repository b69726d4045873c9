/**
 * Campaigns and quests through the operator console (/console/#campaigns) in headless Chromium:
 * an operator wallet creates a campaign and adds a quest from the page; a player (a real Ed25519
 * wallet, logged in by signature) completes it with bets in the indexed tables and claims it. An
 * edit based on a stale version is refused with the API's VERSION_CONFLICT message; switching the
 * quest off from the page shows it inactive. Every action is audited under the operator's wallet.
 */
import { randomBytes } from 'node:crypto';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_FIELDS } from '../../src/generated/openapi-forms';
import { startApi, type TestApi } from '../helpers/api';
import { loginWithKeypair } from '../helpers/auth';
import { haveChromium, launchChromium, signInToConsole, utcMinute } from '../helpers/browser';
import { until } from '../helpers/until';
import { betEvent, indexBets } from '../quests/quests-helpers';

const operatorKey = new Ed25519Keypair();
const OPERATOR = operatorKey.toSuiAddress();
const HOUR = 3_600_000;
let api: TestApi;

beforeAll(async () => {
  api = await startApi({ env: { OPERATOR_WALLETS: OPERATOR } });
}, 60_000);
afterAll(async () => api?.close());

async function call(method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(`${api.url}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several shapes, read field by field
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

describe.skipIf(!haveChromium())('campaigns and quests in the console', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => browser?.close());

  it('creates a campaign with one quest that a player completes and claims; a stale edit is refused', async () => {
    const { page, problems } = await signInToConsole(browser, api.url, operatorKey, 'campaigns');
    const slug = `console-${randomBytes(3).toString('hex')}`;
    const create = page.getByRole('form', { name: 'Create a campaign' });
    // The form follows the API document: one control for each field of the campaign body.
    await create.getByLabel('Slug').waitFor();
    const controls = await create.locator('[name]').evaluateAll((els) => els.map((el) => el.getAttribute('name')));
    expect(controls.sort()).toEqual((FORM_FIELDS['POST /api/admin/campaigns'] ?? []).map((f) => f.name).sort());
    await create.getByLabel('Slug').fill(slug);
    await create.getByLabel('Type').fill('partner');
    await create.getByLabel('Title').fill('Console week');
    await create.getByLabel('Starts (UTC)').fill(utcMinute(new Date(Date.now() - HOUR)));
    await create.getByLabel('Ends (UTC)').fill(utcMinute(new Date(Date.now() + 48 * HOUR)));
    await create.getByRole('button', { name: 'Create campaign' }).click();
    await page.getByText(`Created campaign ${slug}.`).waitFor();

    const panel = page.getByRole('region', { name: `Campaign ${slug}` });
    const add = panel.getByRole('form', { name: `Add a quest to ${slug}` });
    await add.getByLabel('Quest key (optional)').fill('bet-once');
    await add.getByLabel('Title').fill('Bet once');
    await add.getByLabel('XP reward').fill('25');
    await add.getByLabel('Period').selectOption('daily');
    await add.getByLabel('Evaluator', { exact: true }).selectOption('bets_placed');
    await add.getByLabel('Target').fill('1');
    await add.getByRole('button', { name: 'Add quest' }).click();
    await page.getByText(`Added quest bet-once to ${slug}.`).waitFor();
    const quests = page.getByRole('table', { name: `Quests of ${slug}` });
    const questRow = quests.getByRole('row').filter({ hasText: 'bet-once' });
    await questRow.waitFor();
    expect(await questRow.textContent()).toContain('active');

    // The player: a real wallet, logged in by signature, plays (its bet in the indexed tables) and claims.
    const player = await loginWithKeypair(api.url, new Ed25519Keypair());
    const statusPath = `/api/quests/campaigns/${slug}/indexed/bet-once/status`;
    expect((await call('GET', statusPath, player.accessToken)).body.status).toMatchObject({ completed: false });
    await indexBets(api.db, api.services.quests, [betEvent(player.address, new Date())]);
    expect((await call('GET', statusPath, player.accessToken)).body.status).toMatchObject({ progress: '1', completed: true, claimable: true });
    const claim = await call('POST', `/api/quests/campaigns/${slug}/bet-once/claim`, player.accessToken, {});
    expect(claim.status, JSON.stringify(claim.body)).toBe(200);
    expect(claim.body.claim).toMatchObject({ campaignSlug: slug, questKey: 'bet-once', player: player.address, xpReward: 25 });

    // A stale edit: the form holds version 1, another operator's edit made it 2.
    await questRow.getByRole('button', { name: 'Edit quest bet-once' }).click();
    const edit = page.getByRole('form', { name: 'Edit quest bet-once' });
    await edit.getByLabel('XP reward').fill('40');
    const elsewhere = await call('PATCH', `/api/admin/campaigns/${slug}/quests/bet-once`, api.services.tokens.signAccess(OPERATOR), { version: 1, title: 'Bet once today' });
    expect(elsewhere.status).toBe(200);
    await edit.getByRole('button', { name: 'Save quest' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'VERSION_CONFLICT' });
    await refusal.waitFor();
    // Reloaded: the list shows the other edit and its version.
    await until(async () => (await questRow.textContent())?.includes('Bet once today'), 'the reloaded quest');

    // Switched off from the page: the player's status says inactive.
    await quests.getByRole('button', { name: 'Disable quest bet-once' }).click();
    await page.getByText('Disabled quest bet-once.').waitFor();
    expect((await call('GET', statusPath, player.accessToken)).body.status).toMatchObject({ lifecycle: 'inactive' });

    const audit = await api.db.prisma.operatorAudit.findMany({ where: { target: { in: [slug, `${slug}/bet-once`] } }, orderBy: { id: 'asc' } });
    expect(audit.map((a) => [a.action, a.actor])).toEqual([
      ['campaigns.create', OPERATOR],
      ['quests.create', OPERATOR],
      ['quests.update', OPERATOR],
      ['quests.update', OPERATOR],
    ]);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});
