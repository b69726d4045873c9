import { SuiGraphQLClient } from '@mysten/sui/graphql';
import { SuiGrpcClient } from '@mysten/sui/grpc';
import { parseSerializedSignature } from '@mysten/sui/cryptography';
import { isValidPersonalMessageSignature } from '@mysten/sui/verify';
import type { ClientWithCoreApi } from '@mysten/sui/client';

export type SignatureCheck = 'valid' | 'invalid' | 'chain-unavailable';

export interface SignatureVerifier {
  /**
   * Whether `signature` (a Sui serialized signature, base64) signs `message` as a personal message
   * by `address`. Every scheme: Ed25519, Secp256k1, Secp256r1, multisig, passkey and zkLogin; zkLogin
   * needs the full node (its JWKs and epoch), so it answers `chain-unavailable` when none is
   * configured or reachable, never `invalid` for an environmental failure.
   */
  verifyPersonalMessage(message: Uint8Array, signature: string, address: string): Promise<SignatureCheck>;
}

export interface SignatureVerifierOptions {
  /** The full node (CHAIN.SUI_URL); unset: zkLogin signatures cannot be checked. */
  url?: string;
  transport: 'graphql' | 'grpc';
  network: string;
}

function chainClient(opts: SignatureVerifierOptions): ClientWithCoreApi | undefined {
  if (!opts.url) return undefined;
  return opts.transport === 'grpc'
    ? new SuiGrpcClient({ baseUrl: opts.url, network: opts.network })
    : new SuiGraphQLClient({ url: opts.url, network: opts.network });
}

const usesChain = (signature: string): boolean => {
  try {
    const scheme = parseSerializedSignature(signature).signatureScheme;
    return scheme === 'ZkLogin' || scheme === 'MultiSig';
  } catch {
    return false;
  }
};

/** The one adapter between login and the chain's signature rules (the SDK's verifier). */
export function createSignatureVerifier(opts: SignatureVerifierOptions): SignatureVerifier {
  const client = chainClient(opts);
  return {
    async verifyPersonalMessage(message, signature, address) {
      if (usesChain(signature) && !client && parseSerializedSignature(signature).signatureScheme === 'ZkLogin') return 'chain-unavailable';
      try {
        return (await isValidPersonalMessageSignature(message, signature, { client, address })) ? 'valid' : 'invalid';
      } catch {
        return usesChain(signature) ? 'chain-unavailable' : 'invalid';
      }
    },
  };
}
