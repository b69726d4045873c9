// One warm-up request per operation of the API, listed from the checked-in contracts rather than by
// hand: every root Query field of schema/schema.graphql and every GET route of schema/openapi.json.
// Mutations and non-GET routes change state, so they are left out, except the wallet login the
// authenticated reads need (REST challenge + login; the wallet is an operator by OPERATOR_WALLETS).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import {
  buildSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface WarmupRequest {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

/** A value of an argument's type: the bench wallet where an address is asked for, else the type's simplest value. */
function valueOf(type: GraphQLInputType, argName: string, address: string): string {
  if (isNonNullType(type)) return valueOf(type.ofType, argName, address);
  if (isListType(type)) return `[${valueOf(type.ofType, argName, address)}]`;
  if (isEnumType(type)) return type.getValues()[0]!.name;
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields()).filter((f) => isNonNullType(f.type) && f.defaultValue === undefined);
    return `{ ${fields.map((f) => `${f.name}: ${valueOf(f.type, f.name, address)}`).join(', ')} }`;
  }
  switch (type.name) {
    case 'Int':
    case 'Float':
      return '1';
    case 'Boolean':
      return 'false';
    default:
      if (/player|address|wallet/i.test(argName)) return JSON.stringify(address);
      if (/url/i.test(argName)) return JSON.stringify('https://example.com/?a=1');
      if (/slug/i.test(argName)) return JSON.stringify('platform');
      if (/room/i.test(argName)) return JSON.stringify('global');
      return JSON.stringify('bench');
  }
}

/** The field's scalar subfields (one level), or `__typename` when it has none. */
function selectionOf(field: GraphQLField<unknown, unknown>): string {
  const named = getNamedType(field.type);
  if (isLeafType(named)) return '';
  if (!isObjectType(named)) return '{ __typename }';
  const leaves = Object.values(named.getFields()).filter((f) => isLeafType(getNamedType(f.type)) && f.args.every((a) => !isNonNullType(a.type)));
  return `{ __typename ${leaves.map((f) => f.name).join(' ')} }`;
}

function graphqlRequests(schema: GraphQLSchema, address: string): WarmupRequest[] {
  return Object.values(schema.getQueryType()!.getFields()).map((field) => {
    const args = field.args.filter((a) => isNonNullType(a.type) && a.defaultValue === undefined);
    const argText = args.length ? `(${args.map((a) => `${a.name}: ${valueOf(a.type, a.name, address)}`).join(', ')})` : '';
    return { name: `query ${field.name}`, method: 'POST', path: '/graphql', body: JSON.stringify({ query: `{ ${field.name}${argText} ${selectionOf(field)} }` }) };
  });
}

interface OpenApi {
  paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string; required?: boolean; schema?: { enum?: string[]; example?: unknown } }> }>>;
}

/** A path parameter's value: its enum's first value, the bench wallet for addresses, else a plain word. */
function parameterValue(name: string, schema: { enum?: string[] } | undefined, address: string): string {
  if (schema?.enum?.length) return schema.enum[0]!;
  if (/player|wallet|address/i.test(name)) return address;
  if (name === 'slug') return 'platform';
  return 'bench';
}

function restRequests(openapi: OpenApi, address: string): WarmupRequest[] {
  const out: WarmupRequest[] = [];
  for (const [route, methods] of Object.entries(openapi.paths)) {
    const get = methods.get;
    if (!get) continue;
    const params = get.parameters ?? [];
    const filled = route.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(parameterValue(name, params.find((p) => p.name === name)?.schema, address)));
    const query = params.filter((p) => p.in === 'query' && p.required).map((p) => `${p.name}=${encodeURIComponent(parameterValue(p.name, p.schema, address))}`);
    out.push({ name: `GET ${route}`, method: 'GET', path: query.length ? `${filled}?${query.join('&')}` : filled });
  }
  return out;
}

/** The bench's wallet: set it as OPERATOR_WALLETS so the admin reads answer too. */
export const benchWallet = (): Ed25519Keypair => Ed25519Keypair.deriveKeypairFromSeed('11'.repeat(32));

/** Every warm-up request, in contract order. */
export function warmupRequests(address: string): WarmupRequest[] {
  const schema = buildSchema(readFileSync(path.join(ROOT, 'schema/schema.graphql'), 'utf8'));
  const openapi = JSON.parse(readFileSync(path.join(ROOT, 'schema/openapi.json'), 'utf8')) as OpenApi;
  return [...graphqlRequests(schema, address), ...restRequests(openapi, address)];
}

async function login(url: string, keypair: Ed25519Keypair): Promise<string> {
  const post = (p: string, body: unknown) => fetch(`${url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const address = keypair.toSuiAddress();
  const challenge = (await (await post('/api/auth/challenge', { address })).json()) as { message: string };
  const { signature } = await keypair.signPersonalMessage(new TextEncoder().encode(challenge.message));
  const res = await post('/api/auth/login', { address, message: challenge.message, signature });
  if (res.status !== 200) throw new Error(`bench login failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

/** Logs the bench wallet in, then sends each request once, one at a time; returns the count of answers by status class. */
export async function warmUp(url: string, keypair: Ed25519Keypair): Promise<Record<string, number>> {
  const token = await login(url, keypair);
  const statuses: Record<string, number> = {};
  for (const r of warmupRequests(keypair.toSuiAddress())) {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...(r.body ? { 'content-type': 'application/json' } : {}) };
    const res = await fetch(`${url}${r.path}`, { method: r.method, headers, body: r.body });
    const text = await res.text();
    const failed = res.status >= 500 || (r.path === '/graphql' && text.includes('"errors"'));
    const key = `${res.status}${failed && res.status < 500 ? ' (GraphQL errors)' : ''}`;
    statuses[key] = (statuses[key] ?? 0) + 1;
  }
  return statuses;
}
