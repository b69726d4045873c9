// Sui wallets through the Wallet Standard (https://github.com/wallet-standard/wallet-standard):
// the app announces itself with `wallet-standard:app-ready` and hears wallets that load later
// through `wallet-standard:register-wallet`; both carry `{ register }`.

const CONNECT = 'standard:connect';
const SIGN = 'sui:signPersonalMessage';

/**
 * @typedef {{ address: string, chains?: readonly string[] }} WalletAccount
 * @typedef {{
 *   name: string, icon?: string, accounts: readonly WalletAccount[],
 *   features: Record<string, any>
 * }} Wallet
 */

/**
 * Starts listening for wallets; `onChange` is called with the Sui wallets that can sign a
 * personal message each time one registers (or unregisters).
 * @param {(wallets: Wallet[]) => void} onChange
 */
export function watchWallets(onChange) {
  /** @type {Set<Wallet>} */
  const registered = new Set();
  const usable = () => [...registered].filter((w) => w?.features?.[SIGN] && w.features[CONNECT]);
  /** @param {...Wallet} wallets */
  const register = (...wallets) => {
    const added = wallets.filter((w) => !registered.has(w));
    added.forEach((w) => registered.add(w));
    if (added.length) onChange(usable());
    return () => {
      added.forEach((w) => registered.delete(w));
      onChange(usable());
    };
  };
  const api = Object.freeze({ register });
  window.addEventListener('wallet-standard:register-wallet', (event) => {
    const callback = /** @type {CustomEvent} */ (event).detail;
    try {
      callback(api);
    } catch (error) {
      console.warn('A wallet failed to register', error);
    }
  });
  window.dispatchEvent(new CustomEvent('wallet-standard:app-ready', { detail: api }));
  onChange(usable());
}

/**
 * Connects to `wallet` and returns its accounts (the wallet may ask its user first).
 * @param {Wallet} wallet
 * @returns {Promise<readonly WalletAccount[]>}
 */
export async function connect(wallet) {
  const { accounts } = await wallet.features[CONNECT].connect();
  return accounts?.length ? accounts : wallet.accounts;
}

/**
 * Signs `message` as `account` with the wallet's `sui:signPersonalMessage`: the base64 serialized
 * signature the API's login takes.
 * @param {Wallet} wallet
 * @param {WalletAccount} account
 * @param {Uint8Array} message
 * @returns {Promise<string>}
 */
export async function signPersonalMessage(wallet, account, message) {
  const { signature } = await wallet.features[SIGN].signPersonalMessage({ message, account });
  return signature;
}
