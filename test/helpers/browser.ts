import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Keypair } from '@mysten/sui/cryptography';
import { testEnv } from './env';

/** Debian's `chromium` package, driven by playwright-core. */
const CHROMIUM = '/usr/bin/chromium';

/** Whether the browser tests can run; with REQUIRE_SERVICES=1 a missing browser is an error, not a skip. */
export function haveChromium(): boolean {
  const present = existsSync(CHROMIUM);
  if (!present && testEnv.requireServices) throw new Error(`REQUIRE_SERVICES=1 but ${CHROMIUM} is missing`);
  return present;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** A page's problems (uncaught errors, console errors) and every URL it requested. */
export function watchPage(page: Page): { problems: string[]; requested: string[] } {
  const problems: string[] = [];
  const requested: string[] = [];
  page.on('request', (r) => requested.push(r.url()));
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    // The browser logs every non-2xx fetch as a console error; the page shows those itself.
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  return { problems, requested };
}

interface TestWalletOptions {
  name: string;
  /** Register before the page's scripts run (the wallet hears `wallet-standard:app-ready`), or after it loaded (the page hears `wallet-standard:register-wallet`). */
  when: 'before-load' | 'after-load';
}

/**
 * The in-page half of the test wallet: a Wallet Standard wallet whose signing is done in Node.
 * Plain JavaScript text (not a compiled function: the test transform may add helpers the page lacks).
 */
const REGISTER_TEST_WALLET = `(spec) => {
  const account = { address: spec.address, publicKey: Uint8Array.from(spec.publicKey), chains: ['sui:testnet'], features: ['sui:signPersonalMessage'], label: spec.name };
  const wallet = {
    version: '1.0.0',
    name: spec.name,
    icon: 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAxIDEiLz4=',
    chains: spec.chains,
    accounts: [account],
    features: {
      'standard:connect': { version: '1.0.0', connect: async () => ({ accounts: spec.chains.length ? [account] : [] }) },
      'standard:events': { version: '1.0.0', on: () => () => undefined },
      ...(spec.signer ? {
        'sui:signPersonalMessage': {
          version: '1.1.0',
          signPersonalMessage: async ({ message, account: signer }) => {
            if (signer.address !== spec.address) throw new Error('unknown account');
            return window[spec.signer](btoa(String.fromCharCode(...message)));
          },
        },
      } : {}),
    },
  };
  const callback = ({ register }) => register(wallet);
  window.addEventListener('wallet-standard:app-ready', (event) => callback(event.detail));
  window.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: callback }));
}`;

const script = (spec: Record<string, unknown>) => `(${REGISTER_TEST_WALLET})(${JSON.stringify(spec)});`;

/**
 * A Wallet Standard wallet in the page holding `keypair` (a real Ed25519 key): the page sees it
 * through the standard's window events; `sui:signPersonalMessage` signs in Node.
 */
export async function injectTestWallet(page: Page, keypair: Keypair, opts: TestWalletOptions): Promise<void> {
  const signer = `__testWalletSign_${randomBytes(4).toString('hex')}`;
  await page.exposeFunction(signer, async (messageBase64: string) => keypair.signPersonalMessage(Buffer.from(messageBase64, 'base64')));
  const spec = { name: opts.name, address: keypair.toSuiAddress(), publicKey: [...keypair.getPublicKey().toRawBytes()], chains: ['sui:testnet'], signer };
  if (opts.when === 'before-load') await page.addInitScript({ content: script(spec) });
  else await page.evaluate(script(spec));
}

/** A wallet of another chain (no `sui:signPersonalMessage`): the console must not offer it. */
export async function injectForeignWallet(page: Page, name: string): Promise<void> {
  await page.addInitScript({ content: script({ name, address: '', publicKey: [], chains: [], signer: null }) });
}

/**
 * Opens the console (`<apiUrl>/console/`) in a new page with `keypair` as a Wallet Standard test
 * wallet and signs in with it (the ordinary wallet login). Resolves once the console says who is
 * signed in.
 */
export async function signInToConsole(browser: Browser, apiUrl: string, keypair: Keypair, section = 'operators'): Promise<{ page: Page; problems: string[]; requested: string[] }> {
  const page = await browser.newPage();
  const watched = watchPage(page);
  await injectTestWallet(page, keypair, { name: 'Test Wallet', when: 'before-load' });
  await page.goto(`${apiUrl}/console/#${section}`);
  await page.getByRole('button', { name: 'Connect wallet' }).click();
  await page.getByRole('button', { name: 'Test Wallet', exact: true }).click();
  await page.getByText('Signed in as').waitFor({ timeout: 15_000 });
  return { page, ...watched };
}

/** `2026-01-02T03:04`: what a datetime-local input takes, in UTC (the console reads its times as UTC). */
export const utcMinute = (at: Date): string => at.toISOString().slice(0, 16);
