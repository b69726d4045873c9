import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../helpers/api';
import { gql } from '../helpers/client';
import { startIpCheckFixture, type IpCheckFixture } from '../fixtures/ip-check';
import { ClaimGiftDocument, GiftRemainingDocument } from '../../src/generated/graphql';

// /api/gift/get over real HTTP with forwarded client IPs from a trusted peer (127.0.0.0/8), the
// proxycheck-format fixture as the anti-proxy service, and the real database.

let ipCheck: IpCheckFixture;
let api: TestApi;
let projectSeq = 0;
let ipSeq = 0;

/** A fresh client address per call (10.x.y.z), so quotas of one test never touch another's. */
const nextIp = () => {
  ipSeq++;
  return `10.${(ipSeq >> 16) & 255}.${(ipSeq >> 8) & 255}.${ipSeq & 255}`;
};

interface Answer {
  status: number;
  body: { url?: string; project?: string; error?: { code: string; details?: Record<string, unknown> } } & Record<string, unknown>;
}

async function getGift(project: string, ip: string): Promise<Answer> {
  const res = await fetch(`${api.url}/api/gift/get?project=${encodeURIComponent(project)}`, { headers: { 'x-forwarded-for': ip } });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

/** A project with an open window, its daily quota and `stash` URLs. */
async function project(opts: { quota: number; stash: number; window?: 'open' | 'closed' }): Promise<{ name: string; urls: string[] }> {
  const name = `gp${++projectSeq}-${Date.now().toString(36)}`;
  const now = Date.now();
  const open = opts.window !== 'closed';
  await api.db.prisma.giftDeliverySchedule.create({
    data: { project: name, startsAt: new Date(open ? now - 3600_000 : now + 3600_000), endsAt: new Date(now + 7200_000), dailyQuota: opts.quota },
  });
  const urls = Array.from({ length: opts.stash }, (_, i) => `https://gifts.example/${name}/${i}`);
  await api.services.gifts.loadStash(name, urls);
  return { name, urls };
}

const delivered = (name: string) => api.db.prisma.getStashedGift.findMany({ where: { project: name, deliveredAt: { not: null } } });
const counter = (scope: string, key: string) => api.db.prisma.giftDeliveryLimit.findUnique({ where: { scope_key: { scope, key } } });

async function metric(name: string, labels: string): Promise<number> {
  const text = await (await fetch(`${api.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

beforeAll(async () => {
  ipCheck = await startIpCheckFixture();
  api = await startApi({
    env: { TRUSTED_PROXY_CIDRS: '127.0.0.0/8', 'GENERAL.IPCHECK_API_KEY': ipCheck.key, 'GENERAL.IPCHECK_URL': ipCheck.url, 'HTTP.RATE_LIMIT_MAX': '1000' },
  });
}, 60_000);
afterAll(async () => {
  await api?.close();
  await ipCheck?.close();
});
afterEach(() => ipCheck.setMode('ok'));

describe('gift delivery', () => {
  it('200 parallel requests from 200 IPs against a project quota of 10: exactly 10 distinct URLs, 190 quota refusals', async () => {
    const { name, urls } = await project({ quota: 10, stash: 50 });
    const answers = await Promise.all(Array.from({ length: 200 }, () => getGift(name, nextIp())));

    const served = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    expect(served).toHaveLength(10);
    expect(new Set(served.map((a) => a.body.url)).size).toBe(10);
    for (const a of served) expect(urls).toContain(a.body.url);
    expect(refused).toHaveLength(190);
    for (const a of refused) expect(a).toMatchObject({ status: 429, body: { error: { code: 'GIFT_QUOTA_EXCEEDED', details: { scope: 'project', limit: 10 } } } });

    const rows = await delivered(name);
    expect(rows.map((r) => r.url).sort()).toEqual(served.map((a) => a.body.url).sort());
    expect(new Set(rows.map((r) => r.deliveredToIp)).size).toBe(10);
    expect((await counter('project', name))?.deliveredCount).toBe(10);
    // Every delivery was screened by the anti-proxy service, as the trusted forwarded address.
    for (const row of rows) expect(ipCheck.asked).toContain(row.deliveredToIp);
  }, 60_000);

  it('per-IP quota 1: a second request from one address is refused, also when 20 arrive at once', async () => {
    const { name } = await project({ quota: 10, stash: 10 });
    const ip = nextIp();
    expect((await getGift(name, ip)).status).toBe(200);
    const checks = ipCheck.hits;
    expect(await getGift(name, ip)).toMatchObject({ status: 429, body: { error: { code: 'GIFT_QUOTA_EXCEEDED', details: { scope: 'ip', limit: 1 } } } });
    // A request whose quota is visibly spent is refused before the anti-proxy service is asked.
    expect(ipCheck.hits).toBe(checks);

    const other = nextIp();
    const burst = await Promise.all(Array.from({ length: 20 }, () => getGift(name, other)));
    expect(burst.filter((a) => a.status === 200)).toHaveLength(1);
    expect(burst.filter((a) => a.body.error?.code === 'GIFT_QUOTA_EXCEEDED' && a.body.error.details?.scope === 'ip')).toHaveLength(19);
    // Refusals rolled their project increment back: two gifts out, two counted.
    expect((await counter('project', name))?.deliveredCount).toBe(2);
    expect(await delivered(name)).toHaveLength(2);

    const remaining = await fetch(`${api.url}/api/gift/remaining?project=${name}`, { headers: { 'x-forwarded-for': ip } });
    expect(await remaining.json()).toMatchObject({ project: name, projectQuota: { limit: 10, delivered: 2, remaining: 8 }, ipQuota: { limit: 1, delivered: 1, remaining: 0 } });
  });

  it('the anti-proxy service failing or hanging: the gift is still served (within the request limit), logged and counted', async () => {
    const { name } = await project({ quota: 10, stash: 10 });
    const failedBefore = await metric('ip_check_requests_total', 'outcome="http_status"');
    const timeoutsBefore = await metric('ip_check_requests_total', 'outcome="timeout"');

    ipCheck.setMode('fail');
    expect(await getGift(name, nextIp())).toMatchObject({ status: 200, body: { project: name, url: expect.stringContaining(name) } });

    ipCheck.setMode('hang');
    // The request limit (HTTP.REQUEST_TIMEOUT_MS, 5 s) would answer 503 REQUEST_TIMEOUT: a 200 is inside it.
    expect(await getGift(name, nextIp())).toMatchObject({ status: 200, body: { project: name } });

    expect(await metric('ip_check_requests_total', 'outcome="http_status"')).toBe(failedBefore + 1);
    expect(await metric('ip_check_requests_total', 'outcome="timeout"')).toBe(timeoutsBefore + 1);
    const warnings = api.logs.lines.filter((l) => l.msg === 'anti-proxy check failed; continuing without it');
    expect(warnings.map((l) => l.reason)).toEqual(expect.arrayContaining(['http_status', 'timeout']));
  }, 30_000);

  it('a proxy verdict is refused with PROXY_DETECTED and nothing is written', async () => {
    const { name } = await project({ quota: 10, stash: 10 });
    ipCheck.setMode('proxy');
    const answer = await getGift(name, nextIp());
    expect(answer).toMatchObject({ status: 403, body: { error: { code: 'PROXY_DETECTED', details: { type: 'VPN' } } } });
    expect(await delivered(name)).toHaveLength(0);
    expect(await counter('project', name)).toBeNull();

    // One listed address among clean ones: only that one is refused.
    ipCheck.setMode('ok');
    const vpn = nextIp();
    ipCheck.proxies.add(vpn);
    expect((await getGift(name, vpn)).status).toBe(403);
    expect((await getGift(name, nextIp())).status).toBe(200);
  });

  it('outside the schedule window, with an empty stash, or a bad project: clear refusals, counters untouched', async () => {
    const closed = await project({ quota: 10, stash: 5, window: 'closed' });
    expect(await getGift(closed.name, nextIp())).toMatchObject({ status: 409, body: { error: { code: 'GIFT_UNAVAILABLE', details: { reason: 'outside_schedule' } } } });

    const empty = await project({ quota: 10, stash: 1 });
    expect((await getGift(empty.name, nextIp())).status).toBe(200);
    const ip = nextIp();
    expect(await getGift(empty.name, ip)).toMatchObject({ status: 409, body: { error: { code: 'GIFT_UNAVAILABLE', details: { reason: 'stash_empty' } } } });
    // The refused claim's increments were rolled back with it.
    expect((await counter('project', empty.name))?.deliveredCount).toBe(1);
    expect(await counter('ip', `${empty.name}:${ip}`)).toBeNull();

    for (const bad of ['', 'Upper', 'a b', 'x'.repeat(65)]) {
      expect(await getGift(bad, nextIp())).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_FAILED' } } });
    }
    const unknownParam = await fetch(`${api.url}/api/gift/get?project=${empty.name}&extra=1`);
    expect(unknownParam.status).toBe(400);
  });

  it('GraphQL claimGift and giftRemaining follow the same rules and codes', async () => {
    const { name } = await project({ quota: 3, stash: 5 });
    const ip = nextIp();
    const headers = { 'x-forwarded-for': ip };
    const first = await gql(api.url, ClaimGiftDocument, { project: name }, headers);
    expect(first.body.data?.claimGift).toMatchObject({ project: name, url: expect.stringContaining(name) });
    const second = await gql(api.url, ClaimGiftDocument, { project: name }, headers);
    expect(second.body.errors?.[0]?.extensions).toMatchObject({ code: 'GIFT_QUOTA_EXCEEDED' });
    const bad = await gql(api.url, ClaimGiftDocument, { project: 'Not Valid' }, headers);
    expect(bad.body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED' });

    const remaining = await gql(api.url, GiftRemainingDocument, { project: name }, headers);
    expect(remaining.body.data?.giftRemaining).toMatchObject({
      project: name,
      window: { startsAt: expect.any(String), endsAt: expect.any(String) },
      projectQuota: { limit: 3, delivered: 1, remaining: 2 },
      ipQuota: { limit: 1, delivered: 1, remaining: 0 },
    });
  });

  it('the nightly reset zeroes project counters and drops per-IP counters', async () => {
    const { name } = await project({ quota: 1, stash: 5 });
    const ip = nextIp();
    expect((await getGift(name, ip)).status).toBe(200);
    expect((await getGift(name, nextIp())).body.error?.code).toBe('GIFT_QUOTA_EXCEEDED');

    const result = await api.services.gifts.resetCounters();
    expect(result.projectCounters).toBeGreaterThanOrEqual(1);
    expect(await counter('ip', `${name}:${ip}`)).toBeNull();
    expect((await counter('project', name))?.deliveredCount).toBe(0);
    // Quotas are fresh: the same address gets a second (different) gift.
    expect(await getGift(name, ip)).toMatchObject({ status: 200 });
    expect(await delivered(name)).toHaveLength(2);
  });

  it('the service key never appears in a response or a log line', async () => {
    const { name } = await project({ quota: 5, stash: 5 });
    const answer = await getGift(name, nextIp());
    expect(JSON.stringify(answer)).not.toContain(ipCheck.key);
    expect(api.logs.raw.join('\n')).not.toContain(ipCheck.key);
    const doc = await (await fetch(`${api.url}/api/openapi.json`)).text();
    expect(doc).toContain('/api/gift/get');
    expect(doc).toContain('/api/gift/remaining');
  });
});
