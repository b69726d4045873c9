import type { Signer } from './auth.js';

/** The parts of a Wallet Standard wallet (`@wallet-standard/base`) that signing a login needs. */
export interface WalletStandardLike {
  features: Record<string, unknown>;
}

interface SignPersonalMessageFeature {
  signPersonalMessage(input: { message: Uint8Array; account: { address: string } }): Promise<{ signature: string }>;
}

/** A Wallet Standard wallet's `sui:signPersonalMessage` for one of its accounts, as a login signer. */
export function walletStandardSigner(wallet: WalletStandardLike, account: { address: string }): Signer {
  const feature = wallet.features['sui:signPersonalMessage'] as SignPersonalMessageFeature | undefined;
  if (!feature) throw new Error('This wallet cannot sign personal messages (no sui:signPersonalMessage)');
  return { address: account.address, signPersonalMessage: (message) => feature.signPersonalMessage({ message, account }) };
}
