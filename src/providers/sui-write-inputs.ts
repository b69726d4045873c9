// The parts of the chain writer that domains use while building and judging writes, without the
// SDK's clients and keypairs (src/providers/sui-writer.ts loads those only where a writer is configured).
import { normalizeSuiObjectId } from '@mysten/sui/utils';

/**
 * An object argument resolved on the node at build time, with its mutability stated: without it
 * the SDK would also ask the node for the Move function's signature.
 */
export const objectInput = (objectId: string, mutable: boolean) => ({ $kind: 'UnresolvedObject' as const, UnresolvedObject: { objectId: normalizeSuiObjectId(objectId), mutable } });

/** The node answered the execute call with an error: it did not execute these bytes (now). */
export class NodeRefusedError extends Error {
  override name = 'NodeRefusedError';
}
