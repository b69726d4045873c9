/**
 * Gift projects through the operator console (/console/#gifts) in headless Chromium: an operator
 * wallet creates a project, gives it a delivery window and a stash from the page, and a player is
 * handed one of its URLs by /api/gift/get; every action is audited under the operator's wallet.
 */
import { randomBytes } from 'node:crypto';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../helpers/api';
import { haveChromium, launchChromium, signInToConsole, utcMinute } from '../helpers/browser';
import { until } from '../helpers/until';

const operatorKey = new Ed25519Keypair();
const OPERATOR = operatorKey.toSuiAddress();
let api: TestApi;

beforeAll(async () => {
  api = await startApi({ env: { OPERATOR_WALLETS: OPERATOR } });
}, 60_000);
afterAll(async () => api?.close());

describe.skipIf(!haveChromium())('gift projects in the console', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => browser?.close());

  it('creates a project, opens a window and loads the stash, and a player receives a gift', async () => {
    const { page, problems } = await signInToConsole(browser, api.url, operatorKey, 'gifts');
    const name = `console-${randomBytes(3).toString('hex')}`;
    await page.getByLabel('Project name').fill(name);
    await page.getByLabel('Title', { exact: true }).fill('Console drop');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByText(`Created project ${name}.`).waitFor();
    const panel = page.getByRole('region', { name: `Project ${name}` });
    await panel.waitFor();

    // A refusal from the service shows its message: a window ending before it starts.
    await panel.getByRole('button', { name: 'Add window' }).click();
    await panel.getByLabel('Starts (UTC), window 1').fill(utcMinute(new Date(Date.now() + 3_600_000)));
    await panel.getByLabel('Ends (UTC), window 1').fill(utcMinute(new Date(Date.now() - 3_600_000)));
    await panel.getByLabel('Daily quota, window 1').fill('2');
    await panel.getByRole('button', { name: 'Save windows' }).click();
    const refusal = panel.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('VALIDATION_FAILED');
    expect(await refusal.textContent()).toContain('endsAt must be after startsAt');

    await panel.getByLabel('Starts (UTC), window 1').fill(utcMinute(new Date(Date.now() - 3_600_000)));
    await panel.getByLabel('Ends (UTC), window 1').fill(utcMinute(new Date(Date.now() + 2 * 3_600_000)));
    await panel.getByRole('button', { name: 'Save windows' }).click();
    await page.getByText(`Saved 1 window(s) of ${name}.`).waitFor();

    const urls = [`https://gifts.example/${name}/a`, `https://gifts.example/${name}/b`];
    await page.getByRole('region', { name: `Project ${name}` }).getByLabel('Gift URLs, one per line').fill(urls.join('\n'));
    await page.getByRole('button', { name: 'Add to stash' }).click();
    await page.getByText('Added 2 URL(s), skipped 0 already stashed.').waitFor();
    const row = page.getByRole('table', { name: 'Gift projects' }).getByRole('row').filter({ hasText: name });
    await until(async () => (await row.textContent())?.includes('2 / 2'), 'the stash left in the projects table');

    const gift = await fetch(`${api.url}/api/gift/get?project=${name}`);
    expect(gift.status).toBe(200);
    expect(urls).toContain(((await gift.json()) as { url: string }).url);

    const actions = await api.db.prisma.operatorAudit.findMany({ where: { target: name }, orderBy: { id: 'asc' } });
    expect(actions.map((a) => [a.action, a.actor])).toEqual([
      ['gifts.create_project', OPERATOR],
      ['gifts.set_windows', OPERATOR],
      ['gifts.load_stash', OPERATOR],
    ]);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
