import { EVENT_FIELDS } from '../chain-events/contract.js';
import { moduleQuery, structDifferences, type ReadNormalizedModules } from '../chain-events/contract-check.js';
import type { StructContract } from '../chain-events/contract.js';
import type { AnyEventKind, KindKey } from './kinds.js';

/** The struct each kind's decoder reads, from the registry's Move type and the contract's fields. */
export function structOf(kind: Pick<AnyEventKind, 'key' | 'moveType'>): StructContract {
  const [module, name] = kind.moveType.split('::');
  return { module, name, fields: EVENT_FIELDS[kind.key] };
}

/** Per kind, how the package's event struct differs from what its decoder reads (empty: it matches). */
export async function eventContractDifferences(
  kinds: readonly Pick<AnyEventKind, 'key' | 'moveType'>[],
  packageId: string,
  read: ReadNormalizedModules,
  signal?: AbortSignal,
): Promise<Map<KindKey, string[]>> {
  const structs = kinds.map(structOf);
  const modules = await read(packageId, moduleQuery(structs, []), signal);
  return new Map(kinds.map((k, i) => [k.key, structDifferences(modules, structs[i])]));
}
