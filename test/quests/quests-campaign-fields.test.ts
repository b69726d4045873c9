/**
 * A campaign's fields are declared once (the quests model's `campaignRecord` and `campaignFields`,
 * and the `campaign` columns): every field operators may send is stored, answered by both APIs to
 * operators and players, and offered by the console's form, with nothing per field in between.
 * The fields are read from the API's own documents, so a field added to the model is checked here
 * without a change to this test.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_FIELDS, type FormField } from '../../src/generated/openapi-forms';
import { startApi, type TestApi } from '../helpers/api';

const OPERATOR = `0x${randomBytes(32).toString('hex')}`;
const HOUR = 3_600_000;
const NOW = Date.now();
const BODY = FORM_FIELDS['POST /api/admin/campaigns'] ?? [];
let api: TestApi;

beforeAll(async () => {
  api = await startApi({ storePrefix: `campaign-fields-${randomBytes(4).toString('hex')}`, env: { OPERATOR_WALLETS: OPERATOR } });
}, 90_000);
afterAll(async () => api?.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers read field by field, whatever the model holds
type Json = Record<string, any>;

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const headers: Record<string, string> = { authorization: `Bearer ${api.services.tokens.signAccess(OPERATOR)}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${api.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Json };
}

async function graphql(query: string, asOperator = false): Promise<Json> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (asOperator) headers.authorization = `Bearer ${api.services.tokens.signAccess(OPERATOR)}`;
  const res = await fetch(`${api.url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query }) });
  const answer = (await res.json()) as { data?: Json; errors?: unknown[] };
  expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
  return answer.data!;
}

/** A value of the field's kind that differs per `round` (times keep the campaign's start before its end). */
function valueFor(f: FormField, round: number, slug: string): unknown {
  if (f.name === 'slug') return slug;
  switch (f.kind) {
    case 'boolean':
      return round % 2 === 0 ? f.default !== true : f.default === true;
    case 'dateTime':
      return new Date(NOW + (f.name === 'endAt' ? 48 + round : -1 - round) * HOUR).toISOString();
    case 'integer':
      return 7 + round;
    default:
      return `${f.name} ${round}`.slice(0, f.maxLength ?? 64);
  }
}

const bodyOf = (round: number, slug: string) => Object.fromEntries(BODY.map((f) => [f.name, valueFor(f, round, slug)]));

/** The scalar fields of a GraphQL object type, by introspection. */
async function scalarFields(type: string): Promise<string[]> {
  const data = await graphql(`{ __type(name: "${type}") { fields { name type { kind ofType { kind ofType { kind } } } } } }`);
  const leaf = (t: Json): string => (t.ofType ? leaf(t.ofType) : t.kind);
  return (data.__type.fields as Json[]).filter((f) => ['SCALAR', 'ENUM'].includes(leaf(f.type))).map((f) => f.name as string);
}

const picked = (row: Json, names: string[]) => Object.fromEntries(names.map((n) => [n, row[n]]));

describe('a campaign field, declared once', () => {
  it('the body operators send names the same fields as the public and the operators’ GraphQL types and the REST answers', async () => {
    const names = BODY.map((f) => f.name).sort();
    expect(names).toEqual(expect.arrayContaining(['slug', 'type', 'startAt', 'endAt', 'copyText']));
    expect((await scalarFields('QuestCampaign')).sort()).toEqual(names);
    const admin = await scalarFields('AdminCampaign');
    expect(admin.filter((n) => !['lifecycle', 'version', 'updatedAt'].includes(n)).sort()).toEqual(names);
    const document = (await (await fetch(`${api.url}/api/openapi.json`)).json()) as Json;
    expect(Object.keys(document.components.schemas.QuestCampaign.properties).filter((n) => n !== 'quests').sort()).toEqual(names);
  });

  it('every field is stored as sent and read back through REST and GraphQL, for players and operators, after a create and after an edit', async () => {
    const slug = `fields-${randomBytes(3).toString('hex')}`;
    const editable = BODY.filter((f) => f.name !== 'slug').map((f) => f.name);
    const all = BODY.map((f) => f.name);
    const selection = all.join(' ');

    const sent = bodyOf(0, slug);
    const created = await call('POST', '/api/admin/campaigns', sent);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(picked(created.body, all)).toEqual(sent);

    const expected = bodyOf(1, slug);
    const edited = await call('PATCH', `/api/admin/campaigns/${slug}`, { ...picked(expected, editable), version: created.body.version });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(picked(edited.body, all)).toEqual(expected);

    const stored = await api.db.prisma.campaign.findUniqueOrThrow({ where: { slug } });
    const storedJson = JSON.parse(JSON.stringify(stored)) as Json;
    expect(picked(storedJson, all)).toEqual(expected);

    const list = await call('GET', '/api/quests/list');
    expect(picked(list.body.campaigns.find((c: Json) => c.slug === slug), all)).toEqual(expected);
    const admin = await call('GET', '/api/admin/campaigns');
    expect(picked(admin.body.campaigns.find((c: Json) => c.slug === slug), all)).toEqual(expected);

    const publicGraphql = await graphql(`{ questCampaigns { ${selection} } }`);
    expect(publicGraphql.questCampaigns.find((c: Json) => c.slug === slug)).toEqual(expected);
    const adminGraphql = await graphql(`{ adminCampaigns { ${selection} } }`, true);
    expect(adminGraphql.adminCampaigns.find((c: Json) => c.slug === slug)).toEqual(expected);
  });
});
