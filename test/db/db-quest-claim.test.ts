import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../helpers/db';

describe('QuestClaim uniqueness', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  }, 120_000);
  afterAll(async () => {
    await t?.cleanup();
  });

  it('exactly one of 20 parallel identical claims succeeds', async () => {
    const claim = {
      questKey: 'bet_10',
      campaignSlug: 'default',
      playerAddress: `0x${'ab'.repeat(32)}`,
      timePeriod: 'daily',
      periodStart: new Date('2026-01-05T00:00:00Z'),
      xpReward: 50,
    };
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => t.prisma.questClaim.create({ data: claim })));
    const ok = results.filter((r) => r.status === 'fulfilled');
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).toHaveLength(1);
    expect(failed).toHaveLength(19);
    for (const f of failed) expect((f.reason as { code?: string }).code).toBe('P2002');
    expect(await t.prisma.questClaim.count()).toBe(1);
  });

  it('a different period (or any of the five fields) is a new claim', async () => {
    const base = { questKey: 'q', campaignSlug: 'c', playerAddress: '0x1', timePeriod: 'daily', xpReward: 1 };
    await t.prisma.questClaim.create({ data: { ...base, periodStart: new Date('2026-01-05T00:00:00Z') } });
    await t.prisma.questClaim.create({ data: { ...base, periodStart: new Date('2026-01-06T00:00:00Z') } });
    await t.prisma.questClaim.create({ data: { ...base, timePeriod: 'weekly', periodStart: new Date('2026-01-05T00:00:00Z') } });
    expect(await t.prisma.questClaim.count({ where: { questKey: 'q' } })).toBe(3);
  });
});
