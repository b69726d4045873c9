// Sui wallets through the Wallet Standard (https://github.com/wallet-standard/wallet-standard):
// the app announces itself with `wallet-standard:app-ready` and hears wallets that load later
// through `wallet-standard:register-wallet`; both carry `{ register }`.

export interface WalletAccount {
  address: string;
  chains?: readonly string[];
}

/** The two features the console uses; a wallet's other features are its own. */
interface Features {
  'standard:connect'?: { connect(): Promise<{ accounts?: readonly WalletAccount[] }> };
  'sui:signPersonalMessage'?: { signPersonalMessage(input: { message: Uint8Array; account: WalletAccount }): Promise<{ signature: string }> };
}

export interface Wallet {
  name: string;
  icon?: string;
  accounts: readonly WalletAccount[];
  features: Features & Record<string, unknown>;
}

/** A wallet that can sign in: it connects and signs personal messages. */
export type SigningWallet = Wallet & { features: Required<Features> };

const signs = (w: Wallet): w is SigningWallet => Boolean(w?.features?.['sui:signPersonalMessage'] && w.features['standard:connect']);

/**
 * Starts listening for wallets; `onChange` is called with the Sui wallets that can sign a
 * personal message each time one registers (or unregisters).
 */
export function watchWallets(onChange: (wallets: SigningWallet[]) => void): void {
  const registered = new Set<Wallet>();
  const usable = () => [...registered].filter(signs);
  const register = (...wallets: Wallet[]) => {
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
    const callback: unknown = event instanceof CustomEvent ? event.detail : undefined;
    try {
      if (typeof callback !== 'function') throw new Error('no callback');
      callback(api);
    } catch (error) {
      console.warn('A wallet failed to register', error);
    }
  });
  window.dispatchEvent(new CustomEvent('wallet-standard:app-ready', { detail: api }));
  onChange(usable());
}

/** Connects to `wallet` and returns its accounts (the wallet may ask its user first). */
export async function connect(wallet: SigningWallet): Promise<readonly WalletAccount[]> {
  const { accounts } = await wallet.features['standard:connect'].connect();
  return accounts?.length ? accounts : wallet.accounts;
}

/**
 * Signs `message` as `account` with the wallet's `sui:signPersonalMessage`: the base64 serialized
 * signature the API's login takes.
 */
export async function signPersonalMessage(wallet: SigningWallet, account: WalletAccount, message: Uint8Array): Promise<string> {
  const { signature } = await wallet.features['sui:signPersonalMessage'].signPersonalMessage({ message, account });
  return signature;
}
