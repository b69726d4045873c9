// The only place that writes to the Sui node: builds a Transaction with @mysten/sui, signs it
// with the backend wallet (CHAIN.BACKEND_WALLET_PRIVATE_KEY, `suiprivkey…`), executes signed
// bytes and looks transactions up by digest. The key never leaves this module.
import type { ClientWithCoreApi, SuiClientTypes } from '@mysten/sui/client';
import { ObjectError, TransactionError } from '@mysten/sui/client';
import { decodeSuiPrivateKey, type Keypair } from '@mysten/sui/cryptography';
import { SuiGraphQLClient } from '@mysten/sui/graphql';
import { SuiGrpcClient } from '@mysten/sui/grpc';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { Secp256k1Keypair } from '@mysten/sui/keypairs/secp256k1';
import { Secp256r1Keypair } from '@mysten/sui/keypairs/secp256r1';
import { bcs } from '@mysten/sui/bcs';
import { DryRunFailedError, GasCeilingError, NodeRefusedError } from './sui-write-inputs';
import { Inputs, Transaction, type TransactionDataBuilder } from '@mysten/sui/transactions';
import { fromBase64, normalizeSuiAddress, SUI_TYPE_ARG, toBase64 } from '@mysten/sui/utils';

export { Transaction };
export { DryRunFailedError, GasCeilingError, NodeRefusedError, objectInput } from './sui-write-inputs';


/** Signed transaction data, as stored before it is sent (so the same bytes can be re-sent). */
export interface SignedTransaction {
  digest: string;
  /** BCS TransactionData, base64. */
  bytes: string;
  signature: string;
}

/** A signed transaction as built: its gas budget and the dry run that set it. */
export interface BuiltTransaction extends SignedTransaction {
  /** MIST: the dry run's computation + storage plus the margin (never above the ceiling). */
  gasBudget: bigint;
  dryRun: GasSummary;
}

export interface GasSummary {
  computationCost: string;
  storageCost: string;
  storageRebate: string;
  nonRefundableStorageFee: string;
}

export interface ExecutionOutcome {
  digest: string;
  success: boolean;
  /** The execution error of a failed transaction (Move abort, out of gas, …). */
  error: string | null;
  gasUsed: GasSummary;
  /** computation + storage − rebate, MIST (may be negative when the rebate wins). */
  gasTotal: bigint;
}


/** An error response of the node (GraphQL errors, a gRPC status other than unavailable/deadline), as opposed to no answer. */
function isNodeAnswer(err: unknown): boolean {
  if (err instanceof AggregateError) return err.errors.every(isNodeAnswer);
  if (!(err instanceof Error)) return false;
  if (err.constructor.name === 'GraphQLResponseError') return true;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && !['UNAVAILABLE', 'DEADLINE_EXCEEDED', 'CANCELLED', 'UNKNOWN', 'INTERNAL'].includes(code);
}

export interface SuiWriter {
  /** The backend wallet's address (the sender of every write). */
  readonly address: string;
  /**
   * Composes a transaction, resolves gas (reference price, the wallet's SUI coins) and inputs on the
   * node, dry-runs it for its gas budget (the dry run's computation + storage plus the margin),
   * signs it. DryRunFailedError when the dry run fails; GasCeilingError when the budget would be
   * above the ceiling.
   */
  build(compose: (tx: Transaction) => void | Promise<void>, opts?: { signal?: AbortSignal }): Promise<BuiltTransaction>;
  /** Executes signed bytes; NodeRefusedError when the node answered with an error, any other rejection means no answer (unknown outcome: look it up by digest). */
  execute(signed: SignedTransaction, opts?: { signal?: AbortSignal }): Promise<ExecutionOutcome>;
  /** The transaction's outcome by digest; null when the node answered that it does not know it. */
  lookup(digest: string, opts?: { signal?: AbortSignal }): Promise<ExecutionOutcome | null>;
  /**
   * Whether every gas coin the signed bytes pay with is still at the version they name. When one
   * has moved on (or is gone), those bytes can never execute any more: Sui runs a transaction only
   * against the current versions of its owned inputs.
   */
  paymentCurrent(signed: Pick<SignedTransaction, 'bytes'>, opts?: { signal?: AbortSignal }): Promise<boolean>;
}

