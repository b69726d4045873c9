// zkLogin personal-message signatures through the login's signature adapter (createSignatureVerifier)
// against the fixture chain's GraphQL `verifyZkLoginSignature` (see test/fixtures/sui-chain/zklogin.ts
// for what the fixture can and cannot check: it has no Groth16 verifier).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { computeZkLoginAddressFromSeed, genAddressSeed, getZkLoginSignature } from '@mysten/sui/zklogin';
import { createSignatureVerifier, type SignatureVerifier } from '../../src/providers/sui-signatures';
import { startSuiChainFixture, type SuiChainFixture } from '../fixtures/sui-chain';
import { FIXTURE_EPOCH } from '../fixtures/sui-chain/zklogin';

const ISS = 'https://accounts.google.com';
const AUD = 'web-client.apps.example';
const SUB = '110169484474386276334';
const SALT = '129390038577185583942388216820280642146';

const b64url = (s: string) => Buffer.from(s).toString('base64url');

/** The base64url span of the JWT payload that holds `"iss":"…",` (what a zkLogin proof commits to). */
function issBase64Details(payloadJson: string): { value: string; indexMod4: number } {
  const encoded = b64url(payloadJson);
  const claim = `"iss":${JSON.stringify(ISS)},`;
  const start = Buffer.byteLength(payloadJson.slice(0, payloadJson.indexOf(claim)));
  const end = start + Buffer.byteLength(claim);
  const first = Math.floor((start * 8) / 6);
  const last = Math.floor((end * 8 - 1) / 6);
  return { value: encoded.slice(first, last + 1), indexMod4: first % 4 };
}

/** A zkLogin signature as a wallet builds it, with a well-formed but fake Groth16 proof. */
async function zkLoginSignature(message: Uint8Array, opts: { maxEpoch?: number; ephemeral?: Ed25519Keypair; tamper?: boolean } = {}) {
  const ephemeral = opts.ephemeral ?? new Ed25519Keypair();
  const addressSeed = genAddressSeed(SALT, 'sub', SUB, AUD);
  const { signature: userSignature } = await ephemeral.signPersonalMessage(message);
  const userBytes = Buffer.from(userSignature, 'base64');
  if (opts.tamper) userBytes[5] ^= 0xff;
  const payload = JSON.stringify({ iss: ISS, azp: AUD, aud: AUD, sub: SUB, nonce: 'n0nce', iat: 1, exp: 2 });
  const signature = getZkLoginSignature({
    inputs: {
      proofPoints: { a: ['1', '2', '1'], b: [['3', '4'], ['5', '6'], ['1', '0']], c: ['7', '8', '1'] },
      issBase64Details: issBase64Details(payload),
      headerBase64: b64url(JSON.stringify({ alg: 'RS256', kid: 'fixture-kid', typ: 'JWT' })),
      addressSeed: addressSeed.toString(),
    },
    maxEpoch: opts.maxEpoch ?? FIXTURE_EPOCH + 2,
    userSignature: new Uint8Array(userBytes),
  });
  return { signature, address: computeZkLoginAddressFromSeed(addressSeed, ISS, false) };
}

describe('zkLogin signatures against the fixture chain (GraphQL verifyZkLoginSignature)', () => {
  let chain: SuiChainFixture;
  let verifier: SignatureVerifier;
  const message = new TextEncoder().encode('platform.example wants you to sign in\nnonce: 8f1d');

  beforeAll(async () => {
    chain = await startSuiChainFixture({ events: 10 });
    verifier = createSignatureVerifier({ url: chain.graphqlUrl, transport: 'graphql', network: 'testnet' });
  });
  afterAll(async () => chain?.close());

  it('accepts a zkLogin signature whose ephemeral signature, address and max epoch hold', async () => {
    const { signature, address } = await zkLoginSignature(message);
    expect(await verifier.verifyPersonalMessage(message, signature, address)).toBe('valid');
  });

  it('refuses the same signature presented for another message', async () => {
    const { signature, address } = await zkLoginSignature(message);
    const other = new TextEncoder().encode('platform.example wants you to sign in\nnonce: 8f1e');
    expect(await verifier.verifyPersonalMessage(other, signature, address)).toBe('invalid');
  });

  it('refuses a tampered ephemeral signature', async () => {
    const { signature, address } = await zkLoginSignature(message, { tamper: true });
    expect(await verifier.verifyPersonalMessage(message, signature, address)).toBe('invalid');
  });

  it('refuses a signature whose max epoch has passed', async () => {
    const { signature, address } = await zkLoginSignature(message, { maxEpoch: FIXTURE_EPOCH - 1 });
    expect(await verifier.verifyPersonalMessage(message, signature, address)).toBe('invalid');
  });

  it('refuses a valid signature claimed for another address', async () => {
    const { signature } = await zkLoginSignature(message);
    const other = new Ed25519Keypair().toSuiAddress();
    expect(await verifier.verifyPersonalMessage(message, signature, other)).toBe('invalid');
  });

  it('answers chain-unavailable, not invalid, when the chain fails or is not configured', async () => {
    const { signature, address } = await zkLoginSignature(message);
    chain.failNext(1, 'graphql');
    expect(await verifier.verifyPersonalMessage(message, signature, address)).toBe('chain-unavailable');
    expect(await verifier.verifyPersonalMessage(message, signature, address)).toBe('valid');
    const unconfigured = createSignatureVerifier({ transport: 'graphql', network: 'testnet' });
    expect(await unconfigured.verifyPersonalMessage(message, signature, address)).toBe('chain-unavailable');
  });
});
