import { normalizeSuiAddress } from '@mysten/sui/utils';
import type { FunctionContract, StructContract } from './contract.js';

/**
 * What the node says about the modules asked for, types rendered as Move prints them with full
 * addresses (`&mut 0x…02::clock::Clock`). A module, struct or function absent here is absent on chain.
 */
export interface NormalizedModules {
  [module: string]: {
    structs: Record<string, ReadonlyArray<{ name: string; type: string }>>;
    functions: Record<string, readonly string[]>;
  };
}

/** The names one package's check needs: readers may fetch only these. */
export interface ModuleQuery {
  module: string;
  structs: string[];
  functions: string[];
}

/** Reads a package's normalized modules from the node (src/providers/sui-move-modules.ts). */
export type ReadNormalizedModules = (packageId: string, query: readonly ModuleQuery[], signal?: AbortSignal) => Promise<NormalizedModules>;

export function moduleQuery(structs: readonly StructContract[], functions: readonly FunctionContract[]): ModuleQuery[] {
  const byModule = new Map<string, ModuleQuery>();
  const entry = (module: string) => byModule.get(module) ?? byModule.set(module, { module, structs: [], functions: [] }).get(module)!;
  for (const s of structs) entry(s.module).structs.push(s.name);
  for (const f of functions) entry(f.module).functions.push(f.name);
  return [...byModule.values()];
}

const ADDRESS_IN_TYPE = /0x[0-9a-fA-F]+(?=::)/g;
const normalizeAddresses = (type: string) => type.replace(ADDRESS_IN_TYPE, (a) => normalizeSuiAddress(a));
const withoutAddresses = (type: string) => type.replace(/0x[0-9a-fA-F]+::/g, '');
const compact = (type: string) => type.replace(/\s+/g, ' ').trim();

/** Whether a type from the node is the contract's; an address-less datatype matches by module and name. */
export function typeMatches(expected: string, actual: string): boolean {
  const want = compact(expected);
  if (!want.includes('0x')) return want === withoutAddresses(compact(actual));
  return normalizeAddresses(want) === normalizeAddresses(compact(actual));
}

/** A node's type for a message: `0x2::clock::Clock` rather than 64 hex digits. */
export const displayType = (type: string): string => type.replace(/0x0*([0-9a-fA-F]+)(?=::)/g, '0x$1');

const oneOf = (types: readonly string[]) => (types.length === 1 ? types[0] : `one of ${types.join(' | ')}`);

/** Every way the struct on chain differs from what the code reads; empty when it matches. */
export function structDifferences(modules: NormalizedModules, contract: StructContract): string[] {
  const name = `${contract.module}::${contract.name}`;
  const module = modules[contract.module];
  if (!module) return [`module ${contract.module} is missing (struct ${name})`];
  const fields = module.structs[contract.name];
  if (!fields) return [`struct ${name} is missing`];
  const out: string[] = [];
  for (const [field, types] of Object.entries(contract.fields)) {
    const actual = fields.find((f) => f.name === field);
    if (!actual) out.push(`${name}.${field} is missing (expected ${oneOf(types)})`);
    else if (!types.some((t) => typeMatches(t, actual.type))) out.push(`${name}.${field} is ${displayType(actual.type)}, expected ${oneOf(types)}`);
  }
  return out;
}

const TX_CONTEXT = /^&(mut )?0x0*2::tx_context::TxContext$/;

/** Every way the function on chain differs from the call the code builds; empty when it matches. */
export function functionDifferences(modules: NormalizedModules, contract: FunctionContract): string[] {
  const name = `${contract.module}::${contract.name}`;
  const module = modules[contract.module];
  if (!module) return [`module ${contract.module} is missing (function ${name})`];
  const found = module.functions[contract.name];
  if (!found) return [`function ${name} is missing`];
  const params = found.at(-1) !== undefined && TX_CONTEXT.test(compact(found.at(-1)!)) ? found.slice(0, -1) : found;
  const out: string[] = [];
  if (params.length !== contract.parameters.length) out.push(`${name} takes ${params.length} parameters, expected ${contract.parameters.length}`);
  contract.parameters.forEach((want, i) => {
    const actual = params[i];
    if (actual !== undefined && !typeMatches(want, actual)) out.push(`${name} parameter ${i + 1} is ${displayType(actual)}, expected ${want}`);
  });
  return out;
}