export interface SuiWriterOptions {
  url: string;
  transport: 'graphql' | 'grpc';
  network: string;
  /** `suiprivkey…` (Bech32, any Sui signature scheme). */
  privateKey: string;
  /** The highest gas budget of a write, MIST (CHAIN.WRITE_GAS_CEILING). */
  gasCeiling: bigint;
  /** Added to the dry run's gas for the budget, percent (CHAIN.WRITE_GAS_MARGIN_PERCENT). */
  gasMarginPercent: number;
}

export function keypairFromSuiPrivateKey(privateKey: string): Keypair {
  const { scheme, secretKey } = decodeSuiPrivateKey(privateKey);
  switch (scheme) {
    case 'ED25519':
      return Ed25519Keypair.fromSecretKey(secretKey);
    case 'Secp256k1':
      return Secp256k1Keypair.fromSecretKey(secretKey);
    case 'Secp256r1':
      return Secp256r1Keypair.fromSecretKey(secretKey);
    default:
      throw new Error(`CHAIN.BACKEND_WALLET_PRIVATE_KEY: unsupported key scheme ${scheme}`);
  }
}

function createClient(opts: SuiWriterOptions): ClientWithCoreApi {
  const network = opts.network as 'mainnet';
  return opts.transport === 'grpc' ? new SuiGrpcClient({ baseUrl: opts.url, network }) : new SuiGraphQLClient({ url: opts.url, network });
}

/**
 * Resolves object inputs to their current references through the core API (getObjects), so a
 * fully specified transaction needs no server-side resolution (GraphQL's simulateTransaction).
 */
function resolveObjectsPlugin(client: ClientWithCoreApi, signal?: AbortSignal) {
  return async (data: TransactionDataBuilder, _options: unknown, next: () => Promise<void>) => {
    const unresolved = data.inputs.flatMap((input, index) => (input.UnresolvedObject ? [{ index, ...input.UnresolvedObject }] : []));
    if (unresolved.length) {
      const { objects } = await client.core.getObjects({ objectIds: unresolved.map((u) => u.objectId), signal });
      unresolved.forEach((u, i) => {
        const obj = objects[i];
        if (obj instanceof Error) throw obj;
        const owner = obj.owner;
        data.inputs[u.index] =
          owner.$kind === 'Shared'
            ? Inputs.SharedObjectRef({ objectId: obj.objectId, initialSharedVersion: owner.Shared.initialSharedVersion, mutable: u.mutable ?? true })
            : Inputs.ObjectRef({ objectId: obj.objectId, version: obj.version, digest: obj.digest });
      });
    }
    await next();
  };
}

type CoreResult = SuiClientTypes.TransactionResult<{ effects: true }>;

function toOutcome(result: CoreResult): ExecutionOutcome {
  const tx = result.$kind === 'Transaction' ? result.Transaction : result.FailedTransaction;
  const gas = tx.effects?.gasUsed ?? { computationCost: '0', storageCost: '0', storageRebate: '0', nonRefundableStorageFee: '0' };
  const error = tx.status.success ? null : (tx.status.error?.message ?? 'transaction failed');
  return {
    digest: tx.digest,
    success: tx.status.success,
    error,
    gasUsed: { computationCost: gas.computationCost, storageCost: gas.storageCost, storageRebate: gas.storageRebate, nonRefundableStorageFee: gas.nonRefundableStorageFee },
    gasTotal: BigInt(gas.computationCost) + BigInt(gas.storageCost) - BigInt(gas.storageRebate),
  };
}

