/**
 * The operator console (/console/, src/http/console) in headless Chromium: an operator wallet
 * (OPERATOR_WALLETS, a real Ed25519 key behind a Wallet Standard test wallet) signs in with the
 * ordinary wallet login, grants the operator role from the page and sees its audit row, named by
 * its own wallet; a wallet without the role is told so. The page loads only from this server.
 */
import { randomBytes } from 'node:crypto';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../helpers/api';
import { haveChromium, injectForeignWallet, injectTestWallet, launchChromium, signInToConsole, watchPage } from '../helpers/browser';
import { until } from '../helpers/until';

const operatorKey = new Ed25519Keypair();
const OPERATOR = operatorKey.toSuiAddress();
let api: TestApi;

beforeAll(async () => {
  api = await startApi({ env: { OPERATOR_WALLETS: OPERATOR } });
}, 60_000);
afterAll(async () => api?.close());

function cspOf(res: Response): Record<string, string[]> {
  const csp = res.headers.get('content-security-policy') ?? '';
  return Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
}

describe('the console’s files', () => {
  it('serves the page and its modules from this server under a policy allowing nothing else', async () => {
    const redirect = await fetch(`${api.url}/console`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('console/');

    const page = await fetch(`${api.url}/console/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toContain('<script type="module" src="main.js"></script>');
    // No inline script or style, nothing from elsewhere.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/style=|<style/);
    expect(html).not.toMatch(/https?:\/\//);
    const csp = cspOf(page);
    expect(csp['default-src']).toEqual(["'none'"]);
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['style-src']).toEqual(["'self'"]);
    expect(csp['connect-src']).toEqual(["'self'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);

    const script = await fetch(`${api.url}/console/main.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/text\/javascript/);
    const etag = script.headers.get('etag')!;
    expect((await fetch(`${api.url}/console/main.js`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect((await fetch(`${api.url}/console/console.css`)).headers.get('content-type')).toMatch(/text\/css/);
    expect((await fetch(`${api.url}/console/nothing.js`)).status).toBe(404);
    // A missing file goes to the not-found handler (reply.callNotFound): counted as unmatched, not as the file route.
    const metrics = await (await fetch(`${api.url}/metrics`)).text();
    expect(metrics).not.toMatch(/http_requests_total\{[^}]*route="\/console\/:file"[^}]*status="404"/);
    expect(metrics).toMatch(/http_requests_total\{[^}]*route="unmatched"[^}]*status="404"/);
    expect((await fetch(`${api.url}/console/..%2Fconsole%2Findex.ts`)).status).toBe(404);
    // Not part of the API's description.
    const openapi = (await (await fetch(`${api.url}/api/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(openapi.paths).filter((p) => p.startsWith('/console'))).toEqual([]);
  });
});

describe.skipIf(!haveChromium())('the console in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => browser?.close());

  const signIn = async (page: Page, walletName: string) => {
    await page.getByRole('button', { name: 'Connect wallet' }).click();
    await page.getByRole('button', { name: walletName, exact: true }).click();
    await page.getByText('Signed in as').waitFor({ timeout: 15_000 });
  };

  it('lets an operator wallet sign in, grant the operator role and see the audit row naming it', async () => {
    const page = await browser.newPage();
    const { problems, requested } = watchPage(page);
    await injectTestWallet(page, operatorKey, { name: 'Test Wallet', when: 'before-load' });
    await injectForeignWallet(page, 'Other Chain Wallet');
    await page.goto(`${api.url}/console/`);

    await page.getByRole('button', { name: 'Connect wallet' }).click();
    // Only wallets that can sign a Sui personal message are offered.
    await page.getByRole('button', { name: 'Test Wallet', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Other Chain Wallet' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Test Wallet', exact: true }).click();
    await page.getByText('Signed in as').waitFor({ timeout: 15_000 });
    expect(await page.locator('#account').textContent()).toContain(OPERATOR);

    // The operators section: the setting's wallet is listed.
    const operators = page.getByRole('table', { name: 'Operator wallets' });
    await operators.waitFor();
    expect(await operators.textContent()).toContain(OPERATOR);

    // A bad address: the service's message and field detail, shown as an alert.
    await page.getByLabel('Wallet address').fill('not-a-wallet');
    await page.getByRole('button', { name: 'Grant', exact: true }).click();
    const alert = page.getByRole('form', { name: 'Grant the operator role' }).getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('VALIDATION_FAILED');
    expect(await alert.textContent()).toContain('wallet must be a Sui address');

    const grantee = `0x${randomBytes(32).toString('hex')}`;
    await page.getByLabel('Wallet address').fill(grantee);
    await page.getByRole('button', { name: 'Grant', exact: true }).click();
    await page.getByText(`Granted the operator role to ${grantee}.`).waitFor();
    await until(async () => (await operators.textContent())?.includes(grantee), 'the grantee in the operators table');
    expect(await api.services.operators.isOperator(grantee)).toBe(true);

    // The audit log: one row, by the operator's wallet (its own token, not a shared secret).
    await page.getByRole('link', { name: 'Audit log' }).click();
    const audit = page.getByRole('table', { name: 'Operator actions, newest first' });
    await audit.waitFor();
    const row = audit.getByRole('row').filter({ hasText: grantee });
    await row.waitFor();
    expect(await row.textContent()).toContain('operators.grant');
    expect(await row.textContent()).toContain(OPERATOR);
    const rows = await api.db.prisma.operatorAudit.findMany({ where: { action: 'operators.grant', target: grantee } });
    expect(rows).toHaveLength(1);
    expect(rows[0].actor).toBe(OPERATOR);

    // Revoking from the page: the grantee is gone, and the audit log says who did it.
    await page.getByRole('link', { name: 'Operators' }).click();
    await page.getByRole('button', { name: `Revoke ${grantee}` }).click();
    await page.getByText(`Revoked the operator role of ${grantee}.`).waitFor();
    expect(await api.services.operators.isOperator(grantee)).toBe(false);
    expect(await api.db.prisma.operatorAudit.count({ where: { action: 'operators.revoke', target: grantee, actor: OPERATOR } })).toBe(1);

    // A reload keeps the session of this tab (refresh token in sessionStorage, a new access token).
    await page.reload();
    await page.getByRole('table', { name: 'Operator wallets' }).waitFor({ timeout: 15_000 });
    expect(await page.evaluate(() => Object.keys(sessionStorage))).toEqual(['operator-console.session']);
    expect(requested.filter((u) => u.endsWith('/api/auth/refresh'))).toHaveLength(1);

    // Sign out: the login is revoked and the page forgets it.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Connect wallet' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);

    expect(problems).toEqual([]);
    expect(requested.filter((u) => !u.startsWith(`${api.url}/`) && !u.startsWith('data:'))).toEqual([]);
    await page.close();
  }, 60_000);

  it('tells a wallet without the role that it is not an operator', async () => {
    const page = await browser.newPage();
    const { problems } = watchPage(page);
    await page.goto(`${api.url}/console/`);
    // A wallet that loads after the page registers through `wallet-standard:register-wallet`.
    const player = new Ed25519Keypair();
    await injectTestWallet(page, player, { name: 'Late Wallet', when: 'after-load' });
    await signIn(page, 'Late Wallet');
    const notice = page.locator('#notice').getByRole('alert');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('This wallet is not an operator');
    expect(await notice.textContent()).toContain(player.toSuiAddress());
    expect(await page.getByRole('navigation', { name: 'Sections' }).isVisible()).toBe(false);
    expect(await page.getByRole('table').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  }, 40_000);

  it('says so at once when the signed-in wallet’s role is revoked', async () => {
    const granteeKey = new Ed25519Keypair();
    const grantee = granteeKey.toSuiAddress();
    const operator = { authorization: `Bearer ${api.services.tokens.signAccess(OPERATOR)}` };
    expect((await fetch(`${api.url}/api/admin/operators`, { method: 'POST', headers: { ...operator, 'content-type': 'application/json' }, body: JSON.stringify({ wallet: grantee }) })).status).toBe(200);
    const { page, problems } = await signInToConsole(browser, api.url, granteeKey, 'audit');
    await page.getByRole('table', { name: 'Operator actions, newest first' }).waitFor();
    expect((await fetch(`${api.url}/api/admin/operators/${grantee}`, { method: 'DELETE', headers: operator })).status).toBe(200);
    await page.getByRole('button', { name: 'Refresh' }).click();
    const notice = page.locator('#notice').getByRole('alert');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('This wallet is not an operator');
    expect(await page.getByRole('navigation', { name: 'Sections' }).isVisible()).toBe(false);
    expect(problems).toEqual([]);
    await page.close();
  }, 40_000);
});

describe.skipIf(!haveChromium())('the console with short-lived access tokens', () => {
  let shortLived: TestApi;
  let browser: Browser;
  beforeAll(async () => {
    shortLived = await startApi({ env: { OPERATOR_WALLETS: OPERATOR, 'AUTH.ACCESS_TTL_SECONDS': '10' } });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await shortLived?.close();
  });

  it('refreshes the token before calls, once for calls made together (a refresh token is single use)', async () => {
    const { page, problems, requested } = await signInToConsole(browser, shortLived.url, operatorKey, 'operators');
    // Counted from the page's own request log, which starts before sign-in: the operators section's
    // first refresh may be over before a listener added here would hear it.
    const refreshCount = () => requested.filter((url) => url.endsWith('/api/auth/refresh')).length;
    const statuses: number[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('/api/auth/refresh')) statuses.push(r.status());
    });
    await page.getByRole('table', { name: 'Operator wallets' }).waitFor();
    const beforeModeration = refreshCount();
    // The moderation section loads its reports and its bans at once: both wait for one refresh.
    await page.getByRole('link', { name: 'Moderation' }).click();
    await page.getByRole('heading', { name: 'Bans' }).waitFor();
    await until(async () => (await page.getByText('Loading…').count()) === 0, 'the reports and bans', 30_000);
    expect(refreshCount()).toBe(beforeModeration + 1);
    await page.getByRole('link', { name: 'Audit log' }).click();
    // No operator action on this server yet: the log says so.
    await page.getByText('Operator actions, newest first: no operator action yet.').waitFor();
    expect(refreshCount()).toBeGreaterThan(beforeModeration + 1);
    // Never a spent refresh token (REFRESH_TOKEN_REUSED would revoke the login and sign out).
    await until(() => statuses.length >= refreshCount() - beforeModeration, 'the refresh answers');
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(await page.getByText('Signed in as').isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
