// Reads a package's normalized Move modules (struct fields, function parameters) from the node,
// over gRPC (MovePackageService.GetPackage) or GraphQL (`package { module { struct function } }`),
// rendered as Move prints types so src/chain-events/contract-check.ts can compare them.
import { SuiGraphQLClient } from '@mysten/sui/graphql';
import { GrpcTypes, RpcError } from '@mysten/sui/grpc';
import { normalizeSuiAddress } from '@mysten/sui/utils';
import type { ModuleQuery, NormalizedModules, ReadNormalizedModules } from '../chain-events/contract-check';
import { createGrpcWebClient } from './sui-grpc-web';

export interface MoveModuleReaderOptions {
  transport: 'graphql' | 'grpc';
  url: string;
  network?: string;
}

const PRIMITIVES: Partial<Record<GrpcTypes.OpenSignatureBody_Type, string>> = {
  [GrpcTypes.OpenSignatureBody_Type.ADDRESS]: 'address',
  [GrpcTypes.OpenSignatureBody_Type.BOOL]: 'bool',
  [GrpcTypes.OpenSignatureBody_Type.U8]: 'u8',
  [GrpcTypes.OpenSignatureBody_Type.U16]: 'u16',
  [GrpcTypes.OpenSignatureBody_Type.U32]: 'u32',
  [GrpcTypes.OpenSignatureBody_Type.U64]: 'u64',
  [GrpcTypes.OpenSignatureBody_Type.U128]: 'u128',
  [GrpcTypes.OpenSignatureBody_Type.U256]: 'u256',
};

const datatypeName = (typeName: string) => {
  const [address, ...rest] = typeName.split('::');
  return [normalizeSuiAddress(address), ...rest].join('::');
};
const generic = (base: string, params: string[]) => (params.length ? `${base}<${params.join(', ')}>` : base);

function grpcBody(body: GrpcTypes.OpenSignatureBody | undefined): string {
  if (!body?.type) return '?';
  const primitive = PRIMITIVES[body.type];
  if (primitive) return primitive;
  switch (body.type) {
    case GrpcTypes.OpenSignatureBody_Type.VECTOR:
      return `vector<${grpcBody(body.typeParameterInstantiation[0])}>`;
    case GrpcTypes.OpenSignatureBody_Type.DATATYPE:
      return generic(datatypeName(body.typeName ?? '?'), body.typeParameterInstantiation.map(grpcBody));
    case GrpcTypes.OpenSignatureBody_Type.TYPE_PARAMETER:
      return `T${body.typeParameter ?? 0}`;
    default:
      return '?';
  }
}

function grpcSignature(sig: GrpcTypes.OpenSignature): string {
  const ref = sig.reference === GrpcTypes.OpenSignature_Reference.MUTABLE ? '&mut ' : sig.reference === GrpcTypes.OpenSignature_Reference.IMMUTABLE ? '&' : '';
  return ref + grpcBody(sig.body);
}

/** GraphQL's `OpenMoveTypeSignature` JSON. */
type GraphqlBody = string | { vector: GraphqlBody } | { datatype: { package: string; module: string; type: string; typeParameters?: GraphqlBody[] } } | { typeParameter: number };

function graphqlBody(body: GraphqlBody): string {
  if (typeof body === 'string') return body;
  if ('vector' in body) return `vector<${graphqlBody(body.vector)}>`;
  if ('datatype' in body) return generic(`${normalizeSuiAddress(body.datatype.package)}::${body.datatype.module}::${body.datatype.type}`, (body.datatype.typeParameters ?? []).map(graphqlBody));
  return `T${body.typeParameter}`;
}

const graphqlSignature = (sig: { ref?: string | null; body: GraphqlBody }) => (sig.ref === '&mut' ? '&mut ' : sig.ref === '&' ? '&' : '') + graphqlBody(sig.body);

interface GraphqlModule {
  [alias: string]: { fields?: Array<{ name: string; type: { signature: { body: GraphqlBody } } }>; parameters?: Array<{ signature: { ref?: string | null; body: GraphqlBody } }> } | null;
}

/** One query for every asked-for struct and function, names passed as variables. */
function graphqlDocument(query: readonly ModuleQuery[]) {
  const variables: Record<string, string> = {};
  const declarations: string[] = ['$package: SuiAddress!'];
  const name = (key: string, value: string) => {
    variables[key] = value;
    declarations.push(`$${key}: String!`);
    return `$${key}`;
  };
  const modules = query.map((m, i) => {
    const structs = m.structs.map((s, j) => `s${j}: struct(name: ${name(`m${i}s${j}`, s)}) { fields { name type { signature } } }`);
    const functions = m.functions.map((f, j) => `f${j}: function(name: ${name(`m${i}f${j}`, f)}) { parameters { signature } }`);
    return `m${i}: module(name: ${name(`m${i}`, m.module)}) { name ${[...structs, ...functions].join(' ')} }`;
  });
  return { document: `query platformContract(${declarations.join(', ')}) { package(address: $package) { ${modules.join(' ')} } }`, variables };
}

export function createMoveModuleReader(options: MoveModuleReaderOptions): ReadNormalizedModules {
  const network = options.network ?? 'mainnet';
  if (options.transport === 'grpc') {
    const client = createGrpcWebClient(options.url);
    return async (packageId, _query, signal) => {
      let response: GrpcTypes.GetPackageResponse;
      try {
        const [message] = await client.call('sui.rpc.v2.MovePackageService/GetPackage', GrpcTypes.GetPackageRequest.toBinary({ packageId }), signal);
        response = GrpcTypes.GetPackageResponse.fromBinary(message ?? new Uint8Array());
      } catch (error) {
        // No such package: every module the contract names is missing, which the check reports.
        if (error instanceof RpcError && error.code === 'NOT_FOUND') return {};
        throw error;
      }
      const out: NormalizedModules = {};
      for (const m of response.package?.modules ?? []) {
        if (!m.name) continue;
        out[m.name] = {
          structs: Object.fromEntries(m.datatypes.filter((d) => d.name).map((d) => [d.name!, d.fields.map((f) => ({ name: f.name ?? '', type: grpcBody(f.type) }))])),
          functions: Object.fromEntries(m.functions.filter((f) => f.name).map((f) => [f.name!, f.parameters.map(grpcSignature)])),
        };
      }
      return out;
    };
  }
  const client = new SuiGraphQLClient({ url: options.url, network });
  return async (packageId, query, signal) => {
    const { document, variables } = graphqlDocument(query);
    const result = (await client.query({ query: document, variables: { ...variables, package: packageId }, signal })) as {
      data?: { package?: Record<string, GraphqlModule | null> | null } | null;
      errors?: ReadonlyArray<{ message: string }>;
    };
    if (result.errors?.length) throw new Error(`graphql package ${packageId}: ${result.errors.map((e) => e.message).join('; ')}`);
    const out: NormalizedModules = {};
    query.forEach((m, i) => {
      const found = result.data?.package?.[`m${i}`];
      if (!found) return;
      const structs: NormalizedModules[string]['structs'] = {};
      const functions: NormalizedModules[string]['functions'] = {};
      m.structs.forEach((s, j) => {
        const fields = found[`s${j}`]?.fields;
        if (fields) structs[s] = fields.map((f) => ({ name: f.name, type: graphqlBody(f.type.signature.body) }));
      });
      m.functions.forEach((f, j) => {
        const params = found[`f${j}`]?.parameters;
        if (params) functions[f] = params.map((p) => graphqlSignature(p.signature));
      });
      out[m.module] = { structs, functions };
    });
    return out;
  };
}
