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

/**
 * The SDK's verifier and clients, loaded on the first login: about 10 MiB of heap that processes
 * without logins (jobs, indexer) never hold.
 */
async function loadVerifier(opts: SignatureVerifierOptions) {
  const [{ SuiGraphQLClient }, { SuiGrpcClient }, { parseSerializedSignature }, { isValidPersonalMessageSignature }] = await Promise.all([
    import('@mysten/sui/graphql'),
    import('@mysten/sui/grpc'),
    import('@mysten/sui/cryptography'),
    import('@mysten/sui/verify'),
  ]);
  const client: ClientWithCoreApi | undefined = !opts.url
    ? undefined
    : opts.transport === 'grpc'
      ? new SuiGrpcClient({ baseUrl: opts.url, network: opts.network })
      : new SuiGraphQLClient({ url: opts.url, network: opts.network });
  const schemeOf = (signature: string): string | null => {
    try {
      return parseSerializedSignature(signature).signatureScheme;
    } catch {
      return null;
    }
  };
  return { client, schemeOf, isValidPersonalMessageSignature };
}

/** The one adapter between login and the chain's signature rules (the SDK's verifier). */
export function createSignatureVerifier(opts: SignatureVerifierOptions): SignatureVerifier {
  let loaded: ReturnType<typeof loadVerifier> | undefined;
  return {
    async verifyPersonalMessage(message, signature, address) {
      const { client, schemeOf, isValidPersonalMessageSignature } = await (loaded ??= loadVerifier(opts));
      const scheme = schemeOf(signature);
      const usesChain = scheme === 'ZkLogin' || scheme === 'MultiSig';
      if (scheme === 'ZkLogin' && !client) return 'chain-unavailable';
      try {
        return (await isValidPersonalMessageSignature(message, signature, { client, address })) ? 'valid' : 'invalid';
      } catch {
        return usesChain ? 'chain-unavailable' : 'invalid';
      }
    },
  };
}