export function createSuiWriter(opts: SuiWriterOptions): SuiWriter {
  const keypair = keypairFromSuiPrivateKey(opts.privateKey);
  const address = keypair.toSuiAddress();
  const client = createClient(opts);

  return {
    address,
    async build(compose, { signal } = {}) {
      const tx = new Transaction();
      tx.setSender(address);
      // The dry run runs with the ceiling as its budget: a write that needs more fails it.
      tx.setGasBudget(opts.gasCeiling);
      await compose(tx);
      // Writes run one at a time, so the node's view of the wallet's coins is the current one.
      const [{ referenceGasPrice }, coins] = await Promise.all([client.core.getReferenceGasPrice({ signal }), client.core.listCoins({ owner: address, coinType: SUI_TYPE_ARG, signal })]);
      if (!coins.objects.length) throw new Error(`backend wallet ${address} has no SUI coins to pay gas`);
      tx.setGasPrice(BigInt(referenceGasPrice));
      tx.setGasPayment(coins.objects.map((c) => ({ objectId: c.objectId, version: c.version, digest: c.digest })));
      tx.addBuildPlugin(resolveObjectsPlugin(client, signal));
      const draft = await tx.build({ client });
      const simulated = await client.core.simulateTransaction({ transaction: draft, include: { effects: true }, signal });
      const result = simulated.$kind === 'Transaction' ? simulated.Transaction : simulated.FailedTransaction;
      const error = result.status.success ? null : (result.status.error?.message ?? 'dry run failed');
      if (error !== null) {
        if (/InsufficientGas/i.test(error)) throw new GasCeilingError(null, opts.gasCeiling);
        throw new DryRunFailedError(`dry run: ${error}`);
      }
      const gas = result.effects?.gasUsed;
      if (!gas) throw new DryRunFailedError('dry run: the node answered without gas figures');
      const estimate = BigInt(gas.computationCost) + BigInt(gas.storageCost);
      const margin = BigInt(opts.gasMarginPercent);
      const gasBudget = (estimate * (100n + margin) + 99n) / 100n;
      if (gasBudget > opts.gasCeiling) throw new GasCeilingError(gasBudget, opts.gasCeiling);
      tx.setGasBudget(gasBudget);
      const bytes = await tx.build({ client });
      const { signature } = await keypair.signTransaction(bytes);
      const dryRun = { computationCost: gas.computationCost, storageCost: gas.storageCost, storageRebate: gas.storageRebate, nonRefundableStorageFee: gas.nonRefundableStorageFee };
      return { digest: await tx.getDigest(), bytes: toBase64(bytes), signature, gasBudget, dryRun };
    },
    async execute(signed, { signal } = {}) {
      try {
        const result = await client.core.executeTransaction({ transaction: fromBase64(signed.bytes), signatures: [signed.signature], include: { effects: true }, signal });
        return toOutcome(result);
      } catch (err) {
        if (isNodeAnswer(err)) throw new NodeRefusedError((err as Error).message, { cause: err });
        throw err;
      }
    },
    async lookup(digest, { signal } = {}) {
      try {
        return toOutcome(await client.core.getTransaction({ digest, include: { effects: true }, signal }));
      } catch (err) {
        if (err instanceof TransactionError && err.reason === 'notFound') return null;
        if (opts.transport === 'grpc' && /not.?found/i.test(String((err as Error).message))) return null;
        throw err;
      }
    },
    async paymentCurrent(signed, { signal } = {}) {
      const payment = bcs.TransactionData.parse(fromBase64(signed.bytes)).V1.gasData.payment;
      if (!payment.length) return false;
      const { objects } = await client.core.getObjects({ objectIds: payment.map((p) => p.objectId), signal });
      return objects.every((obj, i) => {
        if (obj instanceof ObjectError && (obj.code === 'notFound' || obj.code === 'notExists')) return false;
        if (obj instanceof Error) throw obj;
        return normalizeSuiAddress(obj.objectId) === normalizeSuiAddress(payment[i].objectId) && String(obj.version) === String(payment[i].version) && obj.digest === payment[i].digest;
      });
    },
  };
}
