/**
 * Gifts run by operators (issue 25): a project created, given a window and a stash through
 * /api/admin/gifts (and GraphQL), then handed out by /api/gift/get; what is left per project and
 * window; validation with field details; 401/403; one audit row per action; parallel window
 * replacements never interleave.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateGiftProjectDocument, GiftProjectsDocument, LoadGiftStashDocument, SetGiftWindowsDocument } from '../../src/generated/graphql';
import { startApi, type TestApi } from '../helpers/api';
import { gql } from '../helpers/client';

const OPERATOR = `0x${randomBytes(32).toString('hex')}`;
let api: TestApi;
let seq = 0;

beforeAll(async () => {
  api = await startApi({ env: { OPERATOR_WALLETS: OPERATOR, 'GIFTS.IP_DAILY_LIMIT': '100' } });
}, 60_000);
afterAll(async () => api?.close());

const bearer = (wallet: string) => ({ authorization: `Bearer ${api.services.tokens.signAccess(wallet)}` });
const operator = () => bearer(OPERATOR);
const newProject = () => `ga${++seq}-${randomBytes(3).toString('hex')}`;
const hours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();

async function call(method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
  const res = await fetch(`${api.url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several shapes, read field by field
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

describe('gift projects run by operators', () => {
  it('creates a project, opens a window, stashes URLs, and players receive them within the quota', async () => {
    const name = newProject();
    const created = await call('POST', '/api/admin/gifts/projects', operator(), { name, title: 'Winter drop' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name, title: 'Winter drop', stash: { total: 0, left: 0 }, windows: [] });
    // Before any window: nothing handed out.
    expect((await fetch(`${api.url}/api/gift/get?project=${name}`)).status).toBe(409);

    const windows = await call('PUT', `/api/admin/gifts/projects/${name}/windows`, operator(), {
      windows: [
        { startsAt: hours(-1), endsAt: hours(2), dailyQuota: 2 },
        { startsAt: hours(24), endsAt: hours(48), dailyQuota: 50, enabled: false },
      ],
    });
    expect(windows.status).toBe(200);
    expect(windows.body.windows).toEqual([expect.objectContaining({ dailyQuota: 2, open: true, delivered: 0 }), expect.objectContaining({ dailyQuota: 50, open: false, enabled: false })]);

    const urls = Array.from({ length: 3 }, (_, i) => `https://gifts.example/${name}/${i}`);
    const stash = await call('POST', `/api/admin/gifts/projects/${name}/stash`, operator(), { urls: [...urls, urls[0]] });
    expect(stash.status).toBe(200);
    expect(stash.body).toMatchObject({ added: 3, skipped: 1, project: { stash: { total: 3, delivered: 0, left: 3 } } });

    const answers = await Promise.all(Array.from({ length: 4 }, () => fetch(`${api.url}/api/gift/get?project=${name}`).then((r) => r.status)));
    expect(answers.sort()).toEqual([200, 200, 429, 429]);

    const list = await gql(api.url, GiftProjectsDocument, {}, operator());
    const mine = list.body.data!.giftProjects.find((p) => p.name === name)!;
    expect(mine.stash).toEqual({ total: 3, delivered: 2, left: 1 });
    expect(mine.today).toEqual({ limit: 2, delivered: 2, remaining: 0 });
    expect(mine.windows[0]).toMatchObject({ open: true, delivered: 2 });

    const audit = await api.db.prisma.operatorAudit.findMany({ where: { target: name }, orderBy: { id: 'asc' } });
    expect(audit.map((a) => a.action)).toEqual(['gifts.create_project', 'gifts.set_windows', 'gifts.load_stash']);
    expect(audit.every((a) => a.actor === OPERATOR)).toBe(true);
    expect(audit[2]!.after).toEqual({ received: 4, added: 3, skipped: 1 });
    expect(JSON.stringify({ before: audit[2]!.before, after: audit[2]!.after })).not.toContain('gifts.example');
  });

  it('works the same over GraphQL', async () => {
    const name = newProject();
    expect((await gql(api.url, CreateGiftProjectDocument, { name }, operator())).body.data?.createGiftProject.name).toBe(name);
    const set = await gql(api.url, SetGiftWindowsDocument, { project: name, windows: [{ startsAt: hours(-1), endsAt: hours(1), dailyQuota: 5 }] }, operator());
    expect(set.body.data?.setGiftWindows.windows[0]).toMatchObject({ dailyQuota: 5, open: true, enabled: true });
    const load = await gql(api.url, LoadGiftStashDocument, { project: name, urls: [`https://gifts.example/${name}/a`] }, operator());
    expect(load.body.data?.loadGiftStash).toMatchObject({ added: 1, skipped: 0, project: { stash: { left: 1 } } });
    const bad = await gql(api.url, SetGiftWindowsDocument, { project: name, windows: [{ startsAt: hours(1), endsAt: hours(-1), dailyQuota: 5 }] }, operator());
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });

  it('refuses bad input with field details, unknown projects, duplicates, and callers without the role', async () => {
    const name = newProject();
    await call('POST', '/api/admin/gifts/projects', operator(), { name });
    const dup = await call('POST', '/api/admin/gifts/projects', operator(), { name });
    expect(dup.status).toBe(409);
    const badName = await call('POST', '/api/admin/gifts/projects', operator(), { name: 'Has Spaces' });
    expect(badName.status).toBe(400);
    expect(badName.body.error.details.issues).toEqual([expect.objectContaining({ path: '/name' })]);
    const overlap = await call('PUT', `/api/admin/gifts/projects/${name}/windows`, operator(), {
      windows: [
        { startsAt: hours(0), endsAt: hours(5), dailyQuota: 1 },
        { startsAt: hours(4), endsAt: hours(6), dailyQuota: 1 },
      ],
    });
    expect(overlap.status).toBe(400);
    expect(overlap.body.error.details.issues).toEqual([expect.objectContaining({ path: '/windows/1/startsAt' })]);
    const negative = await call('PUT', `/api/admin/gifts/projects/${name}/windows`, operator(), { windows: [{ startsAt: hours(0), endsAt: hours(1), dailyQuota: -1 }] });
    expect(negative.body.error.details.issues).toEqual([expect.objectContaining({ path: '/windows/0/dailyQuota' })]);
    const badUrl = await call('POST', `/api/admin/gifts/projects/${name}/stash`, operator(), { urls: ['https://ok.example/1', 'not a url'] });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.error.details.issues).toEqual([expect.objectContaining({ path: '/urls/1' })]);
    expect(await api.db.prisma.getStashedGift.count({ where: { project: name } })).toBe(0);
    const missing = await call('PUT', `/api/admin/gifts/projects/${newProject()}/windows`, operator(), { windows: [] });
    expect(missing.status).toBe(404);

    const player = bearer(`0x${randomBytes(32).toString('hex')}`);
    for (const [method, path, body] of [
      ['GET', '/api/admin/gifts/projects'],
      ['POST', '/api/admin/gifts/projects', { name: newProject() }],
      ['PUT', `/api/admin/gifts/projects/${name}/windows`, { windows: [] }],
      ['POST', `/api/admin/gifts/projects/${name}/stash`, { urls: ['https://x.example/1'] }],
    ] as const) {
      expect((await call(method, path, {}, body)).status, `${method} ${path}`).toBe(401);
      expect((await call(method, path, player, body)).status, `${method} ${path}`).toBe(403);
    }
  });

  it('keeps one list of windows when operators replace it in parallel', async () => {
    const name = newProject();
    await call('POST', '/api/admin/gifts/projects', operator(), { name });
    const lists = Array.from({ length: 10 }, (_, i) => [{ startsAt: hours(i), endsAt: hours(i + 1), dailyQuota: i }, { startsAt: hours(i + 10), endsAt: hours(i + 11), dailyQuota: i }]);
    const answers = await Promise.all(lists.map((windows) => call('PUT', `/api/admin/gifts/projects/${name}/windows`, operator(), { windows })));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const rows = await api.db.prisma.giftDeliverySchedule.findMany({ where: { project: name } });
    expect(rows).toHaveLength(2);
    expect(rows[0]!.dailyQuota).toBe(rows[1]!.dailyQuota);
    expect(await api.db.prisma.operatorAudit.count({ where: { target: name, action: 'gifts.set_windows' } })).toBe(10);
  });
});
