// The console's shell: sign-in with a wallet, the operator check, the sections.
import { ApiError, createSession, type Call, type Section } from './api';
import { connect, signPersonalMessage, watchWallets, type SigningWallet, type WalletAccount } from './wallets';
import { button, errorBox, h, show, wallet as address } from './ui';
import operators from './operators';
import audit from './audit';
import campaigns from './campaigns';
import gifts from './gifts';
import moderation from './moderation';
import chainWrites from './chain-writes';

const SECTIONS: Section[] = [operators, audit, campaigns, gifts, moderation, chainWrites];

const byId = (id: string): HTMLElement => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`The page has no #${id}.`);
  return el;
};
const accountEl = byId('account');
const navEl = byId('sections');
const noticeEl = byId('notice');
const viewEl = byId('view');

let wallets: SigningWallet[] = [];
/** `unknown` until the first admin call answers. */
let role: 'unknown' | 'operator' | 'not-operator' = 'unknown';
let picking = false;

const session = createSession({
  onChange: () => {
    role = 'unknown';
    picking = false;
    void render();
  },
});

/** The sections' calls: a revocation while signed in shows in every section, not only the form that asked. */
const call: Call = async (make) => {
  try {
    return await session.call(make);
  } catch (error) {
    if (error instanceof ApiError && error.is('FORBIDDEN') && role !== 'not-operator') {
      role = 'not-operator';
      renderShell();
    }
    throw error;
  }
};

const currentSection = () => SECTIONS.find((s) => `#${s.id}` === location.hash) ?? SECTIONS[0];

function renderAccount() {
  const who = session.who();
  if (who) {
    show(accountEl, h('p', {}, 'Signed in as ', address(who.address), ` (${who.wallet})`), button('Sign out', () => session.signOut()));
    return;
  }
  const onclick = () => {
    picking = !picking;
    renderShell();
    if (picking) document.getElementById('picker-title')?.focus();
  };
  show(accountEl, h('button', { type: 'button', 'aria-expanded': String(picking), 'aria-controls': 'wallet-picker', onclick }, 'Connect wallet'));
}

/** The wallets to sign in with (the page asks each for a signature of the API's challenge). */
function walletPicker() {
  const title = h('h2', { id: 'picker-title', tabindex: '-1' }, 'Choose a wallet');
  if (wallets.length === 0) {
    return h(
      'section',
      { id: 'wallet-picker', 'aria-labelledby': 'picker-title' },
      title,
      h('p', {}, 'No Sui wallet was found in this browser. Install or unlock a wallet that supports the Wallet Standard (signing personal messages), then reload.'),
    );
  }
  const alert = h('div', { class: 'alert-slot' });
  const status = h('p', { class: 'status', role: 'status' });
  const signIn = async (w: SigningWallet, account: WalletAccount) => {
    show(status, `Sign the login message in ${w.name}…`);
    await session.signIn(account.address, w.name, (message) => signPersonalMessage(w, account, message));
  };
  const guarded = async (action: () => Promise<void>) => {
    show(alert);
    try {
      await action();
    } catch (error) {
      show(status);
      show(alert, errorBox(error));
    }
  };
  const choose = (w: SigningWallet) =>
    guarded(async () => {
      const accounts = await connect(w);
      if (accounts.length === 0) throw new Error(`${w.name} shared no account.`);
      if (accounts.length === 1) return signIn(w, accounts[0]);
      show(
        status,
        h('span', {}, `Choose the account of ${w.name}:`),
        h('ul', { class: 'accounts' }, accounts.map((a) => h('li', {}, button(`Sign in as ${a.address}`, () => guarded(() => signIn(w, a)))))),
      );
    });
  return h(
    'section',
    { id: 'wallet-picker', 'aria-labelledby': 'picker-title' },
    title,
    h('p', {}, 'Sign in with an operator wallet: the wallet signs a one-time login message, nothing else.'),
    h('ul', { class: 'wallets' }, wallets.map((w) => h('li', {}, button(w.name, () => choose(w), { class: 'wallet' }), w.icon ? h('img', { src: w.icon, alt: '', width: 24, height: 24 }) : null))),
    alert,
    status,
  );
}

function renderNav() {
  const current = currentSection();
  navEl.hidden = role !== 'operator';
  show(navEl, h('ul', {}, SECTIONS.map((s) => h('li', {}, h('a', { href: `#${s.id}`, 'aria-current': s === current ? 'page' : false }, s.title)))));
}

/** Header, navigation and notice from the state; the section itself is rendered by renderSection. */
function renderShell() {
  renderAccount();
  renderNav();
  const who = session.who();
  if (!who) {
    show(noticeEl);
    show(viewEl, h('p', {}, 'Connect an operator wallet to use the console.'), picking ? walletPicker() : null);
    return;
  }
  if (role === 'not-operator') {
    const text = ' has no operator role. Ask an operator to grant it, or sign out and connect another wallet.';
    show(noticeEl, h('div', { class: 'error', role: 'alert' }, h('p', {}, 'This wallet is not an operator: ', address(who.address), text)));
    show(viewEl);
    return;
  }
  show(noticeEl);
}

/** Renders the section of the address's hash (operators by default). */
async function renderSection({ focus = false } = {}) {
  const section = currentSection();
  const heading = h('h2', { tabindex: '-1' }, section.title);
  const body = h('div', { class: 'section-body' });
  show(viewEl, h('section', { 'aria-label': section.title, class: `section ${section.id}` }, heading, body));
  document.title = `${section.title} · Operator console`;
  if (focus) heading.focus();
  try {
    await section.render(body, call);
  } catch (error) {
    if (role !== 'not-operator') show(body, errorBox(error));
  }
}

async function render() {
  renderShell();
  if (!session.who()) return;
  if (role === 'unknown') {
    show(viewEl, h('p', {}, 'Checking the operator role…'));
    try {
      await session.call((api) => api.GET('/api/admin/operators'));
      role = 'operator';
    } catch (error) {
      if (error instanceof ApiError && error.is('FORBIDDEN')) role = 'not-operator';
      else if (session.who()) {
        renderShell();
        show(viewEl, errorBox(error));
        return;
      }
    }
    renderShell();
  }
  if (role === 'operator') await renderSection();
}

window.addEventListener('hashchange', () => {
  if (role !== 'operator') return;
  renderNav();
  void renderSection({ focus: true });
});

watchWallets((found) => {
  wallets = found;
  if (!session.who()) renderShell();
});

void (async () => {
  if (session.who() && !(await session.resume())) return render();
  await render();
})();
